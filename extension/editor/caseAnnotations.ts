/**
 * What the editor shows on a case's line, derived from the case list and the last results: the
 * CodeLens titles, the failing-reason diagnostic and the hover. Pure, so it is unit-tested; the
 * providers in this folder only convert to vscode types.
 */
import { markdownCode, markdownText } from '../../shared/text/markdown';
import { printable } from '../../shared/text/printable';
import { verdictHeader, verdictName, verdictReasons, verdictsOf } from '../testing/caseResultText';
import { transitionLensTitle, transitionLensTooltip, type Transition } from '../baseline/runComparison';
import type { CaseOutcome } from '../testing/lastResults';
import type { ConfigRunSummary } from '../testing/lastRuns';
import { caseMark, formatScore, resultMark } from '../testing/resultText';

/** A case as the lens provider knows it: which config runs it and its 0-based line. */
export interface CaseSite {
  readonly configFile: string;
  readonly caseId: string;
  readonly line: number;
}

export type LensSpec =
  | {
      readonly kind: 'run-case';
      readonly line: number;
      readonly title: string;
      readonly configFile: string;
      readonly caseId: string;
    }
  | {
      readonly kind: 'last-result';
      readonly line: number;
      readonly title: string;
      readonly configFile: string;
      readonly caseId: string;
    }
  | {
      /** ▼ regressed / ▲ fixed: the case's last result against the config's baseline. */
      readonly kind: 'transition';
      readonly line: number;
      readonly title: string;
      readonly tooltip: string;
      readonly configFile: string;
      readonly caseId: string;
    };

/** The title H9's end-to-end suite looks for; keep it exactly. */
export const RUN_CASE_TITLE = 'Run case';

/**
 * One "Run case" lens per case and config, and the last result beside it when there is one. When
 * several configs read the same file, each "Run case" names its config, shortly, and its result
 * follows it in a compact form, so a line of lenses stays short. After the result, "▼ regressed" or
 * "▲ fixed" when the last run was compared with a baseline, and only when that agrees with the result
 * shown (a transition outlived by a newer result is not shown).
 */
export function caseLenses(
  sites: readonly CaseSite[],
  lastResult: (configFile: string, caseId: string) => CaseOutcome | undefined,
  configName: (configFile: string) => string,
  transition: (configFile: string, caseId: string) => Transition | undefined = () => undefined,
): LensSpec[] {
  const configs = new Set(sites.map((s) => s.configFile));
  const named = configs.size > 1;
  const lenses: LensSpec[] = [];
  for (const site of sites) {
    const suffix = named ? ` · ${shortConfigName(configName(site.configFile))}` : '';
    lenses.push({
      kind: 'run-case',
      line: site.line,
      title: `${RUN_CASE_TITLE}${suffix}`,
      configFile: site.configFile,
      caseId: site.caseId,
    });
    const outcome = lastResult(site.configFile, site.caseId);
    if (outcome !== undefined)
      lenses.push({
        kind: 'last-result',
        line: site.line,
        title: outcomeTitle(outcome, named),
        configFile: site.configFile,
        caseId: site.caseId,
      });
    const moved =
      outcome === undefined ? undefined : transitionShown(transition(site.configFile, site.caseId), outcome);
    if (moved !== undefined)
      lenses.push({
        kind: 'transition',
        line: site.line,
        title: transitionLensTitle(moved) ?? moved,
        tooltip: transitionLensTooltip(moved),
        configFile: site.configFile,
        caseId: site.caseId,
      });
  }
  return lenses;
}

/** The transition a lens shows: regressed beside a result that did not pass, fixed beside one that did. */
function transitionShown(transition: Transition | undefined, outcome: CaseOutcome): 'regressed' | 'fixed' | undefined {
  if (transition === 'regressed' && outcome.status !== 'passed') return 'regressed';
  if (transition === 'fixed' && outcome.status === 'passed') return 'fixed';
  return undefined;
}

/** Longest config name a case lens shows; longer ones keep their start and an ellipsis. */
const MAX_CONFIG_NAME = 18;

/** "support-agent" for "support-agent.eval.yaml", cut to MAX_CONFIG_NAME characters. */
export function shortConfigName(name: string): string {
  const bare = printable(name.replace(/\.eval\.ya?ml$/, ''));
  return bare.length <= MAX_CONFIG_NAME ? bare : `${bare.slice(0, MAX_CONFIG_NAME - 1)}…`;
}

/**
 * The config's last run above its `scorers:`: "✓ 8/8 · job 0.91 · 2 min ago", "✗ 7/8 · job 0.42 <
 * 0.8 · just now". The mark is ✓ only when every case passed and the job test (if any) passed.
 */
