import type { Json } from '../../case';
import { error, fail, pass, unsupported, type ScorerVerdict } from '../../result';
import schema from '../../../schemas/scorers/trajectory_matcher.schema.json';
import { toolCalls } from '../../trace/trace';
import { looksCanonicalMcp } from '../../trace/toolNames';
import { traceOf } from '../../trace/traceOf';
import { kindOf } from '../support/describe';
import { coverage, interruptibleListEditDistance, jaccard, setOverlap } from '../support/listDistance';
import { defineScorer, prepared } from '../scorer';

/** How this scorer's reasons name tool names. */
const TOOL_NOUNS: NameNouns = { one: 'tool', many: 'tools', done: 'called', event: 'tool call', list: 'trajectory' };

/**
 * EvalBench's `trajectory_matcher`: the expected tool names against the canonical names of the tool
 * calls in the case's trace. Jaccard on sets by default, list Levenshtein with `enforce_order`; with
 * `filter_native_tools` (default) only canonical MCP names (`<server>__<tool>`) count, on both sides.
 * Score 0–100; the case passes at exactly 100 unless a threshold is configured.
 */
export const trajectoryMatcher = defineScorer('trajectory_matcher', {
  origin: 'EvalBench',
  scale: { kind: 'bounded', max: 100 },
  schema,
  create(options) {
    return prepared({
      score({ case: evalCase, expected: given }, signal) {
        const expected = expectedNames(given, 'trajectory', TOOL_NOUNS);
        if (!expected.ok) return expected.verdict;
        const lookup = traceOf(evalCase);
        if (!lookup.ok) return unsupported(lookup.reason);
        if (lookup.trace.hasSteps === false)
          return unsupported('the trace records figures but no steps, so there are no tool calls to compare');
        let expectedNamesList = expected.names;
        // An EvalBench conversation is scored on the list EvalBench itself scores (its accumulated_tools).
        let actualNames: readonly string[] =
          lookup.trace.trajectoryNames ?? toolCalls(lookup.trace).map((step) => step.name);
        const extra: { [key: string]: Json } = {};
        let note = '';
        if (options.filter_native_tools) {
          const droppedExpected = expectedNamesList.filter((name) => !looksCanonicalMcp(name));
          const droppedActual = actualNames.filter((name) => !looksCanonicalMcp(name));
          expectedNamesList = expectedNamesList.filter(looksCanonicalMcp);
          actualNames = actualNames.filter(looksCanonicalMcp);
          extra['native_tools_dropped'] = { expected: droppedExpected, actual: droppedActual };
          const dropped = droppedExpected.length + droppedActual.length;
          if (dropped > 0) note = `; ${plural(dropped, 'native tool name')} left out (filter_native_tools)`;
        }
        if (!expected.given) extra['expected_given'] = false;
        return compareNameLists(
          expectedNamesList,
          actualNames,
          options.enforce_order ? 'levenshtein' : 'jaccard',
          TOOL_NOUNS,
          note,
          extra,
          signal,
        );
      },
    });
  },
});

/** How reasons name the items of a list scorer: "tool"/"tools" that were "called". */
export interface NameNouns {
  readonly one: string;
  readonly many: string;
  readonly done: string;
  /** One recorded occurrence: "tool call", "skill activation". */
  readonly event: string;
  /** The name of the expected list and of its field in an expected object (`trajectory`, `skills`). */
  readonly list: string;
}

export type ListRule = 'jaccard' | 'levenshtein' | 'coverage';

type ExpectedRead =
  | { readonly ok: true; readonly names: string[]; readonly given: boolean }
  | { readonly ok: false; readonly verdict: ScorerVerdict };

/**
 * The expected names: the expected value itself when it is a list, else its `field`. A missing value
 * (or `null`, EvalBench's None) is the empty list; a present value of another type is an error.
 */
export function expectedNames(value: Json | undefined, field: string, nouns: NameNouns): ExpectedRead {
  let list: Json | undefined = value;
  let label = `the expected ${nouns.list}`;
  if (value !== null && value !== undefined && typeof value === 'object' && !Array.isArray(value)) {
    list = (value as { readonly [key: string]: Json })[field];
    label = `the expected value's \`${field}\``;
  }
  if (list === undefined || list === null) return { ok: true, names: [], given: false };
  if (!Array.isArray(list))
    return { ok: false, verdict: error(`${label} is ${kindOf(list)}, not a list of ${nouns.one} names`) };
  const names: string[] = [];
  for (const [i, item] of (list as readonly Json[]).entries()) {
    if (typeof item !== 'string')
      return { ok: false, verdict: error(`item ${i + 1} of ${label} is ${kindOf(item)}, not a ${nouns.one} name`) };
    names.push(item);
  }
  return { ok: true, names, given: true };
}

