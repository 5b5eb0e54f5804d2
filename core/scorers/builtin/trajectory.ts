import type { Json } from '../../case';
import { fail, pass } from '../../result';
import schema from '../../../schemas/scorers/trajectory.schema.json';
import type { HandoffStep } from '../../trace/trace';
import { callsInStartOrder, count, readSteps, type PlacedCall } from '../support/traceSteps';
import { checked, defineScorer, type OptionIssue, type OptionsOf, prepared, refused } from '../scorer';

interface Handoff {
  readonly to: string;
  readonly from?: string;
}

/** Why a required step is not satisfied, seen from where the previous required step was. */
type StepProblem = 'never_called' | 'only_errored' | 'out_of_order';

/** How many failures of one kind a reason names before it says "and N more". */
const NAMED_IN_REASON = 3;

/**
 * Passes when every required step happened in order and without error (an ordered subsequence of the
 * successful tool calls), no forbidden tool was called, and every declared handoff was recorded.
 * Binary; the reason names each rule that failed.
 */
export const trajectory = defineScorer('trajectory', {
  origin: 'EvalBook',
  scale: { kind: 'bounded', max: 1 },
  schema,
  check(options) {
    return checked(contradictions(options));
  },
  create(options) {
    const required = options.required_steps ?? [];
    const forbidden = new Set(options.forbidden_tools ?? []);
    const handoffs = options.handoffs ?? [];
    const issues = contradictions(options);
    if (issues.length > 0) return refused(...issues);

    return prepared({
      score({ case: evalCase }) {
        const read = readSteps(evalCase);
        if (!read.ok) return read.verdict;
        const calls = callsInStartOrder(read.trace);
        const problems: string[] = [];
        const details: { [key: string]: Json } = { tool_calls: calls.length };

        if (required.length > 0) {
          const walk = walkRequired(required, calls);
          details['required_steps'] = required.map((name, i) => {
            const at = walk.matched[i];
            return at === undefined
              ? { step: i + 1, tool: name, satisfied: false }
              : { step: i + 1, tool: name, satisfied: true, call: at.number, trace_step: at.step };
          });
          if (walk.missing !== undefined) problems.push(describeMissing(walk.missing, required, walk.matched, calls));
        }

        if (forbidden.size > 0) {
          const banned = calls.filter((c) => forbidden.has(c.call.name));
          details['forbidden_calls'] = banned.map((c) => ({
            tool: c.call.name,
            call: c.number,
            trace_step: c.step,
            ...(c.call.error === undefined ? {} : { errored: true }),
          }));
          if (banned.length > 0) problems.push(describeForbidden(banned));
        }

        if (handoffs.length > 0) {
          const recorded = read.trace.steps.filter((s): s is HandoffStep => s.kind === 'handoff');
          const found = handoffs.map((h) =>
            recorded.some((r) => r.to === h.to && (h.from === undefined || r.from === h.from)),
          );
          details['handoffs'] = handoffs.map((h, i): Json => ({ ...h, recorded: found[i] === true }));
          details['handoffs_recorded'] = recorded.length;
          const absent = handoffs.map((h, i) => ({ h, i })).filter(({ i }) => found[i] !== true);
          if (absent.length > 0) problems.push(describeAbsentHandoffs(absent, recorded.length));
        }

        if (problems.length > 0) return fail(problems.join('; '), 0, details);
        const kept: string[] = [];
        if (required.length > 0)
          kept.push(`all ${count(required.length, 'required step')} happened in order without error`);
        if (forbidden.size > 0)
          kept.push(
            forbidden.size === 1
              ? `the forbidden tool \`${[...forbidden].join('')}\` was not called`
              : `none of the ${forbidden.size} forbidden tools was called`,
          );
        if (handoffs.length > 0)
          kept.push(
            `${handoffs.length === 1 ? 'the declared handoff was' : `all ${handoffs.length} declared handoffs were`} recorded`,
          );
        return pass(`${kept.join('; ')} (${count(calls.length, 'tool call')} in the trace)`, 1, details);
      },
    });
  },
});

/**
 * Greedy in-order matching: required step i is satisfied by the first successful call of its tool
 * after the call that satisfied step i − 1. Greedy is optimal for a subsequence test, so a step it
 * leaves unsatisfied cannot be satisfied by any other assignment.
 */
