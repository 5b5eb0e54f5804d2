import type { EvalCase, Json } from '../../case';
import { error, fail, inconclusive, pass, unsupported, type ScorerVerdict } from '../../result';
import schema from '../../../schemas/scorers/execution_order.schema.json';
import { kindOf } from '../support/describe';
import { longestCommonSubsequence } from '../support/longestCommonSubsequence';
import { callsInStartOrder, count, formatRatio, readSteps } from '../support/traceSteps';
import { meets, passMarkOf } from '../support/unitThreshold';
import { checked, defineScorer, type OptionIssue, type OptionsOf, prepared, refused } from '../scorer';

type Source = 'auto' | 'trace' | 'output';
type Mode = 'exact' | 'ordering' | 'set';

/** judgeval's default pass mark. */
export const EXECUTION_ORDER_DEFAULT_THRESHOLD = 0.5;

/**
 * The longest list (expected or called) the ordering mode compares: its longest common subsequence
 * keeps a table of the product of the two lengths (here at most 4 million cells, 16 MB, a few
 * milliseconds). A longer list is an `error` saying so.
 */
export const EXECUTION_ORDER_MAX_ORDERED_TOOLS = 2_000;

type ListRead =
  | { readonly ok: true; readonly tools: readonly string[]; readonly source: string }
  | { readonly ok: false; readonly verdict: ScorerVerdict };

/**
 * judgeval's ExecutionOrder: how well the called tools follow the expected ones, by exact list
 * equality, by longest common subsequence over the expected length, or (default) by the distinct
 * expected tools that were called over the expected length (duplicates kept in the denominator).
 */
export const executionOrder = defineScorer('execution_order', {
  origin: 'judgeval',
  scale: { kind: 'bounded', max: 1 },
  defaultThreshold: EXECUTION_ORDER_DEFAULT_THRESHOLD,
  schema,
  check(options) {
    return checked(strictModeIssues(options));
  },
  create(options) {
    const mark = passMarkOf(options, EXECUTION_ORDER_DEFAULT_THRESHOLD);
    const issues = strictModeIssues(options);
    if (issues.length > 0) return refused(...issues);
    const threshold = options.strict_mode ? 1 : mark.threshold;
    const passMark = { threshold, lowerIsBetter: mark.lowerIsBetter };
    const mode: Mode = options.should_exact_match ? 'exact' : options.should_consider_ordering ? 'ordering' : 'set';

    return prepared({
      score({ case: evalCase, output, expected: given }) {
        const expected = expectedTools(given);
        if (!expected.ok) return expected.verdict;
        const called = calledTools(evalCase, output, options.source);
        if (!called.ok) return called.verdict;
        const e = expected.tools;
        const c = called.tools;
        const details: { [key: string]: Json } = {
          mode,
          expected: e,
          called: c,
          expected_from: expected.source,
          called_from: called.source,
          threshold,
        };

        // Empty expected list (the issue's rule, in every mode): 1.0 when nothing was called either,
        // else inconclusive. judgeval's set and ordering modes divide by zero here; its exact mode gives 0.
        if (e.length === 0) {
          if (c.length === 0)
            return pass('nothing was expected and nothing was called (score 1)', 1, { ...details, score: 1 });
          return inconclusive(
            `the expected list is empty but ${count(c.length, 'tool')} ${c.length === 1 ? 'was' : 'were'} called; a score against an empty expectation is undefined`,
            details,
          );
        }

        let unstrict: number;
        let how: string;
        if (mode === 'exact') {
          const at = firstDifference(e, c);
          unstrict = at < 0 ? 1 : 0;
          how =
            at < 0
              ? `exact match: the ${count(c.length, 'called tool')} equal the expected list`
              : `exact match: the called list (${count(c.length, 'tool')}) differs from the expected list (${count(e.length, 'tool')}) at position ${at + 1}`;
        } else if (mode === 'ordering') {
          const longest = Math.max(e.length, c.length);
          if (longest > EXECUTION_ORDER_MAX_ORDERED_TOOLS) {
            const which = e.length >= c.length ? 'expected' : 'called';
            return error(
              `the ${which} list has ${longest} tools, over the ${EXECUTION_ORDER_MAX_ORDERED_TOOLS} the ordering match compares`,
            );
          }
          const common = longestCommonSubsequence(e, c);
          unstrict = common.length / e.length;
          details['common_subsequence'] = common;
          how = `ordering match: the longest common subsequence of the expected and called lists has ${common.length} of the ${count(e.length, 'expected tool')} (${count(c.length, 'tool')} called)`;
        } else {
          const calledSet = new Set(c);
          const matched = [...new Set(e)].filter((t) => calledSet.has(t));
          unstrict = matched.length / e.length;
          details['matched'] = matched;
          const dup = new Set(e).size < e.length ? ', duplicates kept in the denominator' : '';
          how = `set match: ${matched.length} distinct expected tool${matched.length === 1 ? ' was' : 's were'} called, over ${count(e.length, 'expected entry', 'expected entries')}${dup}`;
        }
        const score = options.strict_mode && unstrict < 1 ? 0 : unstrict;
        details['score'] = score;
        if (options.strict_mode) details['unstrict_score'] = unstrict;
        const strict =
          options.strict_mode && unstrict < 1 && mode !== 'exact'
            ? ` (strict_mode: ${formatRatio(unstrict)} counts as 0)`
            : '';
        const markText = passMark.lowerIsBetter ? `at most ${threshold}` : `at least ${threshold}`;
        const shown = formatRatio(score, threshold);
        return meets(score, passMark)
          ? pass(`score ${shown} meets the pass threshold (${markText}): ${how}${strict}`, score, details)
          : fail(`score ${shown} misses the pass threshold (${markText}): ${how}${strict}`, score, details);
      },
    });
  },
});

