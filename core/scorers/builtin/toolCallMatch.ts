import type { Json } from '../../case';
import { error, fail, pass, unsupported, type ScorerVerdict } from '../../result';
import schema from '../../../schemas/scorers/tool_call_match.schema.json';
import { canonicalJson } from '../support/canonicalJson';
import { kindOf, typeName } from '../support/describe';
import { prepareBoundedRegex, type BoundedRegex } from '../support/boundedRegex';
import { parseFieldPath, valueAt } from '../support/path';
import { callsInStartOrder, count, readSteps, type PlacedCall } from '../support/traceSteps';
import {
  checked,
  defineScorer,
  type OptionIssue,
  type OptionsOf,
  prepared,
  refused,
  type ScorerContext,
} from '../scorer';

type RuleName = 'equals' | 'not_equals' | 'matches' | 'one_of' | 'min' | 'max' | 'present' | 'absent' | 'type';
type TypeName = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';
type Occurrence = 'any' | 'all' | 'exactly_one';

interface ParamOption {
  readonly path: string;
  readonly rule: RuleName;
  readonly value?: Json;
  readonly flags?: string;
}

/** What one rule says about one call's arguments. `why` names kinds and config, never argument values. */
type RuleOutcome =
  | { readonly status: 'satisfied' }
  | { readonly status: 'unsatisfied'; readonly why: string }
  | { readonly status: 'timeout'; readonly interrupted: boolean }
  | { readonly status: 'failed'; readonly message: string };

interface CompiledRule {
  /** 1-based place in `params`. */
  readonly number: number;
  readonly path: string;
  readonly segments: readonly (string | number)[];
  readonly rule: RuleName;
  readonly test: (value: Json | undefined) => RuleOutcome;
}

interface CallOutcome {
  readonly placed: PlacedCall;
  /** 1-based place among the calls of the tool. */
  readonly nth: number;
  readonly status: 'satisfied' | 'unsatisfied' | 'unknown';
  readonly rules: readonly {
    readonly rule: CompiledRule;
    readonly outcome: RuleOutcome;
    readonly value: Json | undefined;
  }[];
}

/** How many calls (or forbidden calls) a reason names before it says "and N more". */
const NAMED_IN_REASON = 3;

/**
 * Passes when the named tool was called with arguments that satisfy every `params` rule, for any
 * call, every call or exactly one call (`occurrence`), and no forbidden tool was called. Binary.
 */
export const toolCallMatch = defineScorer('tool_call_match', {
  origin: 'EvalBook',
  scale: { kind: 'bounded', max: 1 },
  schema,
  check(options, context) {
    return checked(compileRules(options, context).issues);
  },
  create(options, context) {
    const { issues, rules } = compileRules(options, context);
    const forbidden = new Set(options.forbidden_tools ?? []);
    if (issues.length > 0) return refused(...issues);
    const tool = options.tool;

    return prepared({
      score({ case: evalCase }) {
        const read = readSteps(evalCase);
        if (!read.ok) return read.verdict;
        const calls = callsInStartOrder(read.trace);

        // Decided without reading any arguments: a forbidden call, or no call of the tool.
        const banned = calls.filter(
          (c) => c.call.name !== tool && (options.forbid_other_tools || forbidden.has(c.call.name)),
        );
        const bannedDetails: Json = banned.map((c) => ({ tool: c.call.name, call: c.number, step: c.step }));
        if (banned.length > 0) {
          const what = options.forbid_other_tools
            ? `other tools were called and forbid_other_tools is on`
            : `a forbidden tool was called`;
          const named = banned.slice(0, NAMED_IN_REASON).map((c) => `\`${c.call.name}\` (step ${c.step})`);
          const more = banned.length > NAMED_IN_REASON ? ` and ${banned.length - NAMED_IN_REASON} more` : '';
          return fail(`${what}: ${named.join(', ')}${more}`, 0, { tool, forbidden_calls: bannedDetails });
        }
        const ofTool = calls.filter((c) => c.call.name === tool);
        if (ofTool.length === 0) {
          return fail(`\`${tool}\` was not called (the trace has ${count(calls.length, 'tool call')})`, 0, {
            tool,
            calls: 0,
          });
        }
        if (rules.length > 0) {
          const unrecorded = ofTool
            .map((c, i) => ({ c, nth: i + 1 }))
            .filter(({ c }) => c.call.arguments === undefined);
          const first = unrecorded[0];
          if (first !== undefined) {
            const others = unrecorded.length > 1 ? ` (and of ${count(unrecorded.length - 1, 'other call')} of it)` : '';
            const why =
              read.trace.format === 'tool_names' ? '; the trace is a list of tool names, which keeps no arguments' : '';
            return unsupported(
              `ARGUMENTS_UNAVAILABLE: the recording did not keep the arguments of call ${first.nth} of \`${tool}\` (step ${first.c.step})${others}, so its rules cannot be checked${why}`,
              {
                code: 'ARGUMENTS_UNAVAILABLE',
                tool,
                calls: unrecorded.map(({ c, nth }) => ({ call: nth, step: c.step })),
              },
            );
          }
        }

        const outcomes = ofTool.map((placed, i) => evaluateCall(placed, i + 1, rules));
        const failed = outcomes.flatMap((o) =>
          o.rules.filter((r) => r.outcome.status === 'failed').map((r) => ({ o, r })),
        )[0];
        if (failed !== undefined && failed.r.outcome.status === 'failed') {
          return error(
            `rule ${failed.r.rule.number} could not be run on call ${failed.o.nth} of \`${tool}\`: ${failed.r.outcome.message}`,
            detailsOf(tool, options.occurrence, outcomes),
          );
        }
        return decide(tool, options.occurrence, rules.length, outcomes, options.match_timeout_ms);
      },
    });
  },
});

