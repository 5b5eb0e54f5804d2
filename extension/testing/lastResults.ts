/**
 * The last result of every case that ran in this window, per config. CodeLens titles, the failing
 * reasons on dataset lines and the hovers are all derived from it. Details (which may hold payload
 * text) are not kept: only status, score and reason of each scorer.
 */
import type { ResultStatus } from '../../core/result';
import type { SourceRange } from '../../core/text/position';
import type { CaseEndEvent, CaseStatus } from '../../protocol/runEvents';

export interface ScorerOutcome {
  readonly scorer: string;
  readonly trial: number;
  readonly status: ResultStatus;
  readonly score?: number;
  readonly reason: string;
}

export interface CaseOutcome {
  readonly configFile: string;
  readonly caseId: string;
  readonly status: CaseStatus;
  readonly range: SourceRange;
  readonly durationMs: number;
  readonly results: readonly ScorerOutcome[];
}

export class LastResults {
  private readonly byConfig = new Map<string, Map<string, CaseOutcome>>();
  /** The same outcomes by the file their case lives in, so edits and lookups per file stay cheap. */
  private readonly byFile = new Map<string, Set<CaseOutcome>>();
  private readonly listeners = new Set<(files: ReadonlySet<string>) => void>();

  /** Called with the files whose cases changed. */
  onDidChange(listener: (files: ReadonlySet<string>) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  record(configFile: string, event: CaseEndEvent): void {
    const results = event.results.map((r): ScorerOutcome => ({
      scorer: r.scorer,
      trial: r.trial,
      status: r.status,
      reason: r.reason,
      ...(r.score === undefined ? {} : { score: r.score }),
    }));
    let cases = this.byConfig.get(configFile);
    if (cases === undefined) this.byConfig.set(configFile, (cases = new Map()));
    const previous = cases.get(event.caseId);
    if (previous !== undefined) this.byFile.get(previous.range.file)?.delete(previous);
    const outcome: CaseOutcome = {
      configFile,
      caseId: event.caseId,
      status: event.status,
      range: event.range,
      durationMs: event.durationMs,
      results,
    };
    cases.set(event.caseId, outcome);
    let inFile = this.byFile.get(event.range.file);
    if (inFile === undefined) this.byFile.set(event.range.file, (inFile = new Set()));
    inFile.add(outcome);
    this.changed(
      new Set(
        previous === undefined || previous.range.file === event.range.file
          ? [event.range.file]
          : [event.range.file, previous.range.file],
      ),
    );
  }

  get(configFile: string, caseId: string): CaseOutcome | undefined {
    return this.byConfig.get(configFile)?.get(caseId);
  }

  /** The outcomes of every case of `configFile` that ran in this window. */
  ofConfig(configFile: string): CaseOutcome[] {
    return [...(this.byConfig.get(configFile)?.values() ?? [])];
  }

  /** The configs with outcomes. */
  configs(): string[] {
    return [...this.byConfig.keys()];
  }

  /** The outcomes of cases that live in `file` (a dataset, or a config with inline cases). */
  inFile(file: string): CaseOutcome[] {
    return [...(this.byFile.get(file) ?? [])];
  }

  /** Forgets the cases that live in `file`: its lines moved or its cases changed, so old results would point wrong. */
  forgetFile(file: string): void {
    const outcomes = this.byFile.get(file);
    if (outcomes === undefined) return;
    this.byFile.delete(file);
    for (const outcome of outcomes) this.byConfig.get(outcome.configFile)?.delete(outcome.caseId);
    this.changed(new Set([file]));
  }

  private changed(files: ReadonlySet<string>): void {
    for (const listener of this.listeners) listener(files);
  }
}