/** The expected tool names: `expected` as a list, or its `tools` field. A wrong label is an error. */
function expectedTools(expected: Json | undefined): ListRead {
  if (expected === undefined)
    return {
      ok: false,
      verdict: error(
        'there is no expected value: the case needs its expected tool names in `expected` (a list) or `expected.tools`',
      ),
    };
  let list: Json | undefined = expected;
  let source = 'expected';
  if (expected !== null && typeof expected === 'object' && !Array.isArray(expected)) {
    const record = expected as { readonly [key: string]: Json };
    list = Object.prototype.hasOwnProperty.call(record, 'tools') ? record['tools'] : undefined;
    source = 'expected.tools';
    if (list === undefined)
      return {
        ok: false,
        verdict: error('the expected value is an object without `tools`; there is no expected tool list'),
      };
  }
  const checked = stringList(list);
  if (!checked.ok)
    return {
      ok: false,
      verdict: error(`\`${source}\` ${checked.problem}, not a list of tool names; nothing is converted`),
    };
  return { ok: true, tools: checked.items, source };
}

/** The called tool names: the trace's tool calls in start order, or the output list (judgeval's `actual_output`). */
function calledTools(evalCase: EvalCase, output: Json | undefined, source: Source): ListRead {
  const useTrace = source === 'trace' || (source === 'auto' && evalCase.trace !== undefined && evalCase.trace !== null);
  if (useTrace) {
    const read = readSteps(evalCase);
    if (!read.ok) return read;
    return { ok: true, tools: callsInStartOrder(read.trace).map((c) => c.call.name), source: 'trace' };
  }
  const noTrace = source === 'auto' ? 'the case has no trace, and ' : '';
  if (output === undefined) {
    return source === 'auto'
      ? { ok: false, verdict: unsupported('the case has no trace and no output to read the called tools from') }
      : { ok: false, verdict: fail('the case has no output') };
  }
  const checked = stringList(output);
  if (!checked.ok)
    return {
      ok: false,
      verdict: fail(`${noTrace}the output ${checked.problem}, not a list of tool names; nothing is converted`),
    };
  return { ok: true, tools: checked.items, source: 'output' };
}

function stringList(value: Json | undefined): { ok: true; items: readonly string[] } | { ok: false; problem: string } {
  if (!Array.isArray(value)) return { ok: false, problem: `is ${kindOf(value)}` };
  const items = value as readonly Json[];
  const wrong = items.findIndex((item) => typeof item !== 'string');
  if (wrong >= 0) return { ok: false, problem: `has item ${wrong + 1} that is ${kindOf(items[wrong])}` };
  return { ok: true, items: items as readonly string[] };
}

/** The first 0-based position where two lists differ (a shorter list differs at its end), or -1. */
function firstDifference(a: readonly string[], b: readonly string[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

/** strict_mode's contradictions: a threshold other than 1, or lower_is_better. */
function strictModeIssues(options: OptionsOf<'execution_order'>): OptionIssue[] {
  const issues: OptionIssue[] = [];
  if (options.strict_mode) {
    const given = options.threshold;
    if (typeof given === 'number' && given !== 1)
      issues.push({
        path: ['threshold'],
        message: `strict_mode forces the threshold to 1; a threshold of ${given} contradicts it (remove it or set it to 1)`,
      });
    if (passMarkOf(options, EXECUTION_ORDER_DEFAULT_THRESHOLD).lowerIsBetter)
      issues.push({
        path: ['lower_is_better'],
        message: 'strict_mode forces the threshold to 1 with higher scores better; lower_is_better contradicts it',
      });
  }
  return issues;
}