/** The rules compiled, or why one cannot run; and a required tool that forbidden_tools lists. */
function compileRules(
  options: OptionsOf<'tool_call_match'>,
  context: ScorerContext,
): { issues: OptionIssue[]; rules: CompiledRule[] } {
  const issues: OptionIssue[] = [];
  const rules: CompiledRule[] = [];
  options.params.forEach((param, index) => {
    const parsed = parseFieldPath(param.path);
    if (!parsed.ok) {
      issues.push({ path: ['params', index, 'path'], message: `rule ${index + 1}: ${parsed.message}` });
      return;
    }
    const test = compileRule(param, options.match_timeout_ms, context);
    if (!test.ok) {
      issues.push({
        path: ['params', index, 'value'],
        message: `rule ${index + 1} (matches): the pattern ${test.message}`,
      });
      return;
    }
    rules.push({ number: index + 1, path: param.path, segments: parsed.segments, rule: param.rule, test: test.test });
  });
  if ((options.forbidden_tools ?? []).includes(options.tool)) {
    issues.push({
      path: ['forbidden_tools'],
      message: `forbidden_tools lists \`${options.tool}\`, the tool this scorer requires`,
    });
  }
  return { issues, rules };
}

function compileRule(
  param: ParamOption,
  timeoutMs: number,
  context: ScorerContext,
): { ok: true; test: CompiledRule['test'] } | { ok: false; message: string } {
  const value = param.value ?? null;
  switch (param.rule) {
    case 'equals': {
      const wanted = canonicalJson(value);
      return {
        ok: true,
        test: (v) =>
          v === undefined
            ? missing()
            : canonicalJson(v) === wanted
              ? satisfied()
              : unsatisfied(`is ${kindOf(v)} that differs from the rule's value`),
      };
    }
    case 'not_equals': {
      const excluded = canonicalJson(value);
      return {
        ok: true,
        test: (v) =>
          v !== undefined && canonicalJson(v) === excluded ? unsatisfied(`equals the excluded value`) : satisfied(),
      };
    }
    case 'one_of': {
      const allowed = new Set((value as readonly Json[]).map(canonicalJson));
      return {
        ok: true,
        test: (v) =>
          v === undefined
            ? missing()
            : allowed.has(canonicalJson(v))
              ? satisfied()
              : unsatisfied(`is ${kindOf(v)} that is none of the ${allowed.size} listed values`),
      };
    }
    case 'matches': {
      const made = prepareBoundedRegex(String(value), param.flags ?? '', { verdicts: context.engine.regexVerdicts });
      if (!made.ok) return { ok: false, message: made.message };
      return { ok: true, test: (v) => testPattern(made.regex, v, timeoutMs) };
    }
    case 'min':
    case 'max': {
      const bound = value as number;
      const isMin = param.rule === 'min';
      return {
        ok: true,
        test: (v) => {
          if (v === undefined) return missing();
          if (typeof v !== 'number') return unsatisfied(`is ${kindOf(v)}, not a number; nothing is converted`);
          if (isMin ? v >= bound : v <= bound) return satisfied();
          return unsatisfied(isMin ? `is below the minimum ${bound}` : `is above the maximum ${bound}`);
        },
      };
    }
    case 'present':
      return { ok: true, test: (v) => (v === undefined ? missing() : satisfied()) };
    case 'absent':
      return { ok: true, test: (v) => (v === undefined ? satisfied() : unsatisfied(`is present (${kindOf(v)})`)) };
    case 'type': {
      const types = (typeof value === 'string' ? [value] : (value as readonly string[])) as readonly TypeName[];
      return {
        ok: true,
        test: (v) => {
          if (v === undefined) return missing();
          if (types.some((t) => hasType(v, t))) return satisfied();
          const seen = typeof v === 'number' && !Number.isInteger(v) ? 'a number with a fractional part' : kindOf(v);
          return unsatisfied(`is ${seen}, not ${types.join(' or ')}`);
        },
      };
    }
  }
}

