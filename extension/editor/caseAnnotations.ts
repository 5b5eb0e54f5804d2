/**
 * What the editor shows on a case's line, derived from the case list and the last results: the
 * CodeLens titles, the failing-reason diagnostic and the hover. Pure, so it is unit-tested; the
 * providers in this folder only convert to vscode types.
 */
import type { CaseOutcome, ScorerOutcome } from '../testing/lastResults';
import { caseMark, formatScore, resultMark } from '../testing/resultText';

/** A case as the lens provider knows it: which config runs it and its 0-based line. */
export interface CaseSite {
  readonly configFile: string;
  readonly caseId: string;
  readonly line: number;
}

export type LensSpec =
  | { readonly kind: 'run-case'; readonly line: number; readonly title: string; readonly configFile: string; readonly caseId: string }
  | { readonly kind: 'last-result'; readonly line: number; readonly title: string; readonly configFile: string; readonly caseId: string };

/** The title H9's end-to-end suite looks for; keep it exactly. */
export const RUN_CASE_TITLE = 'Run case';

/**
 * One "Run case" lens per case and config, and the last result beside it when there is one. When
 * several configs read the same file, each lens names its config so the person knows which runs.
 */
export function caseLenses(sites: readonly CaseSite[], lastResult: (configFile: string, caseId: string) => CaseOutcome | undefined, configName: (configFile: string) => string): LensSpec[] {
  const configs = new Set(sites.map((s) => s.configFile));
  const named = configs.size > 1;
  const lenses: LensSpec[] = [];
  for (const site of sites) {
    const suffix = named ? ` · ${configName(site.configFile)}` : '';
    lenses.push({ kind: 'run-case', line: site.line, title: `${RUN_CASE_TITLE}${suffix}`, configFile: site.configFile, caseId: site.caseId });
    const outcome = lastResult(site.configFile, site.caseId);
    if (outcome !== undefined) lenses.push({ kind: 'last-result', line: site.line, title: `${outcomeTitle(outcome)}${suffix}`, configFile: site.configFile, caseId: site.caseId });
  }
  return lenses;
}

/** "✓ passed · 3 scorers", "✗ failed · edit_similarity 0.42 · contains 0". */
export function outcomeTitle(outcome: CaseOutcome): string {
  const head = `${caseMark(outcome.status)} ${outcome.status}`;
  if (outcome.status === 'passed') {
    const scorers = new Set(outcome.results.map((r) => r.scorer)).size;
    return `${head} · ${scorers} scorer${scorers === 1 ? '' : 's'}`;
  }
  const bad = notPassing(outcome);
  if (bad.length === 0) return head;
  const shown = bad.slice(0, 3).map((r) => (r.score === undefined ? r.scorer : `${r.scorer} ${formatScore(r.score)}`));
  return `${head} · ${shown.join(' · ')}${bad.length > 3 ? ` · +${bad.length - 3}` : ''}`;
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
    const reasons = notPassing(outcome).map((r) => `${r.scorer}${trialSuffix(outcome, r)}: ${r.reason}`);
    const { start, end } = outcome.range;
    specs.push({ start: { line: start.line, column: start.column }, end: { line: end.line, column: end.column }, message: `case "${outcome.caseId}" ${outcome.status}: ${reasons.join('; ')}` });
  }
  return specs;
}

/** Markdown for the hover on a case's line: every scorer's last result. */
export function outcomeHover(outcome: CaseOutcome, configName: string): string {
  const lines = [`**EvalLens** · case \`${escapeMarkdown(outcome.caseId)}\` · ${configName} · ${caseMark(outcome.status)} ${outcome.status}`, ''];
  lines.push('| | Scorer | Score | Reason |', '|---|---|---|---|');
  for (const r of outcome.results) {
    lines.push(`| ${resultMark(r.status)} | ${escapeMarkdown(r.scorer)}${trialSuffix(outcome, r)} | ${r.score === undefined ? '' : formatScore(r.score)} | ${escapeMarkdown(r.reason)} |`);
  }
  return lines.join('\n');
}

function notPassing(outcome: CaseOutcome): ScorerOutcome[] {
  return outcome.results.filter((r) => r.status === 'fail' || r.status === 'error' || r.status === 'timeout');
}

function trialSuffix(outcome: CaseOutcome, result: ScorerOutcome): string {
  return outcome.results.some((r) => r.trial > 1) ? ` (trial ${result.trial})` : '';
}

/** Reasons are our own text, but ids and reasons may hold `|`, `*` or backticks: shown as written. */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, (c) => `\\${c}`).replace(/\n/g, ' ');
}
