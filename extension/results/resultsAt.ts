/**
 * Where a streamed report's results are in its file (`report --stream` prints `resultsAt` beside results
 * it left without their details), by case id, so that opening a row reads that case's results back from
 * the file here: a few small reads, where asking the CLI (resultDetailsSource.ts) starts a process that
 * reads the whole file again (~0.6 s for 100,000 results). Only while the file is as it was when the
 * stream began (the same size and modification time, before and after the reads) and each range holds
 * one of that case's results; otherwise the answer is undefined and the caller asks the CLI, which says
 * what changed. No vscode here.
 */
import { open, stat } from 'node:fs/promises';
import type { ScorerResult } from '../../core/result';
import { type ResultDetails, resultDetailsOf } from '../../protocol/resultDetails';
import type { ResultsAt } from './reportStream';

/** What tells a file changed: its size and modification time. */
export interface FileStamp {
  readonly size: number;
  readonly mtimeMs: number;
}

/** The file's stamp now; undefined when it cannot be read. */
export async function fileStamp(path: string): Promise<FileStamp | undefined> {
  try {
    const { size, mtimeMs } = await stat(path);
    return { size, mtimeMs };
  } catch {
    return undefined;
  }
}

const sameStamp = (a: FileStamp, b: FileStamp): boolean => a.size === b.size && a.mtimeMs === b.mtimeMs;

export class ResultsAtIndex {
  /** Each case's results' byte ranges in the file, flat: start, end, start, end… */
  private readonly byCase = new Map<string, number[]>();
  /** False once a part came without its places (an older CLI): the index then answers nothing. */
  private whole = true;

  constructor(
    readonly file: string,
    /** The file's stamp taken before the CLI read it. */
    readonly stamp: FileStamp,
  ) {}

  /** A part's results and where they are (undefined: the part came without, so the index is not used). */
  add(results: readonly ScorerResult[], at: ResultsAt | undefined): void {
    if (at === undefined) {
      this.whole = false;
      this.byCase.clear();
      return;
    }
    if (!this.whole) return;
    results.forEach((result, i) => {
      const ranges = this.byCase.get(result.caseId);
      const range = [at[2 * i] ?? 0, at[2 * i + 1] ?? 0];
      if (ranges === undefined) this.byCase.set(result.caseId, range);
      else ranges.push(...range);
    });
  }

  /**
   * `caseId`'s results and their details, read from the file; undefined when they cannot be read here
   * (the file changed, a range holds something else, more than `maxBytes` to read).
   */
  async read(caseId: string, maxBytes: number): Promise<ResultDetails[] | undefined> {
    const ranges = this.whole ? this.byCase.get(caseId) : undefined;
    if (ranges === undefined) return undefined;
    let total = 0;
    for (let i = 0; i < ranges.length; i += 2) total += (ranges[i + 1] ?? 0) - (ranges[i] ?? 0);
    if (total > maxBytes) return undefined;
    const before = await fileStamp(this.file);
    if (before === undefined || !sameStamp(before, this.stamp)) return undefined;
    let file;
    try {
      file = await open(this.file, 'r');
    } catch {
      return undefined;
    }
    try {
      const found: ResultDetails[] = [];
      for (let i = 0; i < ranges.length; i += 2) {
        const [start = 0, end = 0] = [ranges[i], ranges[i + 1]];
        const bytes = Buffer.alloc(end - start);
        const { bytesRead } = await file.read(bytes, 0, bytes.length, start);
        if (bytesRead !== bytes.length) return undefined;
        const entry = resultDetailsOf(parsed(bytes.toString('utf8')), caseId);
        if (entry === undefined) return undefined;
        found.push(entry);
      }
      const after = await file.stat();
      return sameStamp(after, this.stamp) ? found : undefined;
    } finally {
      await file.close();
    }
  }
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