function testPattern(regex: BoundedRegex, v: Json | undefined, timeoutMs: number): RuleOutcome {
  if (v === undefined) return missing();
  if (typeof v !== 'string') return unsatisfied(`is ${kindOf(v)}, not a string; nothing is converted`);
  const result = regex.exec(v, timeoutMs);
  switch (result.status) {
    case 'matched':
      return satisfied();
    case 'not_matched':
      return unsatisfied(`is ${kindOf(v)} that the pattern matches nowhere`);
    case 'timeout':
      return { status: 'timeout', interrupted: result.interrupted };
    case 'failed':
      return { status: 'failed', message: result.message };
  }
}

function hasType(v: Json, type: TypeName): boolean {
  switch (type) {
    case 'null':
      return v === null;
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number';
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'array':
      return Array.isArray(v);
    case 'object':
      return v !== null && typeof v === 'object' && !Array.isArray(v);
  }
}

const satisfied = (): RuleOutcome => ({ status: 'satisfied' });
const unsatisfied = (why: string): RuleOutcome => ({ status: 'unsatisfied', why });
const missing = (): RuleOutcome => unsatisfied('is missing');

function evaluateCall(placed: PlacedCall, nth: number, rules: readonly CompiledRule[]): CallOutcome {
  const args = placed.call.arguments;
  // Arguments recorded as a scalar (text that was not JSON, a number) have no fields: say so.
  const flat = args !== undefined && (args === null || typeof args !== 'object');
  const results = rules.map((rule) => {
    const value = args === undefined ? undefined : valueAt(args, rule.segments);
    const outcome = rule.test(value);
    if (flat && outcome.status === 'unsatisfied' && value === undefined) {
      return {
        rule,
        outcome: unsatisfied(`${outcome.why}: the call's arguments are ${kindOf(args)}, not an object`),
        value,
      };
    }
    return { rule, outcome, value };
  });
  const status = results.some((r) => r.outcome.status === 'unsatisfied')
    ? 'unsatisfied'
    : results.every((r) => r.outcome.status === 'satisfied')
      ? 'satisfied'
      : 'unknown';
  return { placed, nth, status, rules: results };
}

/**
 * The occurrence rule over three-valued calls: a call whose patterns ran out of time is unknown, and
 * the answer is `timeout` only when an unknown call could still change it.
 */
