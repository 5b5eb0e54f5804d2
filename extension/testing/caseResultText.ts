/**
 * How one finished case reads in Test Results: what its output says (one line for a passing case,
 * the failing scorers only for a failing one, trials summarized, lines broken between words) and
 * the message text of each failing scorer. Pure; runEventMapper.ts hands the text to the sink.
 *
 * A scorer's results over the trials are one verdict: "similarity failed in trials 1, 3 of 3". A
 * result across trials (trial 0) is the case's own, named "across trials" (shared/text/trialName.ts).
 */
import type { ResultStatus } from '../../core/result';
import type { CaseStatus } from '../../protocol/runEvents';
import { ACROSS_TRIALS } from '../../shared/text/trialName';
import { caseMark, formatScore, resultMark } from './resultText';

/** What these functions read of a result (a ScorerResult, or a ScorerOutcome kept by LastResults). */
export interface ResultFacts {
  readonly scorer: string;
  readonly trial: number;
  readonly status: ResultStatus;
  readonly score?: number;
  readonly reason: string;
  /** The verdict came from the result cache (docs/cache.md): the scorer was not called. */
  readonly cached?: true;
}

/** Statuses that make a case fail or error; only these carry their reasons to the person. */
const BAD: ReadonlySet<ResultStatus> = new Set(['fail', 'error', 'timeout']);
const WORST_FIRST: readonly ResultStatus[] = [
  'error',
  'timeout',
  'fail',
  'inconclusive',
  'unsupported',
  'skipped',
  'measured',
  'pass',
];
const VERBS: Readonly<Record<ResultStatus, string>> = {
  error: 'errored',
  timeout: 'timed out',
  fail: 'failed',
  inconclusive: 'was inconclusive',
  unsupported: 'was unsupported',
  skipped: 'was skipped',
  measured: 'measured',
  pass: 'passed',
};
/** Distinct reasons shown for one scorer; the rest are counted. */
const MAX_REASONS = 3;
/**
 * Columns of the Test Results output before a line is broken (between words). The terminal's own
 * width is not known to the extension, and past it xterm breaks mid-word: the Test Results panel,
 * beside its tree, showed about 76 columns in a 1440-pixel window, so lines stop short of that.
 */
export const OUTPUT_WIDTH = 72;
const INDENT = '    ';

/** One scorer of one case: its results over the trials, folded. */
export interface ScorerVerdict<R extends ResultFacts = ResultFacts> {
  readonly scorer: string;
  readonly acrossTrials: boolean;
  /** The worst status of its results. */
  readonly status: ResultStatus;
  readonly results: readonly R[];
  /** The results that failed, errored or timed out, in trial order. */
  readonly bad: readonly R[];
}

/** The case's results by scorer, in the order the scorers first appear; across-trials verdicts last. */
export function verdictsOf<R extends ResultFacts>(results: readonly R[]): ScorerVerdict<R>[] {
  const groups = new Map<string, R[]>();
  for (const r of results) {
    const key = `${r.trial === 0 ? '0' : '1'}\u0000${r.scorer}`;
    let group = groups.get(key);
    if (group === undefined) groups.set(key, (group = []));
    group.push(r);
  }
  const verdicts = [...groups.values()].map((group): ScorerVerdict<R> => {
    const sorted = [...group].sort((a, b) => a.trial - b.trial);
    const status = WORST_FIRST.find((s) => sorted.some((r) => r.status === s)) ?? 'pass';
    return {
      scorer: sorted[0]?.scorer ?? '',
      acrossTrials: sorted[0]?.trial === 0,
      status,
      results: sorted,
      bad: sorted.filter((r) => BAD.has(r.status)),
    };
  });
  return [...verdicts.filter((v) => !v.acrossTrials), ...verdicts.filter((v) => v.acrossTrials)];
}

/** "similarity", "similarity (across trials)". */
export function verdictName(verdict: ScorerVerdict): string {
  return verdict.acrossTrials ? `${verdict.scorer} (${ACROSS_TRIALS})` : verdict.scorer;
}

