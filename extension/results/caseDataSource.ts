/**
 * Case data for the detail pane. Reports and run events carry no inputs or outputs (they can be
 * large, and payload stays out of reports), so the host reads the one case the view shows from the
 * config's dataset, as the runner reads it, when asked. Cases the extension already holds can be
 * given up front (`add`). A small cache keeps recent cases; the dataset is streamed, never held.
 * No vscode here, so tests run it on real files.
 */
import type { EvalCase } from '../../core/case';
import { loadRunConfig } from '../../core/config/loadRunConfig';
import { caseRecords } from '../../core/runner/records';
import { traceOf } from '../../core/trace/traceOf';
import type { CaseData } from '../../protocol/webview';

export type CaseLookup = { readonly ok: true; readonly data: CaseData } | { readonly ok: false; readonly reason: string };

const CACHE_SIZE = 64;

export function caseData(evalCase: EvalCase): CaseData {
  const trace = evalCase.trace === undefined || evalCase.trace === null ? undefined : traceOf(evalCase);
  return {
    id: evalCase.id,
    ...(evalCase.input === undefined ? {} : { input: evalCase.input }),
    ...(evalCase.output === undefined ? {} : { output: evalCase.output }),
    ...(evalCase.expected === undefined ? {} : { expected: evalCase.expected }),
    ...(evalCase.context === undefined ? {} : { context: evalCase.context }),
    ...(evalCase.metadata === undefined ? {} : { metadata: evalCase.metadata }),
    ...(evalCase.trials === undefined ? {} : { trials: evalCase.trials }),
    ...(evalCase.trace === undefined ? {} : { trace: evalCase.trace }),
    ...(trace === undefined ? {} : trace.ok ? { traceSteps: trace.trace.steps } : { traceProblem: trace.reason }),
  };
}

export class CaseDataSource {
  /** Insertion-ordered: the first key is the least recently used. */
  private readonly cache = new Map<string, CaseData>();
  private readonly given = new Map<string, CaseData>();

  constructor(private readonly env: Readonly<Record<string, string | undefined>> = process.env) {}

  /** Cases the caller already has (e.g. the Test Explorer read them): served without reading the dataset. */
  add(configFile: string, cases: Iterable<EvalCase>): void {
    for (const c of cases) this.given.set(key(configFile, c.id), caseData(c));
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
    const found = await this.read(configFile, caseId);
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

  private async read(configFile: string, caseId: string): Promise<CaseLookup> {
    const loaded = loadRunConfig(configFile, this.env);
    if (loaded.config === undefined) {
      const problem = loaded.problems.find((p) => p.severity === 'error') ?? loaded.problems[0];
      const where = problem === undefined ? configFile : `${problem.range.file}:${problem.range.start.line + 1}:${problem.range.start.column + 1}`;
      return { ok: false, reason: `the run config could not be loaded (${where}: ${problem?.message ?? 'unknown problem'})` };
    }
    try {
      for await (const record of caseRecords(loaded.config)) {
        if (record.ok && record.value.case.id === caseId) return { ok: true, data: caseData(record.value.case) };
        if (!record.ok && record.error.id === caseId) {
          const at = record.error.range;
          return { ok: false, reason: `the dataset record at ${at.file}:${at.start.line + 1}:${at.start.column + 1} could not be read: ${record.error.message}` };
        }
      }
    } catch (error) {
      return { ok: false, reason: error instanceof Error ? error.message : String(error) };
    }
    const where = loaded.config.dataset?.path ?? configFile;
    return { ok: false, reason: `no case "${caseId}" in ${where} now (the dataset may have changed since the run)` };
  }
}

function key(configFile: string, caseId: string): string {
  return `${configFile}\u001f${caseId}`;
}
