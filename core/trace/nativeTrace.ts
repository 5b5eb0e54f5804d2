import type { Json } from '../case';
import {
  defined,
  fieldOf,
  hasField,
  idList,
  kind,
  optionalCount,
  optionalFigure,
  optionalString,
  requiredString,
  TraceShapeError,
  type JsonObject,
} from './fields';
import { toolCallStep } from './toolCallStep';
import type {
  HandoffStep,
  MessageStep,
  RetrievalStep,
  SkillStep,
  TokenFigures,
  Trace,
  TraceStep,
  TurnFigures,
} from './trace';
import { isObject } from '../../shared/isObject';

const STEP_TYPES = ['tool_call', 'message', 'handoff', 'retrieval', 'skill'] as const;

/**
 * EvalLens's own trace format (`schemas/case.schema.json`): `{steps?, turns?, tokens?, latency_ms?,
 * citations?}`. Steps are `type`-tagged objects. `tokens` without `turns` is the token figures of a
 * single turn. `latency_ms` and `citations` are read by `traceOf` for every format.
 */
export function nativeTrace(trace: JsonObject): Trace {
  const rawSteps = fieldOf(trace, 'steps');
  const hasSteps = rawSteps !== undefined && rawSteps !== null;
  if (hasSteps && !Array.isArray(rawSteps))
    throw new TraceShapeError(`the trace's \`steps\` is ${kind(rawSteps)}, not a list`);
  const steps = hasSteps
    ? (rawSteps as readonly Json[]).map((step, index) => readStep(step, `trace step ${index + 1}`))
    : [];
  const { turns, hasTurns } = readTurns(trace);
  return { steps, hasSteps, turns, hasTurns, format: 'native' };
}

function readStep(step: Json, where: string): TraceStep {
  if (!isObject(step)) throw new TraceShapeError(`${where} is ${kind(step)}, not an object`);
  const type = fieldOf(step, 'type');
  const turn = optionalCount(step, 'turn', where);
  switch (type) {
    case 'tool_call':
      return toolCallStep({
        name: requiredString(step, 'name', where),
        arguments: fieldOf(step, 'arguments'),
        result: fieldOf(step, 'result'),
        error: optionalString(step, 'error', where),
        startMs: time(step, 'start_ms', 'started_at', where),
        endMs: time(step, 'end_ms', 'ended_at', where),
        durationMs: optionalFigure(step, 'duration_ms', where),
        turn,
        id: optionalId(step, where),
      });
    case 'message':
      return defined<MessageStep>({
        kind: 'message',
        role: requiredString(step, 'role', where),
        content: fieldOf(step, 'content'),
        turn,
      });
    case 'handoff':
      return defined<HandoffStep>({
        kind: 'handoff',
        from: optionalString(step, 'from', where),
        to: requiredString(step, 'to', where),
        turn,
      });
    case 'retrieval':
      if (!hasField(step, 'document_ids')) throw new TraceShapeError(`${where} (a retrieval) has no \`document_ids\``);
      return defined<RetrievalStep>({
        kind: 'retrieval',
        documentIds: idList(fieldOf(step, 'document_ids'), `the \`document_ids\` of ${where}`),
        query: optionalString(step, 'query', where),
        turn,
      });
    case 'skill':
      return defined<SkillStep>({ kind: 'skill', name: requiredString(step, 'name', where), turn });
    default: {
      const seen =
        type === undefined || type === null
          ? 'has no `type`'
          : typeof type === 'string'
            ? 'has a `type` EvalLens does not know'
            : `has a \`type\` that is ${kind(type)}`;
      throw new TraceShapeError(`${where} ${seen}; a step's type is one of ${STEP_TYPES.join(', ')}`);
    }
  }
}

/** Milliseconds from `<key>_ms`, else from an ISO 8601 time in `<key>_at`. */
function time(step: JsonObject, msKey: string, isoKey: string, where: string): number | undefined {
  const ms = optionalFigure(step, msKey, where);
  if (ms !== undefined) return ms;
  const iso = optionalString(step, isoKey, where);
  if (iso === undefined) return undefined;
  const parsed = Date.parse(iso);
  if (Number.isNaN(parsed)) throw new TraceShapeError(`${where} has a \`${isoKey}\` that is not an ISO 8601 time`);
  return parsed;
}

function optionalId(step: JsonObject, where: string): string | undefined {
  const id = fieldOf(step, 'id');
  return typeof id === 'number' ? String(id) : optionalString(step, 'id', where);
}

function readTurns(trace: JsonObject): { turns: TurnFigures[]; hasTurns: boolean } {
  const turns = fieldOf(trace, 'turns');
  const tokens = fieldOf(trace, 'tokens');
  const hasTokens = tokens !== undefined && tokens !== null;
  if (turns === undefined || turns === null) {
    return hasTokens
      ? { turns: [{ tokens: readTokens(tokens, "the trace's `tokens`") }], hasTurns: true }
      : { turns: [], hasTurns: false };
  }
  if (hasTokens)
    throw new TraceShapeError('the trace has both `turns` and `tokens`; give the token figures in each turn');
  if (!Array.isArray(turns)) throw new TraceShapeError(`the trace's \`turns\` is ${kind(turns)}, not a list`);
  return {
    turns: (turns as readonly Json[]).map((turn, index) => readTurn(turn, `trace turn ${index + 1}`)),
    hasTurns: true,
  };
}

function readTurn(turn: Json, where: string): TurnFigures {
  if (!isObject(turn)) throw new TraceShapeError(`${where} is ${kind(turn)}, not an object`);
  const tokens = fieldOf(turn, 'tokens');
  return defined<TurnFigures>({
    tokens: tokens === undefined || tokens === null ? undefined : readTokens(tokens, `the \`tokens\` of ${where}`),
    modelLatencyMs: optionalFigure(turn, 'model_latency_ms', where),
    toolDurationMs: optionalFigure(turn, 'tool_duration_ms', where),
    toolCalls: optionalCount(turn, 'tool_calls', where),
  });
}

/** Token figures under EvalBench's names; `output` is taken for `candidates` when that is absent. */
function readTokens(tokens: Json, where: string): TokenFigures {
  if (!isObject(tokens)) throw new TraceShapeError(`${where} is ${kind(tokens)}, not an object`);
  return defined<TokenFigures>({
    input: optionalFigure(tokens, 'input', where),
    prompt: optionalFigure(tokens, 'prompt', where),
    candidates: optionalFigure(tokens, 'candidates', where) ?? optionalFigure(tokens, 'output', where),
    total: optionalFigure(tokens, 'total', where),
    cached: optionalFigure(tokens, 'cached', where),
    cacheCreation: optionalFigure(tokens, 'cache_creation', where),
    thoughts: optionalFigure(tokens, 'thoughts', where),
    tool: optionalFigure(tokens, 'tool', where),
  });
}