/** " in trials 1, 3 of 3" when the run has several trials and not every result is bad; "" otherwise. */
function trialsPart(verdict: ScorerVerdict, numTrials: number): string {
  if (verdict.acrossTrials || numTrials <= 1) return '';
  const trials = verdict.bad.map((r) => r.trial);
  if (trials.length === numTrials) return ` in all ${numTrials} trials`;
  return ` in trial${trials.length === 1 ? '' : 's'} ${trials.join(', ')} of ${numTrials}`;
}

/** " · score 0.42, threshold 0.6" from the lowest bad score; "" when no bad result has one. */
function scorePart(verdict: ScorerVerdict, threshold: number | undefined): string {
  const scores = verdict.bad.flatMap((r) => (r.score === undefined ? [] : [r.score]));
  if (scores.length === 0) return '';
  const low = Math.min(...scores);
  const high = Math.max(...scores);
  const shown = low === high ? formatScore(low) : `${formatScore(low)}–${formatScore(high)}`;
  return ` · score ${shown}${threshold === undefined ? '' : `, threshold ${formatScore(threshold)}`}`;
}

/**
 * The header of a failing scorer's message, which VS Code shows as the peek's title and the Test
 * Results row: who, what, in which trials, how far. "contains failed · score 0, threshold 1".
 */
export function verdictHeader(verdict: ScorerVerdict, numTrials: number, threshold?: number): string {
  return `${verdictName(verdict)} ${VERBS[verdict.status]}${trialsPart(verdict, numTrials)}${scorePart(verdict, threshold)}`;
}

/** The distinct reasons of the bad results, each with its trials when they differ; at most MAX_REASONS. */
export function verdictReasons(verdict: ScorerVerdict, numTrials: number): string[] {
  const byReason = new Map<string, number[]>();
  for (const r of verdict.bad) {
    const trials = byReason.get(r.reason);
    if (trials === undefined) byReason.set(r.reason, [r.trial]);
    else trials.push(r.trial);
  }
  const named = byReason.size > 1 && numTrials > 1 && !verdict.acrossTrials;
  const lines = [...byReason]
    .slice(0, MAX_REASONS)
    .map(([reason, trials]) =>
      named ? `trial${trials.length === 1 ? '' : 's'} ${trials.join(', ')}: ${reason}` : reason,
    );
  if (byReason.size > MAX_REASONS) lines.push(`(${byReason.size - MAX_REASONS} more reasons in the results view)`);
  return lines;
}

/**
 * A failing scorer's message: the header on the first line (the peek's title), its reasons on the
 * lines below, which name neither the scorer nor the trial again.
 */
export function verdictMessage(verdict: ScorerVerdict, numTrials: number, threshold?: number): string {
  const cached = verdict.bad.some((r) => r.cached === true) ? [CACHED_NOTE] : [];
  return [verdictHeader(verdict, numTrials, threshold), ...verdictReasons(verdict, numTrials), ...cached].join('\n');
}

/** Said under a verdict the result cache gave: the scorer was not called this run. */
export const CACHED_NOTE = 'from the result cache (kept from an earlier run; the scorer was not called)';

export interface CaseTextInput<R extends ResultFacts> {
  readonly caseId: string;
  readonly status: CaseStatus;
  readonly results: readonly R[];
  readonly numTrials: number;
  /** How many trials passed, when the run has several (the case/end event's `trials`). */
  readonly trialsPassed?: number;
  readonly thresholdOf?: (scorer: string) => number | undefined;
}

/**
 * The case's lines in the Test Results output. A passing or skipped case is one line; a failing or
 * erroring one is its line and, under it, each failing scorer with its reasons. Long lines are broken
 * between words at OUTPUT_WIDTH, continued under their text.
 */
