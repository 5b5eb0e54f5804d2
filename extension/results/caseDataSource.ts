/**
 * Case data for the detail pane. Reports and run events carry no inputs or outputs (they can be
 * large, and payload stays out of reports), so the one case the view shows is read on request from
 * the config's dataset by the CLI (`evallens validate <config> --case-data <id>`), in a child process:
 * loading a config checks its patterns synchronously, which must not block the editor. Cases the
 * extension already holds can be given up front (`add`). A small cache keeps recent cases.
 * No vscode here, so tests run it on real files with the built CLI.
 */
import { fork } from 'node:child_process';
import { dirname } from 'node:path';
import { type CaseLookup, parseCaseLookup } from '../../protocol/caseData';
import type { CaseData } from '../../protocol/webview';

export type { CaseLookup } from '../../protocol/caseData';

const CACHE_SIZE = 64;
/** A lookup that takes longer is no answer (a huge dataset, a stalled file system). */
const LOOKUP_TIMEOUT_MS = 120_000;

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
export function readCase(
  cliPath: string,
  configFile: string,
  caseId: string,
  untrusted: boolean,
  timeoutMs = LOOKUP_TIMEOUT_MS,
): Promise<CaseLookup> {
  return new Promise((resolve) => {
    // `--case-data=<id>`: an id that starts with "-" is still the option's value.
    const args = ['validate', configFile, `--case-data=${caseId}`, ...(untrusted ? ['--untrusted'] : [])];
    // The CLI's own folder as cwd: it always exists (a report from CI names configs that may not).
    const child = fork(cliPath, args, {
      cwd: dirname(cliPath),
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      execArgv: [],
      timeout: timeoutMs,
    });
    const stdout: Buffer[] = [];
    let stderr = '';
    let startError: string | undefined;
    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => (stderr = (stderr + text).slice(-4096)));
    child.on('error', (e) => (startError = `the EvalLens CLI could not be started: ${e.message}`));
    child.on('close', (code, signal) => {
      const answer = parseCaseLookup(Buffer.concat(stdout).toString('utf8').trim());
      if (answer !== undefined) return resolve(answer);
      const line = stderr.split('\n').find((l) => l.trim() !== '');
      const why =
        startError ??
        (signal !== null
          ? `reading the case was stopped (${signal})`
          : `reading the case failed (exit code ${String(code)})${line === undefined ? '' : `: ${line.trim()}`}`);
      resolve({ ok: false, reason: why });
    });
  });
}

function key(configFile: string, caseId: string): string {
  return `${configFile}\u001f${caseId}`;
}
