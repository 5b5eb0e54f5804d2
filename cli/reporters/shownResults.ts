import type { ScorerResult } from '../../core/result';
import type { CaseEndEvent } from '../../core/runner/events';

/** What the console and JUnit reporters print of a result under its case. */
export type ShownResult = Pick<ScorerResult, 'scorer' | 'trial' | 'status' | 'reason'>;

/**
 * The statuses the console and JUnit print under a failed or errored case: one set both use, so that
 * a case read from a run folder reads its printed results once for both (cli/runFolderCases.ts).
 */
export const FAILED_SHOWN: ReadonlySet<string> = new Set(['fail', 'error', 'timeout']);

/**
 * A case end may carry, under this key, a cheaper way to its results' printed fields than parsing
 * them whole: `evallens merge` reads them from its stored lines (cli/runFolderCases.ts), where
 * parsing every result of the 9 cases in 10 that fail in a large run took more time than the rest.
 */
export const SHOWN_RESULTS = Symbol('shownResults');

export interface WithShownResults {
  readonly [SHOWN_RESULTS]: (statuses: ReadonlySet<string>) => readonly ShownResult[];
}

/** The case's results whose status is in `statuses`, in order: the printed fields only where the event offers them cheaply. */
export function shownResults(event: CaseEndEvent, statuses: ReadonlySet<string>): readonly ShownResult[] {
  const cheap = (event as Partial<WithShownResults>)[SHOWN_RESULTS];
  if (cheap !== undefined) return cheap(statuses);
  return event.results.filter((r) => statuses.has(r.status));
}