export function configRunTitle(run: ConfigRunSummary, now: number): string {
  const bad = run.failed > 0 || run.errored > 0 || run.job?.pass === false;
  const mark = bad ? (run.failed === 0 && run.errored > 0 && run.job?.pass !== false ? '⚠' : '✗') : '✓';
  const job =
    run.job === undefined
      ? ''
      : ` · job ${formatScore(round2(run.job.score))}${run.job.pass ? '' : ` < ${formatScore(run.job.threshold)}`}`;
  return `${mark} ${run.passed}/${run.total}${job}${run.cancelled ? ' · stopped' : ''} · ${timeAgo(now - run.endedAt)}`;
}

/** "just now", "5 min ago", "3 h ago", "2 d ago". */
export function timeAgo(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  return hours < 24 ? `${hours} h ago` : `${Math.floor(hours / 24)} d ago`;
}

function round2(score: number): number {
  return Math.round(score * 100) / 100;
}

/**
 * "✓ passed · 3 scorers", "✗ failed · edit_similarity 0.42 · contains 0"; compact (several configs
 * on one line): "✓ 3 scorers", "✗ edit_similarity 0.42 · +1".
 */
export function outcomeTitle(outcome: CaseOutcome, compact = false): string {
  const head = compact ? caseMark(outcome.status) : `${caseMark(outcome.status)} ${outcome.status}`;
  const verdicts = verdictsOf(outcome.results);
  if (outcome.status === 'passed')
    return `${head}${compact ? '' : ' ·'} ${verdicts.length} scorer${verdicts.length === 1 ? '' : 's'}`;
  const bad = verdicts.filter((v) => v.bad.length > 0);
  if (bad.length === 0) return compact ? `${head} ${outcome.status}` : head;
  const room = compact ? 1 : 3;
  const shown = bad.slice(0, room).map((v) => {
    const scores = v.bad.flatMap((r) => (r.score === undefined ? [] : [r.score]));
    return scores.length === 0
      ? printable(verdictName(v))
      : `${printable(verdictName(v))} ${formatScore(Math.min(...scores))}`;
  });
  return `${head}${compact ? ' ' : ' · '}${shown.join(' · ')}${bad.length > room ? ` · +${bad.length - room}` : ''}`;
}

export interface CaseDiagnosticSpec {
  /** 0-based; the case's own range (its JSONL line, its item in a JSON or YAML file). */
  readonly start: { readonly line: number; readonly column: number };
  readonly end: { readonly line: number; readonly column: number };
  readonly message: string;
}

/** A diagnostic for each failing or erroring case in the file, with the reasons of its failing scorers. */
export function failureDiagnostics(outcomes: readonly CaseOutcome[]): CaseDiagnosticSpec[] {
  const specs: CaseDiagnosticSpec[] = [];
  for (const outcome of outcomes) {
    if (outcome.status !== 'failed' && outcome.status !== 'errored') continue;
    const trials = trialsOf(outcome);
    const reasons = verdictsOf(outcome.results)
      .filter((v) => v.bad.length > 0)
      .map((v) => `${verdictHeader(v, trials)}: ${verdictReasons(v, trials).join('; ')}`);
    const { start, end } = outcome.range;
    specs.push({
      start: { line: start.line, column: start.column },
      end: { line: end.line, column: end.column },
      message: printable(`case "${outcome.caseId}" ${outcome.status}: ${reasons.join('; ')}`),
    });
  }
  return specs;
}

/**
 * Markdown for the hover on a case's line: one row per scorer, its trials folded (the failing
 * trials' reasons for a failing scorer). Workspace text goes through shared/text/markdown.ts: ids in
 * code spans, names and reasons as prose.
 */
export function outcomeHover(outcome: CaseOutcome, configName: string): string {
  const trials = trialsOf(outcome);
  const lines = [
    `**EvalLens** · case ${markdownCode(outcome.caseId)} · ${markdownText(configName)} · ${caseMark(outcome.status)} ${outcome.status}`,
    '',
  ];
  lines.push('| | Scorer | Score | Reason |', '|---|---|---|---|');
  for (const v of verdictsOf(outcome.results)) {
    const shown = v.bad.length > 0 ? v.bad : v.results;
    const scores = shown.flatMap((r) => (r.score === undefined ? [] : [r.score]));
    const low = Math.min(...scores);
    const high = Math.max(...scores);
    const score =
      scores.length === 0 ? '' : low === high ? formatScore(low) : `${formatScore(low)}–${formatScore(high)}`;
    const reason = v.bad.length > 0 ? verdictReasons(v, trials).join('; ') : (v.results[0]?.reason ?? '');
    const where = v.bad.length > 0 && trials > 1 && !v.acrossTrials ? ` (${v.bad.length}/${trials} trials)` : '';
    lines.push(
      `| ${resultMark(v.status)} | ${markdownText(verdictName(v))}${where} | ${score} | ${markdownText(reason)} |`,
    );
  }
  return lines.join('\n');
}

/** How many trials the case ran: the highest trial number among its results (at least 1). */
function trialsOf(outcome: CaseOutcome): number {
  return Math.max(1, ...outcome.results.map((r) => r.trial));
}