export function caseOutputLines<R extends ResultFacts>(input: CaseTextInput<R>): string[] {
  const verdicts = verdictsOf(input.results);
  const head = `${caseMark(input.status)} ${input.caseId}`;
  const trials =
    input.trialsPassed === undefined || input.numTrials <= 1
      ? ''
      : ` · ${input.trialsPassed}/${input.numTrials} trials passed`;
  if (input.status === 'skipped') {
    const reasons = [...new Set(input.results.filter((r) => r.status === 'skipped').map((r) => r.reason))];
    return wrap(
      `${head} · skipped${reasons.length === 0 ? '' : `: ${reasons.slice(0, MAX_REASONS).join('; ')}`}`,
      '  ',
    );
  }
  const lines = wrap(`${head} · ${countsText(verdicts)}${skippedText(verdicts)}${trials}`, '  ');
  const cached = verdicts.filter((v) => v.results.some((r) => r.cached === true)).map(verdictName);
  if (cached.length > 0) lines.push(...wrap(`${INDENT}from the result cache: ${cached.join(', ')}`, `${INDENT}  `));
  for (const verdict of verdicts) {
    if (verdict.bad.length === 0) continue;
    const threshold = input.thresholdOf?.(verdict.scorer);
    lines.push(
      ...wrap(
        `${INDENT}${resultMark(verdict.status)} ${verdictHeader(verdict, input.numTrials, threshold)}`,
        `${INDENT}  `,
      ),
    );
    for (const reason of verdictReasons(verdict, input.numTrials))
      lines.push(...wrap(`${INDENT}  ${reason}`, `${INDENT}    `));
  }
  return lines;
}

/**
 * Why scorers were skipped in a case that still ran (Restricted Mode, missing credentials): said
 * once per reason, " (subprocess, judge: workspace is not trusted)".
 */
function skippedText(verdicts: readonly ScorerVerdict[]): string {
  const byReason = new Map<string, string[]>();
  for (const v of verdicts) {
    if (v.status !== 'skipped') continue;
    const reason = v.results.find((r) => r.status === 'skipped')?.reason ?? '';
    const names = byReason.get(reason);
    if (names === undefined) byReason.set(reason, [verdictName(v)]);
    else names.push(verdictName(v));
  }
  if (byReason.size === 0) return '';
  return ` (${[...byReason]
    .slice(0, MAX_REASONS)
    .map(([reason, names]) => `${names.join(', ')}: ${reason}`)
    .join('; ')})`;
}

/** "15 scorers passed", "2 failed, 12 passed, 1 unsupported". */
function countsText(verdicts: readonly ScorerVerdict[]): string {
  const total = verdicts.length;
  const counts = new Map<string, number>();
  for (const v of verdicts) {
    const word = v.status === 'measured' ? 'passed' : VERBS[v.status].replace(/^was /, '');
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const noun = `scorer${total === 1 ? '' : 's'}`;
  if (counts.get('passed') === total) return `${total} ${noun} passed`;
  const order = ['errored', 'timed out', 'failed', 'passed', 'inconclusive', 'unsupported', 'skipped'];
  const parts = order.flatMap((word) => {
    const n = counts.get(word) ?? 0;
    return n === 0 ? [] : [`${n} ${word}`];
  });
  return parts.join(', ');
}

/**
 * `line` broken between words so no piece is longer than `width` (a word longer than that is cut,
 * as nothing else can be done); pieces after the first start with `indent`.
 */
export function wrap(line: string, indent: string, width = OUTPUT_WIDTH): string[] {
  if (line.length <= width) return [line];
  const pieces: string[] = [];
  let rest = line;
  let prefix = '';
  while (prefix.length + rest.length > width) {
    const room = width - prefix.length;
    const cut = rest.lastIndexOf(' ', room);
    // Never at the line's own leading spaces: a word longer than the room is cut where the room ends.
    const at = cut > 0 && rest.slice(0, cut).trim() !== '' ? cut : room;
    pieces.push(`${prefix}${rest.slice(0, at).trimEnd()}`);
    rest = rest.slice(at).trimStart();
    prefix = indent;
  }
  if (rest !== '') pieces.push(`${prefix}${rest}`);
  return pieces;
}
