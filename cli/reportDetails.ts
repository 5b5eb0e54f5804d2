/**
 * `evallens report <report.json | run folder> --details-of=<case id>`: the `details` of one case's
 * results, as one JSON line (protocol/resultDetails.ts). The results view gets a report's results
 * without their details (`report --stream` prints `detailsApart`: they are about a third of a
 * report's bytes) and asks for those of the case a person opens. The file is read bounded and scanned
 * as the stream scans it (cli/reportStream.ts); only the results whose bytes hold the case id as JSON
 * spells it are parsed, and when none does (an id written with escapes) every result is.
 */
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { readBoundedBytes } from '../core/text/boundedRead';
import { type DetailsLookup, type ResultDetails, resultDetailsOf } from '../protocol/resultDetails';
import { jsonPrintable } from '../shared/text/printable';
import { syntaxError } from './reportJson';
import { ReportScan } from './reportStream';

/** Prints the lookup as one JSON line; exit code 0 when the report could be read, 2 otherwise. */
export async function printResultDetails(path: string, caseId: string, out: NodeJS.WritableStream): Promise<number> {
  const resolved = resolve(path);
  const folder = await stat(resolved).then(
    (s) => s.isDirectory(),
    () => false,
  );
  const found = await resultDetails(folder ? join(resolved, 'report.json') : resolved, caseId);
  out.write(`${jsonPrintable(JSON.stringify(found))}\n`);
  return found.ok ? 0 : 2;
}

export async function resultDetails(path: string, caseId: string): Promise<DetailsLookup> {
  const read = await readBoundedBytes(path, 'report');
  if (!read.ok)
    return {
      ok: false,
      reason: `${path}:1:1: cannot read the report file (${read.code === 'ENOENT' ? 'it does not exist' : read.reason})`,
    };
  const bom = read.bytes[0] === 0xef && read.bytes[1] === 0xbb && read.bytes[2] === 0xbf;
  const bytes = bom ? read.bytes.subarray(3) : read.bytes;
  const broken = (): DetailsLookup => ({
    ok: false,
    reason: syntaxError(bytes.toString('utf8'), path, bom ? 1 : 0).message,
  });
  const scan = new ReportScan(bytes).advance();
  if (scan.brokenAt !== undefined) return broken();
  const runIdAt = scan.fields.get('runId');
  let runId: unknown;
  try {
    runId = runIdAt === undefined ? undefined : JSON.parse(bytes.toString('utf8', ...runIdAt));
  } catch {
    return broken();
  }
  if (typeof runId !== 'string') return { ok: false, reason: `${path}:1:1: expected an EvalLens report with a runId` };
  const results: ResultDetails[] = [];
  try {
    const candidates = candidatesOf(bytes, scan.results, caseId);
    for (const [start, end] of candidates ?? scan.results) {
      const value = JSON.parse(bytes.toString('utf8', start, end)) as unknown;
      const entry = resultDetailsOf(value, caseId);
      if (entry !== undefined) results.push(entry);
    }
    // Some results matched the id's bytes but none was the case's (the id inside another's text): read them all.
    if (results.length === 0 && candidates !== undefined)
      for (const [start, end] of scan.results) {
        const entry = resultDetailsOf(JSON.parse(bytes.toString('utf8', start, end)) as unknown, caseId);
        if (entry !== undefined) results.push(entry);
      }
  } catch {
    return broken();
  }
  return { ok: true, runId, results };
}

/** The results whose bytes hold the id as JSON writes it (undefined: none does, so any may be the case's). */
function candidatesOf(
  bytes: Buffer,
  ranges: readonly (readonly [number, number])[],
  caseId: string,
): (readonly [number, number])[] | undefined {
  const found: (readonly [number, number])[] = [];
  const needles = [...new Set([JSON.stringify(caseId), jsonPrintable(JSON.stringify(caseId))])].map((n) =>
    Buffer.from(n),
  );
  for (const needle of needles) {
    let next = 0;
    const from = ranges[0]?.[0] ?? bytes.length;
    for (let at = bytes.indexOf(needle, from); at !== -1; at = bytes.indexOf(needle, at + 1)) {
      // The result holding `at` (the ranges are in file order).
      while (next < ranges.length && (ranges[next]?.[1] ?? 0) <= at) next++;
      const range = ranges[next];
      if (range === undefined) break;
      if (range[0] <= at && found[found.length - 1] !== range) found.push(range);
    }
    if (found.length > 0) break;
  }
  return found.length === 0 ? undefined : found;
}
