/** The console text of `evallens compare`: each scorer's two means, delta with its interval, p and verdict; the cases that moved. */
import type { RunComparison, ScorerComparisonRow, SideSummary } from '../core/compare/compareRuns';
import { printable } from '../shared/text/printable';
import type { CompareSide } from './compareInput';
import type { FailOn } from './compare';

/** Cases listed per kind of move; the JSON output has them all. */
const LISTED = 20;

function num(value: number | null, digits = 3): string {
  return value === null ? '—' : value.toFixed(digits);
}

function sideText(s: SideSummary): string {
  const ci = s.ci_low === null || s.ci_high === null ? '' : ` [${num(s.ci_low)}, ${num(s.ci_high)}]`;
  return `${num(s.mean)}${ci} n=${s.n}`;
}

function pText(p: number | null): string {
  if (p === null) return '—';
  return p < 0.0001 ? '<0.0001' : p.toFixed(4);
}

function scorerLine(s: ScorerComparisonRow): string {
  const d = s.delta;
  const delta = `${d.mean === null ? '—' : `${d.mean >= 0 ? '+' : ''}${num(d.mean)}`}${d.ci_low === null || d.ci_high === null ? '' : ` [${num(d.ci_low)}, ${num(d.ci_high)}]`}`;
  const measure = s.measure === 'pass_rate' ? 'pass rate' : 'mean score';
  return [
    `  ${printable(s.name)} (${measure}${s.lower_is_better && s.measure === 'score' ? ', lower is better' : ''}): ${s.verdict.toUpperCase()}`,
    `    baseline ${sideText(s.baseline)}   candidate ${sideText(s.candidate)}`,
    `    delta ${delta} over ${d.n} shared cases   p ${pText(s.p_value)} (Holm; raw ${pText(s.p_value_raw)}, ${s.test === 'exact_mcnemar' ? 'exact McNemar' : 'paired t'})${
      s.discordant === undefined ? '' : `   ${s.discordant.regressed} regressed, ${s.discordant.fixed} fixed`
    }${s.verdict === 'no significant change' && d.mde !== null && d.mde > 0 ? `   (could detect a change of ${num(d.mde)})` : ''}`,
  ].join('\n');
}

export function formatComparison(
  comparison: RunComparison,
  baseline: CompareSide,
  candidate: CompareSide,
  failOn: FailOn,
  code: number,
): string {
  const lines: string[] = [];
  lines.push(`baseline:  ${printable(baseline.file)} (${baseline.run.caseCount} cases)`);
  lines.push(`candidate: ${printable(candidate.file)} (${candidate.run.caseCount} cases)`);
  lines.push('', 'Scorers (delta = candidate − baseline, 95% intervals):');
  for (const s of comparison.scorers) lines.push(scorerLine(s));
  for (const name of comparison.onlyInBaseline) lines.push(`  ${printable(name)}: only in the baseline, not compared`);
  for (const name of comparison.onlyInCandidate)
    lines.push(`  ${printable(name)}: only in the candidate, not compared`);
  const c = comparison.counts;
  lines.push(
    '',
    `Cases: ${c.regressed} regressed, ${c.fixed} fixed, ${c.unchanged_pass} unchanged pass, ${c.unchanged_fail} unchanged fail, ${c.added} added, ${c.removed} removed`,
  );
  const listed: Record<'regressed' | 'fixed' | 'added' | 'removed', string[]> = {
    regressed: [],
    fixed: [],
    added: [],
    removed: [],
  };
  const changed: string[] = [];
  for (const each of comparison.cases()) {
    if (each.changed === true && changed.length < LISTED) changed.push(printable(each.id));
    if (each.transition === 'unchanged_pass' || each.transition === 'unchanged_fail') continue;
    const list = listed[each.transition];
    if (list.length < LISTED) list.push(printable(each.id));
  }
  for (const [kind, ids] of Object.entries(listed)) {
    if (ids.length === 0) continue;
    const total = c[kind as keyof typeof listed];
    lines.push(
      `  ${kind}: ${ids.join(', ')}${total > ids.length ? ` … and ${total - ids.length} more (--reporter json lists all)` : ''}`,
    );
  }
  if (comparison.changed > 0)
    lines.push(
      `  ${comparison.changed} case${comparison.changed === 1 ? '' : 's'} changed input or expected; not compared: ${changed.join(', ')}${comparison.changed > changed.length ? ` … and ${comparison.changed - changed.length} more` : ''}`,
    );
  const regressed = comparison.scorers.filter((s) => s.verdict === 'regressed').map((s) => s.name);
  const outcome =
    regressed.length > 0
      ? `REGRESSED: ${regressed.map((n) => printable(n)).join(', ')}`
      : comparison.scorers.some((s) => s.verdict === 'improved')
        ? 'IMPROVED, no significant regression'
        : 'NO SIGNIFICANT REGRESSION';
  lines.push('', `${outcome} (--fail-on ${failOn}: exit ${code})`, '');
  return lines.join('\n');
}
