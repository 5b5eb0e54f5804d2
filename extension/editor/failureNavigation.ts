/**
 * Which failures to reach, and the words of the offer. VS Code's default settings do not open the
 * failure peek after a run (`testing.automaticallyOpenPeekView` is off), so after a run with failing
 * cases the extension offers "Show failures", which opens the first failing case's line and its peek
 * (showFailures.ts). Pure, so the choice and the wording are unit-tested.
 */
import { printable } from '../../shared/text/printable';
import type { CaseOutcome } from '../testing/lastResults';

/** Cases shown by name in the offer; the rest are counted. */
const NAMED = 3;

/** The failing and erroring cases, in file order and, within a file, in the order of their lines. */
export function failingCases(outcomes: readonly CaseOutcome[]): CaseOutcome[] {
  return outcomes
    .filter((o) => o.status === 'failed' || o.status === 'errored')
    .sort((a, b) =>
      a.range.file === b.range.file
        ? a.range.start.offset - b.range.start.offset
        : a.range.file < b.range.file
          ? -1
          : 1,
    );
}

/** "EvalLens: 1 of 4 cases failed (sale-items).", or undefined when nothing failed. */
export function failureNotice(failing: readonly CaseOutcome[], total: number): string | undefined {
  if (failing.length === 0) return undefined;
  const errored = failing.some((o) => o.status === 'errored');
  const verb = errored ? (failing.every((o) => o.status === 'errored') ? 'errored' : 'failed or errored') : 'failed';
  const names = failing.slice(0, NAMED).map((o) => printable(o.caseId));
  const more = failing.length > NAMED ? `, +${failing.length - NAMED}` : '';
  const count =
    total > failing.length
      ? `${failing.length} of ${total} cases`
      : `${failing.length} case${failing.length === 1 ? '' : 's'}`;
  return `EvalLens: ${count} ${verb} (${names.join(', ')}${more}).`;
}
