/**
 * Case data for the detail pane. Reports and run events carry no inputs or outputs (they can be
 * large, and payload stays out of reports), so the one case the view shows is read on request from
 * the config's dataset by the CLI (`evallens validate <config> --case-data <id>`), in a child process:
 * loading a config checks its patterns synchronously, which must not block the editor. Cases the
 * extension already holds can be given up front (`add`). A small cache keeps recent cases.
 * No vscode here, so tests run it on real files with the built CLI.
 */
import { forkCli } from '../runner/forkCli';
import { dirname } from 'node:path';
import { type CaseLookup, parseCaseLookup } from '../../protocol/caseData';
import type { CaseData } from '../../protocol/webview';

export type { CaseLookup } from '../../protocol/caseData';

const CACHE_SIZE = 64;
/** A lookup that takes longer is no answer (a huge dataset, a stalled file system). */
const LOOKUP_TIMEOUT_MS = 120_000;
/** The most of one case's data read back (a dataset line is at most 16 MiB; its JSON here a little more). */
const MAX_CASE_DATA_BYTES = 64 * 1024 * 1024;

export class CaseDataSource {
  /** Insertion-ordered: the first key is the least recently used. */
  private readonly cache = new Map<string, CaseData>();
  private readonly given = new Map<string, CaseData>();

  constructor(
    private readonly cliPath: string,
    /** Asked at each lookup: in Restricted Mode the CLI reads the config as an untrusted run does (`--untrusted`). */
    private readonly trusted: () => boolean,
  ) {}

  /** Cases the caller already has: served without reading the dataset. */
  add(configFile: string, cases: Iterable<CaseData>): void {
    for (const c of cases) this.given.set(key(configFile, c.id), c);
  }

  forget(): void {
    this.cache.clear();
    this.given.clear();
  }

  async lookup(configFile: string, caseId: string): Promise<CaseLookup> {
    const k = key(configFile, caseId);
    const known = this.given.get(k) ?? this.cache.get(k);
    if (known !== undefined) {
      this.remember(k, known);
      return { ok: true, data: known };
    }
    const found = await readCase(this.cliPath, configFile, caseId, !this.trusted());
    if (found.ok) this.remember(k, found.data);
    return found;
  }

  private remember(k: string, data: CaseData): void {
    this.cache.delete(k);
    this.cache.set(k, data);
    if (this.cache.size > CACHE_SIZE) {
      const oldest = this.cache.keys().next();
      if (oldest.done !== true) this.cache.delete(oldest.value);
    }
  }
}

/** One case from the CLI; never rejects (a CLI that fails or is too old gives a reason). */
export async function readCase(
  cliPath: string,
  configFile: string,
  caseId: string,
  untrusted: boolean,
  timeoutMs = LOOKUP_TIMEOUT_MS,
): Promise<CaseLookup> {
  // `--case-data=<id>`: an id that starts with "-" is still the option's value.
  const args = ['validate', configFile, `--case-data=${caseId}`, ...(untrusted ? ['--untrusted'] : [])];
  // The CLI's own folder as cwd: it always exists (a report from CI names configs that may not).
  const exit = await forkCli(cliPath, args, { cwd: dirname(cliPath), timeoutMs, maxStdoutBytes: MAX_CASE_DATA_BYTES });
  if (exit.stdoutCut)
    return { ok: false, reason: `the case's data is longer than ${MAX_CASE_DATA_BYTES / (1024 * 1024)} MB` };
  const answer = parseCaseLookup(exit.stdout.toString('utf8').trim());
  if (answer !== undefined) return answer;
  const line = exit.stderr.split('\n').find((l) => l.trim() !== '');
  const why =
    exit.startError ??
    (exit.signal !== null
      ? `reading the case was stopped (${exit.signal})`
      : `reading the case failed (exit code ${String(exit.code)})${line === undefined ? '' : `: ${line.trim()}`}`);
  return { ok: false, reason: why };
}

function key(configFile: string, caseId: string): string {
  return `${configFile}\u001f${caseId}`;
}