function walkRequired(
  required: readonly string[],
  calls: readonly PlacedCall[],
): { matched: (PlacedCall | undefined)[]; missing?: number } {
  const matched: (PlacedCall | undefined)[] = [];
  let next = 0;
  for (let i = 0; i < required.length; i++) {
    let found: PlacedCall | undefined;
    while (next < calls.length && found === undefined) {
      const c = calls[next++] as PlacedCall;
      if (c.call.name === required[i] && c.call.error === undefined) found = c;
    }
    if (found === undefined) return { matched, missing: i };
    matched.push(found);
  }
  return { matched };
}

function describeMissing(
  index: number,
  required: readonly string[],
  matched: readonly (PlacedCall | undefined)[],
  calls: readonly PlacedCall[],
): string {
  const name = required[index] as string;
  const previous = index > 0 ? matched[index - 1] : undefined;
  const after = previous?.number ?? 0;
  const ofTool = calls.filter((c) => c.call.name === name);
  const later = ofTool.filter((c) => c.number > after);
  const earlier = ofTool.filter((c) => c.number <= after);
  const step = `required step ${index + 1} of ${required.length} (\`${name}\`)`;
  const rest = required.length - index - 1;
  const unchecked = rest > 0 ? ` (the ${count(rest, 'step')} after it ${rest === 1 ? 'was' : 'were'} not checked)` : '';
  const since = index > 0 ? ` after step ${index} (\`${required[index - 1] as string}\`, call ${after})` : '';
  let problem: StepProblem;
  if (later.length > 0) problem = 'only_errored';
  else if (earlier.some((c) => c.call.error === undefined)) problem = 'out_of_order';
  else if (earlier.length > 0) problem = 'only_errored';
  else problem = 'never_called';
  switch (problem) {
    case 'never_called':
      return `${step} was never called${unchecked}`;
    case 'only_errored': {
      const errored = later.length > 0 ? later : earlier;
      const where = later.length > 0 ? since : '';
      return `${step} only ended with errors${where}: ${errored.length === 1 ? 'its call' : `all ${errored.length} of its calls`} failed${unchecked}`;
    }
    case 'out_of_order':
      return `${step} is out of order: it succeeded only before step ${index} (\`${required[index - 1] as string}\`, call ${after})${unchecked}`;
  }
}

function describeForbidden(banned: readonly PlacedCall[]): string {
  const byTool = new Map<string, PlacedCall[]>();
  for (const c of banned) byTool.set(c.call.name, [...(byTool.get(c.call.name) ?? []), c]);
  const named = [...byTool.entries()]
    .slice(0, NAMED_IN_REASON)
    .map(([name, cs]) => `\`${name}\` (${count(cs.length, 'call')}, first at call ${(cs[0] as PlacedCall).number})`);
  const more = byTool.size > NAMED_IN_REASON ? ` and ${byTool.size - NAMED_IN_REASON} more` : '';
  return `forbidden tool${byTool.size === 1 ? '' : 's'} called: ${named.join(', ')}${more}`;
}

function describeAbsentHandoffs(absent: readonly { h: Handoff; i: number }[], recorded: number): string {
  const named = absent
    .slice(0, NAMED_IN_REASON)
    .map(({ h, i }) => `handoff ${i + 1} (${h.from === undefined ? '' : `from \`${h.from}\` `}to \`${h.to}\`)`);
  const more = absent.length > NAMED_IN_REASON ? ` and ${absent.length - NAMED_IN_REASON} more` : '';
  return `${named.join(', ')}${more} ${absent.length === 1 ? 'was' : 'were'} not recorded (the trace records ${count(recorded, 'handoff')})`;
}

/** Required steps that forbidden_tools also lists: no trace could pass. */
function contradictions(options: OptionsOf<'trajectory'>): OptionIssue[] {
  const forbidden = new Set(options.forbidden_tools ?? []);
  const issues: OptionIssue[] = [];
  (options.required_steps ?? []).forEach((name, i) => {
    if (forbidden.has(name))
      issues.push({
        path: ['required_steps', i],
        message: `required step ${i + 1} (\`${name}\`) is also in forbidden_tools; no trace could pass`,
      });
  });
  return issues;
}
