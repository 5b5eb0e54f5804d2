import type { Json } from '../case';
import { readAgentTurn, skillSteps } from './agentTurn';
import { fieldOf, hasField, idList, isJsonObject, kind, parsedJson, TraceShapeError, type JsonObject } from './fields';
import { toolCallStep } from './toolCallStep';
import type { Trace, TraceStep, TurnFigures } from './trace';

/**
 * An EvalBench conversation: `history` is the list of turns `{user, agent}` (or JSON text of it), and
 * `record` the eval-result object around it, when there is one (`accumulated_tools`,
 * `accumulated_skills` or `skills`). Each turn gives, in order: the user message, the skills and tool
 * calls its agent JSON records, the agent's `response` (message steps have roles `user` and
 * `assistant`, as in chat traces). A turn that is not an object, or whose `agent` is not JSON of an
 * object, gives no steps and an empty figure, and is counted in `skippedTurns` (EvalBench counts it
 * as 0).
 *
 * The record's `accumulated_tools` become tool-call steps (no arguments, no turn) only when no turn
 * records a `tool_calls` list, and its skill list only when no turn records `skills`, so one call is
 * never counted twice; they come after the turns' steps.
 */
export function historyTrace(history: Json | undefined, record?: JsonObject): Trace {
  const turns = historyList(history);
  const steps: TraceStep[] = [];
  const figures: TurnFigures[] = [];
  let skipped = 0;
  let recordsCalls = false;
  let recordsSkills = false;
  (turns ?? []).forEach((entry, turn) => {
    const agent = isJsonObject(entry) ? agentOf(fieldOf(entry, 'agent')) : undefined;
    if (!isJsonObject(entry) || agent === undefined) {
      skipped += 1;
      figures.push({});
      return;
    }
    const reply = readAgentTurn(agent, turn);
    const user = fieldOf(entry, 'user');
    if (user !== undefined) steps.push({ kind: 'message', role: 'user', content: user, turn });
    steps.push(...(reply.skills ?? []), ...(reply.toolCalls ?? []));
    if (reply.response !== undefined) steps.push({ kind: 'message', role: 'assistant', content: reply.response, turn });
    recordsCalls ||= reply.toolCalls !== undefined;
    recordsSkills ||= reply.skills !== undefined;
    figures.push(reply.figures);
  });
  if (record !== undefined && !recordsCalls) steps.push(...accumulatedTools(record));
  if (record !== undefined && !recordsSkills) steps.push(...accumulatedSkills(record));
  const trace: Trace = { steps, hasSteps: true, turns: figures, hasTurns: turns !== undefined, format: 'conversation_history' };
  return turns === undefined ? trace : { ...trace, skippedTurns: skipped };
}

/** The list of turns, parsed when it is JSON text; undefined when no history was recorded. */
function historyList(history: Json | undefined): readonly Json[] | undefined {
  if (history === undefined || history === null) return undefined;
  const list = typeof history === 'string' ? parsedJson(history) : history;
  if (Array.isArray(list)) return list as readonly Json[];
  const seen = typeof history === 'string' ? (list === undefined ? 'text that is not JSON' : `JSON text of ${kind(list)}`) : kind(history);
  throw new TraceShapeError(`the trace's \`conversation_history\` is ${seen}, not a list of turns`);
}

/** The agent reply as an object: recorded as an object, or as JSON text of one. */
function agentOf(agent: Json | undefined): JsonObject | undefined {
  const value = typeof agent === 'string' ? parsedJson(agent) : agent;
  return isJsonObject(value) ? value : undefined;
}

function accumulatedTools(record: JsonObject): TraceStep[] {
  const names = fieldOf(record, 'accumulated_tools');
  if (names === undefined || names === null) return [];
  return idList(names, "the trace's `accumulated_tools`").map((name) => toolCallStep({ name }));
}

function accumulatedSkills(record: JsonObject): TraceStep[] {
  const key = hasField(record, 'accumulated_skills') ? 'accumulated_skills' : 'skills';
  const names = fieldOf(record, key);
  if (names === undefined || names === null) return [];
  return skillSteps(idList(names, `the trace's \`${key}\``));
}
