import type { Json } from '../case';
import { readAgentTurn, skillSteps } from './agentTurn';
import { fieldOf, hasField, idList, kind, parsedJson, TraceShapeError, type JsonObject } from './fields';
import { toolCallStep } from './toolCallStep';
import { canonicalToolName } from './toolNames';
import type { Trace, TraceStep, TurnFigures } from './trace';
import { isObject } from '../../shared/isObject';

/**
 * An EvalBench conversation: `history` is the list of turns `{user, agent}` (or JSON text of it), and
 * `record` the eval-result object around it, when there is one (`accumulated_tools`,
 * `accumulated_skills` or `skills`). Each turn gives, in order: the user message, the skills and tool
 * calls its agent JSON records (in any of EvalBench's shapes, `agentToolCalls.ts`), the agent's
 * `response` (message steps have roles `user` and `assistant`, as in chat traces). A turn that is not
 * an object, or whose `agent` is not JSON of an object, gives no steps and an empty figure, and is
 * counted in `skippedTurns` (EvalBench counts it as 0).
 *
 * So that one call is never counted twice, the record's lists are fallbacks for the steps:
 * `accumulated_tools` become tool-call steps (no arguments, no turn) only when no turn gives a tool
 * call; skills come from the turns' `skills` lists, else the record's `accumulated_skills` (or
 * `skills`), else the skills the turns' `stats.tools.byName` shows activated.
 *
 * `trajectoryNames` is what EvalBench's trajectory_matcher scores: the record's `accumulated_tools`
 * when it has them (EvalBench scores exactly that list), else what EvalBench would have accumulated,
 * turn after turn (`AgentToolCalls.trajectory`).
 */
export function historyTrace(history: Json | undefined, record?: JsonObject): Trace {
  const turns = historyList(history);
  const perTurn: {
    readonly head: TraceStep[];
    readonly calls: readonly TraceStep[];
    readonly tail: TraceStep[];
    readonly activated: readonly TraceStep[];
  }[] = [];
  const figures: TurnFigures[] = [];
  const trajectory: string[] = [];
  let skipped = 0;
  let callsRead = false;
  let skillsListed = false;
  (turns ?? []).forEach((entry, turn) => {
    const agent = isObject(entry) ? agentOf(fieldOf(entry, 'agent')) : undefined;
    if (!isObject(entry) || agent === undefined) {
      skipped += 1;
      figures.push({});
      return;
    }
    const reply = readAgentTurn(agent, turn);
    const user = fieldOf(entry, 'user');
    const head: TraceStep[] = user === undefined ? [] : [{ kind: 'message', role: 'user', content: user, turn }];
    const tail: TraceStep[] =
      reply.response === undefined ? [] : [{ kind: 'message', role: 'assistant', content: reply.response, turn }];
    head.push(...(reply.skills ?? []));
    perTurn.push({ head, calls: reply.toolCalls ?? [], tail, activated: reply.activatedSkills ?? [] });
    for (const name of reply.trajectory) trajectory.push(name);
    callsRead ||= (reply.toolCalls?.length ?? 0) > 0;
    skillsListed ||= reply.skills !== undefined;
    figures.push(reply.figures);
  });
  const recordSkills = record === undefined || skillsListed ? undefined : accumulatedSkills(record);
  const useActivated = !skillsListed && recordSkills === undefined;
  const steps: TraceStep[] = [];
  for (const turn of perTurn)
    steps.push(...turn.head, ...(useActivated ? turn.activated : []), ...turn.calls, ...turn.tail);
  const recordTools = record === undefined ? undefined : accumulatedTools(record);
  if (recordTools !== undefined && !callsRead) steps.push(...recordTools.map((name) => toolCallStep({ name })));
  if (recordSkills !== undefined) steps.push(...recordSkills);
  const trajectoryNames = recordTools === undefined ? trajectory : recordTools.map((name) => canonicalToolName(name));
  const trace: Trace = {
    steps,
    hasSteps: true,
    turns: figures,
    hasTurns: turns !== undefined,
    format: 'conversation_history',
    trajectoryNames,
  };
  return turns === undefined ? trace : { ...trace, skippedTurns: skipped };
}

/** The list of turns, parsed when it is JSON text; undefined when no history was recorded. */
function historyList(history: Json | undefined): readonly Json[] | undefined {
  if (history === undefined || history === null) return undefined;
  const list = typeof history === 'string' ? parsedJson(history) : history;
  if (Array.isArray(list)) return list as readonly Json[];
  const seen =
    typeof history === 'string'
      ? list === undefined
        ? 'text that is not JSON'
        : `JSON text of ${kind(list)}`
      : kind(history);
  throw new TraceShapeError(`the trace's \`conversation_history\` is ${seen}, not a list of turns`);
}

/** The agent reply as an object: recorded as an object, or as JSON text of one. */
function agentOf(agent: Json | undefined): JsonObject | undefined {
  const value = typeof agent === 'string' ? parsedJson(agent) : agent;
  return isObject(value) ? value : undefined;
}

/** The record's `accumulated_tools`, as recorded; undefined when it has none. */
function accumulatedTools(record: JsonObject): string[] | undefined {
  const names = fieldOf(record, 'accumulated_tools');
  if (names === undefined || names === null) return undefined;
  return idList(names, "the trace's `accumulated_tools`");
}

function accumulatedSkills(record: JsonObject): TraceStep[] | undefined {
  const key = hasField(record, 'accumulated_skills') ? 'accumulated_skills' : 'skills';
  const names = fieldOf(record, key);
  if (names === undefined || names === null) return undefined;
  return skillSteps(idList(names, `the trace's \`${key}\``));
}