/**
 * The most names either list may hold: the ordered comparison's work grows with the product of the
 * two lengths. A longer list is an `error` saying so.
 */
export const MAX_COMPARED_NAMES = 10_000;

/**
 * Scores two lists of names by one of EvalBench's rules, ×100: Jaccard on sets, list Levenshtein
 * similarity, or coverage of the expected set. Two empty lists score 100 whatever the rule. Passes at
 * exactly 100 (EvalBench counts only a score of 100 as correct). A long ordered comparison runs in
 * chunks that yield to the event loop and stop once `signal` aborts.
 */
export function compareNameLists(
  expected: readonly string[],
  actual: readonly string[],
  rule: ListRule,
  nouns: NameNouns,
  note: string,
  extra: { readonly [key: string]: Json },
  signal: AbortSignal,
): ScorerVerdict | Promise<ScorerVerdict> {
  for (const [list, what] of [
    [expected, `expected ${nouns.list}`],
    [actual, `recorded ${nouns.list}`],
  ] as const) {
    if (list.length > MAX_COMPARED_NAMES)
      return error(`the ${what} has ${list.length} ${nouns.many}, over the ${MAX_COMPARED_NAMES} that are compared`);
  }
  const overlap = setOverlap(expected, actual);
  const details: { [key: string]: Json } = {
    rule,
    expected: [...expected],
    actual: [...actual],
    matched: overlap.matched,
    missing: overlap.missing,
    unexpected: overlap.unexpected,
    ...extra,
  };
  if (expected.length === 0 && actual.length === 0) {
    return verdict(`no ${nouns.many} expected and none ${nouns.done}: two empty lists score 100${note}`, 100, {
      ...details,
      rule: 'both_empty',
    });
  }
  if (rule === 'levenshtein') {
    const distance = interruptibleListEditDistance(expected, actual, signal);
    const decide = (d: number) => orderedVerdict(expected, actual, d, nouns, note, details);
    return typeof distance === 'number'
      ? decide(distance)
      : distance.then(decide, (e: unknown) => error(e instanceof Error ? e.message : String(e)));
  }
  const matched = overlap.matched.length;
  if (rule === 'coverage') {
    const score = coverage(expected, actual) * 100;
    return verdict(
      `${matched} of ${overlap.expectedCount} expected ${nouns.many} ${werePlural(matched)} ${nouns.done}; extra ${nouns.many} allowed (coverage ${percent(score)})${note}`,
      score,
      details,
    );
  }
  const score = jaccard(expected, actual) * 100;
  const head =
    overlap.expectedCount === 0
      ? `no ${nouns.many} were expected; ${plural(overlap.unexpected.length, `distinct ${nouns.one}`)} ${werePlural(overlap.unexpected.length)} ${nouns.done}`
      : `${matched} of ${overlap.expectedCount} expected ${nouns.many} ${werePlural(matched)} ${nouns.done}; ${overlap.unexpected.length} unexpected`;
  return verdict(`${head} (Jaccard ${percent(score)})${note}`, score, details);
}

/** The list Levenshtein verdict, once the distance is known. */
function orderedVerdict(
  expected: readonly string[],
  actual: readonly string[],
  distance: number,
  nouns: NameNouns,
  note: string,
  details: { readonly [key: string]: Json },
): ScorerVerdict {
  const longest = Math.max(expected.length, actual.length);
  const score = Math.max(0, 1 - distance / longest) * 100;
  const reason = `the ${plural(actual.length, nouns.event)} ${actual.length === 1 ? 'is' : 'are'} ${plural(distance, 'edit')} from the ${expected.length} expected, in order (Levenshtein similarity ${percent(score)})${note}`;
  return verdict(reason, score, { ...details, distance, longest });
}

function verdict(reason: string, score: number, details: { readonly [key: string]: Json }): ScorerVerdict {
  return score === 100 ? pass(reason, score, details) : fail(reason, score, details);
}

function werePlural(n: number): string {
  return n === 1 ? 'was' : 'were';
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** A 0–100 score as reasons show it: at most two decimals. */
function percent(score: number): string {
  return String(Math.round(score * 100) / 100);
}