function decide(
  tool: string,
  occurrence: Occurrence,
  ruleCount: number,
  outcomes: readonly CallOutcome[],
  timeoutMs: number,
): ScorerVerdict {
  const details = detailsOf(tool, occurrence, outcomes);
  const total = outcomes.length;
  const good = outcomes.filter((o) => o.status === 'satisfied');
  const bad = outcomes.filter((o) => o.status === 'unsatisfied');
  const unknown = outcomes.filter((o) => o.status === 'unknown');
  const every = ruleCount === 0 ? 'was called' : `satisfies ${ruleCount === 1 ? 'the rule' : `all ${ruleCount} rules`}`;
  const callsOf = `${count(total, 'call')} of \`${tool}\``;
  const timedOut = (): ScorerVerdict => ({
    status: 'timeout',
    reason: `a matches pattern took longer than match_timeout_ms (${timeoutMs} ms) on ${describeList(unknown.map((o) => `call ${o.nth}`))} of \`${tool}\`, and the answer depends on ${unknown.length === 1 ? 'it' : 'them'}`,
    details,
  });
  switch (occurrence) {
    case 'any': {
      const hit = good[0];
      if (hit !== undefined) return pass(`call ${hit.nth} of the ${callsOf} ${every} (occurrence any)`, 1, details);
      if (unknown.length > 0) return timedOut();
      return fail(`none of the ${callsOf} satisfies every rule (occurrence any): ${describeFailures(bad)}`, 0, details);
    }
    case 'all': {
      if (bad.length > 0) {
        const who =
          bad.length === total
            ? total === 1
              ? 'the only call'
              : `all ${total} calls`
            : `${bad.length} of the ${total} calls`;
        return fail(
          `${who} of \`${tool}\` ${bad.length === 1 ? 'fails' : 'fail'} a rule (occurrence all): ${describeFailures(bad)}`,
          0,
          details,
        );
      }
      if (unknown.length > 0) return timedOut();
      const rulesText = ruleCount === 1 ? 'the rule' : `all ${ruleCount} rules`;
      const verb =
        ruleCount === 0
          ? total === 1
            ? 'was made'
            : 'were made'
          : `${total === 1 ? 'satisfies' : 'satisfy'} ${rulesText}`;
      return pass(
        `${total === 1 ? 'the only call' : `all ${total} calls`} of \`${tool}\` ${verb} (occurrence all)`,
        1,
        details,
      );
    }
    case 'exactly_one': {
      if (good.length > 1) {
        return fail(
          `${good.length} of the ${callsOf} satisfy every rule (${describeList(good.map((o) => `call ${o.nth}`))}); occurrence exactly_one needs exactly one`,
          0,
          details,
        );
      }
      if (unknown.length > 0) return timedOut();
      const only = good[0];
      if (only !== undefined)
        return pass(`exactly one of the ${callsOf} (call ${only.nth}) ${every} (occurrence exactly_one)`, 1, details);
      return fail(
        `none of the ${callsOf} satisfies every rule (occurrence exactly_one): ${describeFailures(bad)}`,
        0,
        details,
      );
    }
  }
}

/** "call 1: `query` fails matches (is a number, not a string); call 3: …", kinds and paths only. */
function describeFailures(bad: readonly CallOutcome[]): string {
  const named = bad.slice(0, NAMED_IN_REASON).map((o) => {
    const broken = o.rules.filter((r) => r.outcome.status === 'unsatisfied');
    const shown = broken
      .slice(0, NAMED_IN_REASON)
      .map(
        (r) => `\`${r.rule.path}\` fails ${r.rule.rule} (${r.outcome.status === 'unsatisfied' ? r.outcome.why : ''})`,
      );
    const more = broken.length > NAMED_IN_REASON ? `, and ${broken.length - NAMED_IN_REASON} more rules` : '';
    return `call ${o.nth}: ${shown.join(', ')}${more}`;
  });
  const more = bad.length > NAMED_IN_REASON ? `; and ${count(bad.length - NAMED_IN_REASON, 'more call')}` : '';
  return `${named.join('; ')}${more}`;
}

function describeList(items: readonly string[]): string {
  if (items.length <= NAMED_IN_REASON) return items.join(', ');
  return `${items.slice(0, NAMED_IN_REASON).join(', ')} and ${items.length - NAMED_IN_REASON} more`;
}

/** Per call and rule: what was seen (kinds, and the argument value itself, which only details may hold). */
function detailsOf(tool: string, occurrence: Occurrence, outcomes: readonly CallOutcome[]): { [key: string]: Json } {
  return {
    tool,
    occurrence,
    calls: outcomes.map((o) => ({
      call: o.nth,
      step: o.placed.step,
      result: o.status,
      rules: o.rules.map((r) => {
        const base = {
          rule: r.rule.number,
          path: r.rule.path,
          check: r.rule.rule,
          result: r.outcome.status,
          saw: typeName(r.value),
        };
        return r.value === undefined ? base : { ...base, actual: r.value };
      }),
    })),
  };
}
