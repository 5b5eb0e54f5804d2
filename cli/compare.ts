/**
 * `evallens compare <baseline> <candidate>`: two runs (report.json files or run folders) compared
 * case by case, with core/stats' paired tests, Holm's adjustment and verdicts (docs/compare.md).
 * Exit 1 on a significant regression (or, with `--fail-on any-change`, on any significant change or
 * any case that moved), 0 otherwise, 2 on bad input, which is never compared.
 */
import { once } from 'node:events';
import { createWriteStream, mkdirSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { compareRuns, type RunComparison } from '../core/compare/compareRuns';
import { jsonPrintable, printable } from '../shared/text/printable';
import { CompareInputError, readCompareSide, type CompareSide } from './compareInput';
import { readCompareSideAside } from './compareSideWorker';
import { formatComparison } from './compareConsole';
import { writeChunk } from './reporters/output';

import { FAIL_ON, type FailOn } from './failOn';
export { FAIL_ON, type FailOn };

export interface CompareCommand {
  readonly kind: 'compare';
  readonly baseline: string;
  readonly candidate: string;
  readonly reporter: 'console' | 'json';
  readonly out?: string;
  readonly failOn: FailOn;
}

const EXIT = { passed: 0, failed: 1, usage: 2 } as const;

export async function compareCommand(
  command: CompareCommand,
  stdout: NodeJS.WritableStream,
  stderr: NodeJS.WritableStream,
): Promise<number> {
  let baseline: CompareSide;
  let candidate: CompareSide;
  let comparison: RunComparison;
  try {
    // Both at once: the candidate on a worker thread while this thread reads the baseline.
    const candidateRead = readCompareSideAside(command.candidate);
    candidateRead.catch(() => undefined); // awaited below; a baseline error must not leave it unhandled
    baseline = await readCompareSide(command.baseline);
    candidate = await candidateRead;
    checkComparable(baseline, candidate);
    comparison = compareRuns(baseline.run, candidate.run, baseline.scorers, candidate.scorers);
  } catch (e) {
    if (e instanceof CompareInputError) {
      stderr.write(`evallens: ${e.message}\n`);
      return EXIT.usage;
    }
    throw e;
  }
  const code = exitCode(comparison, command.failOn);
  try {
    if (command.reporter === 'json') {
      const out = command.out === undefined ? stdout : createWriteStream(resolve(command.out));
      if (command.out !== undefined) mkdirSync(dirname(resolve(command.out)), { recursive: true });
      await writeCompareJson(comparison, baseline, candidate, command.failOn, code, out);
      if (out !== stdout) {
        out.end();
        await once(out, 'finish');
      }
    } else {
      stdout.write(formatComparison(comparison, baseline, candidate, command.failOn, code));
    }
  } catch (e) {
    stderr.write(
      `evallens: cannot write ${command.out ?? 'the comparison'}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`,
    );
    return EXIT.usage;
  }
  return code;
}

/**
 * Two runs are comparable when they ran the same config (by file name: the same config checked out
 * elsewhere, in CI, has another folder), share at least one case id, and no scorer name means two
 * different scorers. Otherwise the comparison would be of unmatched things: refused, saying what differs.
 */
function checkComparable(baseline: CompareSide, candidate: CompareSide): void {
  checkSameConfig(baseline, candidate);
  checkSharedCases(baseline, candidate);
}

/** The runs ran the same config (by file name) and no scorer name means two different scorers; else why not. */
export function checkSameConfig(baseline: CompareSide, candidate: CompareSide): void {
  const configOf = (side: CompareSide): string => basename(side.configFile.replace(/\\/g, '/'));
  if (configOf(baseline) !== configOf(candidate))
    throw new CompareInputError(
      `${printable(baseline.file)} and ${printable(candidate.file)} are runs of different configs (${printable(configOf(baseline))} and ${printable(configOf(candidate))}): compare two runs of the same config`,
    );
  for (const [name, key] of baseline.scorerKeys) {
    const other = candidate.scorerKeys.get(name);
    if (other !== undefined && other !== key)
      throw new CompareInputError(
        `${printable(baseline.file)} and ${printable(candidate.file)} name different scorers "${printable(name)}" (${printable(key)} and ${printable(other)}): their scores are not comparable`,
      );
  }
}

/** The runs share at least one case id; else nothing could be compared. */
export function checkSharedCases(baseline: CompareSide, candidate: CompareSide): void {
  let shared = false;
  for (const id of baseline.run.caseSlot.keys())
    if (candidate.run.caseSlot.has(id)) {
      shared = true;
      break;
    }
  if (!shared)
    throw new CompareInputError(
      `${printable(baseline.file)} (${baseline.run.caseCount} cases) and ${printable(candidate.file)} (${candidate.run.caseCount} cases) share no case id: nothing to compare`,
    );
}

/** The exit code `--fail-on` asks for. */
export function exitCode(comparison: RunComparison, failOn: FailOn): number {
  if (failOn === 'never') return EXIT.passed;
  const regressed = comparison.scorers.some((s) => s.verdict === 'regressed');
  if (failOn === 'regression') return regressed ? EXIT.failed : EXIT.passed;
  const changed =
    regressed ||
    comparison.scorers.some((s) => s.verdict === 'improved') ||
    comparison.counts.regressed + comparison.counts.fixed + comparison.counts.added + comparison.counts.removed > 0;
  return changed ? EXIT.failed : EXIT.passed;
}

/**
 * The comparison as JSON (schemas/compare-report.schema.json), its cases streamed one per line.
 * `embedded`: written as the `comparison` field of a run's report.json (cli/runBaseline.ts).
 */
export async function writeCompareJson(
  comparison: RunComparison,
  baseline: CompareSide,
  candidate: CompareSide,
  failOn: FailOn,
  code: number,
  stream: NodeJS.WritableStream,
  embedded = false,
): Promise<void> {
  const runOf = (side: CompareSide): object => ({
    file: side.file,
    runId: side.runId,
    config: basename(side.configFile.replace(/\\/g, '/')),
    cases: side.run.caseCount,
  });
  const head: [string, unknown][] = [
    ['version', 1],
    ['baseline', runOf(baseline)],
    ['candidate', runOf(candidate)],
    ['fail_on', failOn],
    ['failed', code !== EXIT.passed],
    ['counts', { ...comparison.counts, changed: comparison.changed }],
    ['not_compared', { only_in_baseline: comparison.onlyInBaseline, only_in_candidate: comparison.onlyInCandidate }],
  ];
  let buffer = '{\n';
  for (const [key, value] of head) buffer += `${JSON.stringify(key)}:${JSON.stringify(value)},\n`;
  buffer += `"scorers":[${comparison.scorers.map((s) => `\n${JSON.stringify(s)}`).join(',')}\n],\n"cases":[`;
  let first = true;
  for (const c of comparison.cases()) {
    buffer += `${first ? '\n' : ',\n'}${JSON.stringify({ id: c.id, transition: c.transition, ...(c.changed === true ? { changed: true } : {}) })}`;
    first = false;
    if (buffer.length >= 64 * 1024) {
      await writeChunk(stream, jsonPrintable(buffer));
      buffer = '';
    }
  }
  // Inside a run's report.json (run --baseline) the report's own closing follows.
  buffer += embedded ? '\n]\n}' : '\n]\n}\n';
  await writeChunk(stream, jsonPrintable(buffer));
}
