import type { SourceRange } from './text/position';

export type ProblemSeverity = 'error' | 'warning' | 'information';

/**
 * The one diagnostic type of the engine: a config or dataset mistake a person must see. The message
 * says what was expected and what was seen; `range` says where. Hosts render it (LSP diagnostic,
 * CLI `file:line:col`).
 */
export interface Problem {
  /** Stable kebab-case code, e.g. `unknown-scorer`; fixtures are named after it. */
  readonly code: string;
  readonly severity: ProblemSeverity;
  readonly message: string;
  readonly range: SourceRange;
  /** Replacement suggestions a quick fix may offer (e.g. the closest scorer keys). */
  readonly suggestions?: readonly string[];
}

/** Thrown for a mistake that stops a run before it starts; carries the problems to show. */
export class ProblemError extends Error {
  constructor(readonly problems: readonly Problem[]) {
    super(problems.map((p) => p.message).join('\n'));
    this.name = 'ProblemError';
  }
}

export function hasErrors(problems: readonly Problem[]): boolean {
  return problems.some((p) => p.severity === 'error');
}
