import type { Json } from '../case';
import { defined, fieldOf, kind, optionalString, requiredString, TraceShapeError, type JsonObject } from './fields';
import { decodedArguments, toolCallStep } from './toolCallStep';
import type { MessageStep, ToolCallStep, Trace, TraceStep, TurnFigures } from './trace';
import { isObject } from '../../shared/isObject';

/**
 * An OpenAI-style chat transcript: messages with `role` and `content`; an assistant message's
 * `tool_calls` (`{id, type: 'function', function: {name, arguments: <JSON text>}}`) become tool-call
 * steps right after it, and a `role: 'tool'` message with the call's `tool_call_id` gives that call its
 * `result` (its content as recorded). A turn begins at each user message (messages before the first
 * belong to turn 0); each turn's figure is its number of tool calls, since chat messages carry no token
 * or latency figures.
 *
 * Message steps: every message, except an assistant message whose only content is its tool calls
 * (content null, absent or empty) and a tool message joined to its call (its content is the result).
 */
export function chatTrace(messages: readonly Json[]): Trace {
  const steps: TraceStep[] = [];
  const open = new Map<string, number>();
  const callsPerTurn: number[] = [];
  let users = 0;
  messages.forEach((message, index) => {
    const where = `trace message ${index + 1}`;
    if (!isObject(message)) throw new TraceShapeError(`${where} is ${kind(message)}, not an object`);
    const role = requiredString(message, 'role', where);
    if (role === 'user') users += 1;
    const turn = Math.max(0, users - 1);
    const content = fieldOf(message, 'content');
    if (role === 'tool') {
      const joined = joinResult(steps, open, message, where);
      if (joined) return;
    }
    const calls = toolCallsOf(message, where, turn);
    if (calls.length === 0 || !isEmpty(content))
      steps.push(defined<MessageStep>({ kind: 'message', role, content, turn }));
    for (const call of calls) {
      if (call.id !== undefined && !open.has(call.id)) open.set(call.id, steps.length);
      steps.push(call);
    }
    callsPerTurn[turn] = (callsPerTurn[turn] ?? 0) + calls.length;
  });
  const turnCount = users > 0 ? users : messages.length > 0 ? 1 : 0;
  const turns: TurnFigures[] = Array.from({ length: turnCount }, (_, turn) => ({ toolCalls: callsPerTurn[turn] ?? 0 }));
  return { steps, hasSteps: true, turns, hasTurns: true, format: 'chat' };
}

/** Gives the open call with the message's `tool_call_id` its result; false when there is none. */
function joinResult(steps: TraceStep[], open: Map<string, number>, message: JsonObject, where: string): boolean {
  const id = optionalString(message, 'tool_call_id', where);
  const at = id === undefined ? undefined : open.get(id);
  const call = at === undefined ? undefined : steps[at];
  if (id === undefined || at === undefined || call?.kind !== 'tool_call') return false;
  const content = fieldOf(message, 'content');
  steps[at] = content === undefined ? call : { ...call, result: content };
  open.delete(id);
  return true;
}

function toolCallsOf(message: JsonObject, where: string, turn: number): ToolCallStep[] {
  const calls = fieldOf(message, 'tool_calls');
  if (calls === undefined || calls === null) return [];
  if (!Array.isArray(calls))
    throw new TraceShapeError(`${where} has \`tool_calls\` that is ${kind(calls)}, not a list`);
  return (calls as readonly Json[]).map((call, index) => {
    const at = `tool call ${index + 1} of ${where}`;
    if (!isObject(call)) throw new TraceShapeError(`${at} is ${kind(call)}, not an object`);
    const fn = fieldOf(call, 'function');
    if (!isObject(fn))
      throw new TraceShapeError(
        `${at} has ${fn === undefined ? 'no `function`' : `a \`function\` that is ${kind(fn)}`}; it needs {name, arguments}`,
      );
    const id = optionalString(call, 'id', at);
    return toolCallStep({
      name: requiredString(fn, 'name', `the function of ${at}`),
      arguments: decodedArguments(fieldOf(fn, 'arguments')),
      id,
      turn,
    });
  });
}

function isEmpty(content: Json | undefined): boolean {
  return (
    content === undefined || content === null || content === '' || (Array.isArray(content) && content.length === 0)
  );
}
