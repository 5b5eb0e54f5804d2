/**
 * A finished run folder read back case by case: each line of `cases.jsonl` with the lines of
 * `results.jsonl` that belong to it. RunStore writes a case's results and then the case in the same
 * write batch, in the same order in both files, so the two files are read side by side without
 * holding either. A line that is not what RunStore writes is an error naming the file and line.
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { ReportCase } from '../core/report/report';
import type { ScorerResult } from '../core/result';

export class RunFolderError extends Error {}

/** A case of a run folder: its line as written and parsed, and its results likewise. */
export interface FolderCase {
  readonly case: ReportCase;
  readonly caseLine: string;
  readonly results: readonly ScorerResult[];
  readonly resultLines: readonly string[];
}

export interface NumberedLine {
  readonly text: string;
  readonly line: number;
}

/** The lines of a file, numbered from 1, blank lines left out. */
export async function* numberedLines(path: string): AsyncIterable<NumberedLine> {
  const input = createReadStream(path, 'utf8');
  const opened = new Promise<void>((resolveOpen, reject) => {
    input.once('open', () => resolveOpen());
    input.once('error', reject);
  });
  try {
    await opened;
  } catch (e) {
    throw new RunFolderError(`${path}:1:1: cannot read it (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  let line = 0;
  for await (const text of createInterface({ input, crlfDelay: Infinity })) {
    line++;
    if (text !== '') yield { text, line };
  }
}

/** A case line parsed and checked for the fields merge reads. */
export function parseCaseLine(path: string, at: NumberedLine): ReportCase {
  const value = parseLine(path, at) as Partial<ReportCase>;
  if (typeof value.id !== 'string' || typeof value.index !== 'number' || typeof value.status !== 'string')
    throw new RunFolderError(
      `${path}:${at.line}:1: expected a case with "id", "index" and "status", but this line lacks one`,
    );
  return value as ReportCase;
}

function parseResultLine(path: string, at: NumberedLine): ScorerResult {
  const value = parseLine(path, at) as Partial<ScorerResult>;
  if (typeof value.caseId !== 'string' || typeof value.scorer !== 'string' || typeof value.status !== 'string')
    throw new RunFolderError(
      `${path}:${at.line}:1: expected a result with "caseId", "scorer" and "status", but this line lacks one`,
    );
  return value as ScorerResult;
}

function parseLine(path: string, at: NumberedLine): unknown {
  try {
    const value: unknown = JSON.parse(at.text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value;
  } catch {
    // said below
  }
  throw new RunFolderError(
    `${path}:${at.line}:1: expected one JSON object per line, but this line is not one (a cut or damaged line)`,
  );
}

/** The cases of a finished run folder in the order they were written, each with its results. */
export async function* folderCases(dir: string): AsyncIterable<FolderCase> {
  const casesPath = join(dir, 'cases.jsonl');
  const resultsPath = join(dir, 'results.jsonl');
  const results = numberedLines(resultsPath)[Symbol.asyncIterator]();
  let pending: { at: NumberedLine; result: ScorerResult } | undefined;
  const nextResult = async () => {
    const next = await results.next();
    pending = next.done === true ? undefined : { at: next.value, result: parseResultLine(resultsPath, next.value) };
  };
  await nextResult();
  for await (const at of numberedLines(casesPath)) {
    const reportCase = parseCaseLine(casesPath, at);
    const caseResults: ScorerResult[] = [];
    const resultLines: string[] = [];
    while (pending !== undefined && pending.result.caseId === reportCase.id) {
      caseResults.push(pending.result);
      resultLines.push(pending.at.text);
      await nextResult();
    }
    yield { case: reportCase, caseLine: at.text, results: caseResults, resultLines };
  }
  if (pending !== undefined)
    throw new RunFolderError(
      `${resultsPath}:${pending.at.line}:1: expected the results of the cases cases.jsonl lists, in its order, but this result is of case "${pending.result.caseId}", which is not there (a damaged run folder)`,
    );
}
