import type { DatasetRecord } from '../case';
import type { SourcePosition } from '../text/position';
import { caseOfScenario } from './agentEvalset';
import { caseFromValue, readError } from './caseFromValue';
import { CaseIdTracker, positionalId } from './caseIdTracker';
import { DatasetError, displayPath } from './datasetError';
import {
  MAX_CASE_CHARS,
  parseElementText,
  probeJsonDataset,
  rangeAt,
  scanJsonDataset,
  syntaxMessage,
} from './jsonStream';
import type { DatasetSource } from './source';
import { isUntrustedEnv, notReadReason } from '../config/untrustedEnv';
import { displayLineAndColumn } from '../../shared/text/displayPosition';

/**
 * Reads a JSON dataset: an array of case objects, or an object with a `cases` array, or an EvalBench
 * agentic evalset (an object with a `scenarios` array and no `cases`; see `agentEvalset.ts`), whose
 * `${VAR}` placeholders are expanded from the environment and whose scenarios become cases.
 *
 * The file is streamed: each element's text is handed over as soon as it ends and parsed on its own,
 * so memory is bounded by the largest case (`MAX_CASE_CHARS`), never by the file. A root object is
 * first scanned once without keeping text, to learn which field holds the list and (evalsets) whether
 * every `${VAR}` is set. Each case's range is its element's exact span in the file. A syntax error is
 * one error record at its position, after the cases that end before it; nothing after it is read,
 * since nothing after it can be trusted. Cases without an `id` get `case-N` (1-based position).
 */
export async function* readJson(
  source: DatasetSource,
  env: NodeJS.ProcessEnv = source.env ?? process.env,
): AsyncGenerator<DatasetRecord> {
  const file = source.path;
  const probe = await probeJsonDataset(source, env);
  const keys = probe.keys ?? [];
  const listKey = keys.includes('cases') ? 'cases' : keys.includes('scenarios') ? 'scenarios' : undefined;
  const evalset = listKey === 'scenarios';
  if (evalset && probe.unset !== undefined) {
    const { name, start, end } = probe.unset;
    throw new DatasetError(
      file,
      isUntrustedEnv(env)
        ? `dataset ${displayPath(file)} at ${displayLineAndColumn(start)}: ${notReadReason(name)}`
        : `dataset ${displayPath(file)} uses \${${name}} at ${displayLineAndColumn(start)}, but ${name} is not set in the environment; set it, or remove the placeholder`,
      { file, start, end },
    );
  }
  const ids = new CaseIdTracker();
  let index = 0;
  const stop = (at: SourcePosition, what: string, length: number): DatasetRecord =>
    readError(
      ids,
      { range: rangeAt(file, at, length), index, positionalId: positionalId('case', index + 1) },
      syntaxMessage(at, what),
    );
  for await (const event of scanJsonDataset(source, { listKey: listKey ?? 'cases', maxItemChars: MAX_CASE_CHARS })) {
    if (event.kind === 'item' || event.kind === 'value') {
      const parsed = parseElementText(event.text, event.start, file, evalset ? env : undefined);
      if (!parsed.ok && parsed.skip === true && event.kind === 'item') {
        // An element too deep or too long to use: it is an error, the ones after it are still read.
        const at = parsed.at;
        yield readError(
          ids,
          { range: rangeAt(file, at, parsed.length), index, positionalId: positionalId('case', index + 1) },
          `the element at ${displayLineAndColumn(at)} cannot be read: ${parsed.what}`,
        );
        index += 1;
        continue;
      }
      if (!parsed.ok) {
        yield stop(parsed.at, parsed.what, parsed.length);
        return;
      }
      if (event.kind === 'value') continue;
      const range = { file, start: event.start, end: event.end };
      const value = evalset ? caseOfScenario(parsed.value) : parsed.value;
      yield caseFromValue(
        value,
        {
          range,
          index,
          positionalId: positionalId('case', index + 1),
          subject: evalset ? 'this scenario' : 'this element',
        },
        ids,
      );
      index += 1;
    } else if (event.kind === 'error') {
      yield stop(event.at, event.what, 1);
      return;
    } else if (event.kind === 'tooLarge') {
      const at = event.start;
      const message = `the element at ${displayLineAndColumn(at)} is longer than ${event.limit / (1024 * 1024)} Mi characters, the most EvalLens reads as one case; split it, or keep large payloads in files the case names`;
      yield readError(
        ids,
        { range: rangeAt(file, at, 1), index, positionalId: positionalId('case', index + 1) },
        message,
      );
      return;
    } else if (event.kind === 'shape') {
      const range = event.seen === 'the file is empty' ? undefined : { file, start: event.start, end: event.at };
      throw new DatasetError(
        file,
        `dataset ${displayPath(file)} must hold a JSON array of cases (or an object with a "cases" array), but ${event.seen}`,
        range,
      );
    }
  }
}
