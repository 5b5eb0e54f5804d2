import type { EvalCase, Json } from '../case';
import { chatTrace } from './chatMessages';
import { historyTrace } from './conversationHistory';
import { fieldOf, hasField, idList, kind, optionalFigure, TraceShapeError, type JsonObject } from './fields';
import { nativeTrace } from './nativeTrace';
import { toolNameListTrace } from './toolNameList';
import type { Trace } from './trace';
import { isObject } from '../../shared/isObject';

/** A case's trace in the engine's model, or why it has none a scorer could use. */
export type TraceLookup =
  { readonly ok: true; readonly trace: Trace } | { readonly ok: false; readonly reason: string };

const cache = new WeakMap<EvalCase, TraceLookup>();

/**
 * The case's trace, normalized from whatever format it was recorded in. Computed once per case
 * object (every trace scorer of the case shares it).
 */
export function traceOf(evalCase: EvalCase): TraceLookup {
  let found = cache.get(evalCase);
  if (found === undefined) {
    found = normalize(evalCase);
    cache.set(evalCase, found);
  }
  return found;
}

/** Fields that make an object a native trace when it has none of the other formats' fields. */
const NATIVE_FIELDS = ['steps', 'turns', 'tokens', 'latency_ms', 'citations'] as const;
const HISTORY_FIELDS = ['conversation_history', 'accumulated_tools', 'accumulated_skills'] as const;
const SHOWN_FIELDS = 5;

function normalize(evalCase: EvalCase): TraceLookup {
  const raw = evalCase.trace;
  if (raw === undefined || raw === null) return { ok: false, reason: 'the case has no trace' };
  try {
    return { ok: true, trace: readTrace(raw) };
  } catch (error) {
    if (error instanceof TraceShapeError) return { ok: false, reason: error.message };
    throw error;
  }
}

/**
 * The formats, told apart by shape. An object: `steps` (native), else `messages` (OpenAI chat), else
 * `conversation_history` / `accumulated_tools` / `accumulated_skills` (EvalBench), else any of `turns`,
 * `tokens`, `latency_ms`, `citations` (native, without steps). A list, by its first item: a string (tool
 * names), an object with `role` (chat messages), an object with `user` or `agent` (EvalBench turns). An
 * empty list is an empty list of tool names. `latency_ms` and `citations` of an object are read for
 * every format.
 */
function readTrace(raw: Json): Trace {
  if (Array.isArray(raw)) return readList(raw as readonly Json[]);
  if (!isObject(raw)) {
    throw new TraceShapeError(
      `the trace is ${kind(raw)}; a trace is an object (with steps, messages or conversation_history) or a list (of tool names, chat messages or conversation turns)`,
    );
  }
  return { ...readObject(raw), ...wrapperFigures(raw) };
}

function readObject(raw: JsonObject): Trace {
  if (hasField(raw, 'steps')) return nativeTrace(raw);
  if (hasField(raw, 'messages')) {
    const messages = fieldOf(raw, 'messages');
    if (!Array.isArray(messages))
      throw new TraceShapeError(`the trace's \`messages\` is ${kind(messages)}, not a list of chat messages`);
    return chatTrace(messages as readonly Json[]);
  }
  if (HISTORY_FIELDS.some((key) => hasField(raw, key))) return historyTrace(fieldOf(raw, 'conversation_history'), raw);
  if (NATIVE_FIELDS.some((key) => hasField(raw, key))) return nativeTrace(raw);
  const keys = Object.keys(raw);
  const shown =
    keys.length === 0
      ? 'it has no fields'
      : `its fields: ${keys.slice(0, SHOWN_FIELDS).join(', ')}${keys.length > SHOWN_FIELDS ? `, and ${keys.length - SHOWN_FIELDS} more` : ''}`;
  throw new TraceShapeError(
    `the trace is an object with none of steps, messages, conversation_history, turns, latency_ms or citations (${shown})`,
  );
}

function readList(raw: readonly Json[]): Trace {
  const first = raw[0];
  if (first === undefined || typeof first === 'string') return toolNameListTrace(raw);
  if (isObject(first) && hasField(first, 'role')) return chatTrace(raw);
  if (isObject(first) && (hasField(first, 'user') || hasField(first, 'agent'))) return historyTrace(raw);
  const seen = isObject(first) ? 'an object with neither `role` nor `user`/`agent`' : kind(first);
  throw new TraceShapeError(
    `the trace is a list whose first item is ${seen}; a trace list holds tool names, chat messages (with role) or conversation turns (with user and agent)`,
  );
}

/** The whole-case figures any object trace may carry. */
function wrapperFigures(raw: JsonObject): Pick<Trace, 'latencyMs' | 'citations'> {
  const latencyMs = optionalFigure(raw, 'latency_ms', 'the trace');
  const citations = fieldOf(raw, 'citations');
  return {
    ...(latencyMs === undefined ? {} : { latencyMs }),
    ...(citations === undefined || citations === null
      ? {}
      : { citations: idList(citations, "the trace's `citations`") }),
  };
}
