import type { Report } from '../../core/report/report';
import type { RunEvent } from '../../core/runner/events';
import { printable } from '../../shared/text/printable';

/** Distinct reasons kept: a run of a million skipped cases keeps a bounded tally. */
const MAX_REASONS = 50;
/** Reasons shown under the verdict, most frequent first. */
const SHOWN_REASONS = 3;

/**
 * Why a run scored nothing, for the reporters that say so (console, JUnit): the reasons the skipped
 * cases' results gave, tallied as the cases end, and what to do about the most likely cause.
 */
export class SkipReasons {
  private readonly counts = new Map<string, number>();

  onEvent(event: RunEvent): void {
    if (event.type !== 'case/end' || event.status !== 'skipped') return;
    for (const result of event.results) {
      const known = this.counts.get(result.reason);
      if (known !== undefined) this.counts.set(result.reason, known + 1);
      else if (this.counts.size < MAX_REASONS) this.counts.set(result.reason, 1);
    }
  }

  /** The explanation: a first line saying what was missing, the commonest reasons, and what to do. */
  explain(head: Pick<Report, 'summary' | 'scorers'>): string[] {
    const { total, skipped } = head.summary;
    if (total === 0) {
      return [
        "Nothing was scored: the run had no case (the dataset is empty, or the config's `scenarios` or `scenario_pattern` selected none).",
      ];
    }
    if (head.scorers.length === 0) {
      return [
        'Nothing was scored: the config has no scorer EvalLens runs (EvalBench scorers it does not run are left out); add one it runs.',
      ];
    }
    const reasons = [...this.counts.entries()].sort((a, b) => b[1] - a[1]);
    const lines = [`Nothing was scored: every case was skipped (${skipped} of ${total}).`];
    for (const [reason, count] of reasons.slice(0, SHOWN_REASONS)) lines.push(`  ${count} × ${oneLine(reason)}`);
    lines.push(...advice(reasons.map(([reason]) => reason)));
    return lines;
  }
}

function advice(reasons: readonly string[]): string[] {
  if (reasons.some((r) => /not trusted/.test(r))) {
    return ['The workspace is not trusted (or the run had --untrusted): trust it to run these scorers.'];
  }
  if (reasons.some((r) => /no trace|no output|no conversation|not executed/.test(r))) {
    return [
      'EvalLens scores what a system recorded; it does not run the agent or the SQL generator itself. Either point',
      'the dataset at recorded runs (EvalBench scenarios with `conversation_history` and `accumulated_tools`,',
      'NL2SQL items with `generated_sql`), or add a `target:` that calls the system for each case.',
    ];
  }
  return [];
}

function oneLine(text: string): string {
  const line = printable(text);
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
