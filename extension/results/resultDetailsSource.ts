/**
 * The `details` of one case's results, for the detail pane, when the report came without them
 * (`report --stream` leaves them apart: they are about a third of a report's bytes). Read on request
 * by the CLI from the report file (`evallens report <file> --details-of=<case id>`, cli/reportDetails.ts)
 * in a child process, bounded like every CLI read (forkCli.ts), and checked to be the same run (the
 * file may have been replaced since it was shown), unless the stream said where the case's results are
 * and the file is unchanged: then they are read from it here (resultsAt.ts), without a process. A small
 * cache keeps recent cases. No vscode here.
 */
import { dirname } from 'node:path';
import { forkCli } from '../runner/forkCli';
import { type DetailsLookup, parseDetailsLookup, type ResultDetails } from '../../protocol/resultDetails';
import { streamEntry } from './reportStream';
import type { ResultsAtIndex } from './resultsAt';

const CACHE_SIZE = 64;
const LOOKUP_TIMEOUT_MS = 120_000;
/** The most read back for one case's details (a judge's answers over many trials can be long). */
const MAX_DETAILS_BYTES = 64 * 1024 * 1024;

export type DetailsAnswer =
  { readonly ok: true; readonly results: readonly ResultDetails[] } | { readonly ok: false; readonly reason: string };

export class ResultDetailsSource {
  /** Insertion-ordered: the first key is the least recently used. */
  private readonly cache = new Map<string, DetailsAnswer>();

  constructor(private readonly cliPath: string) {}

  /**
   * The details of `caseId`'s results in `reportFile`, which must still be the report of run `runId`;
   * read through `index` (where the stream said the results are) while the file is unchanged.
   */
  async lookup(reportFile: string, runId: string, caseId: string, index?: ResultsAtIndex): Promise<DetailsAnswer> {
    const key = `${reportFile}\u001f${runId}\u001f${caseId}`;
    const known = this.cache.get(key);
    if (known !== undefined) {
      this.cache.delete(key);
      this.cache.set(key, known);
      return known;
    }
    const read = index?.file === reportFile ? await index.read(caseId, MAX_DETAILS_BYTES) : undefined;
    const answer: DetailsAnswer =
      read !== undefined
        ? { ok: true, results: read }
        : await readResultDetails(this.cliPath, reportFile, runId, caseId);
    if (!answer.ok) return answer;
    this.cache.set(key, answer);
    if (this.cache.size > CACHE_SIZE) {
      const oldest = this.cache.keys().next();
      if (oldest.done !== true) this.cache.delete(oldest.value);
    }
    return answer;
  }
}

/** One case's details from the CLI; never rejects (a CLI that fails, a changed file, give a reason). */
export async function readResultDetails(
  cliPath: string,
  reportFile: string,
  runId: string,
  caseId: string,
  timeoutMs = LOOKUP_TIMEOUT_MS,
): Promise<DetailsAnswer> {
  // `--details-of=<id>`: an id that starts with "-" is still the option's value.
  const args = ['report', reportFile, `--details-of=${caseId}`, '--no-color'];
  const exit = await forkCli(streamEntry(cliPath), args, {
    cwd: dirname(cliPath),
    timeoutMs,
    maxStdoutBytes: MAX_DETAILS_BYTES,
  });
  if (exit.stdoutCut)
    return { ok: false, reason: `the case's details are longer than ${MAX_DETAILS_BYTES / (1024 * 1024)} MB` };
  const answer: DetailsLookup | undefined = parseDetailsLookup(exit.stdout.toString('utf8').trim());
  if (answer?.ok === true)
    return answer.runId === runId
      ? { ok: true, results: answer.results }
      : {
          ok: false,
          reason: `${reportFile} is now the report of run ${answer.runId}, not of run ${runId} shown here; open it again`,
        };
  if (answer !== undefined) return answer;
  const line = exit.stderr.split('\n').find((l) => l.trim() !== '');
  return {
    ok: false,
    reason:
      exit.startError ??
      (exit.signal !== null
        ? `reading the details was stopped (${exit.signal})`
        : `reading the details failed (exit code ${String(exit.code)})${line === undefined ? '' : `: ${line.trim()}`}`),
  };
}
