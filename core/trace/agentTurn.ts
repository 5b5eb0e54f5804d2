import type { Json } from '../case';
import { defined, errorText, fieldOf, isJsonObject, type JsonObject } from './fields';
import { toolCallStep } from './toolCallStep';
import type { SkillStep, TokenFigures, ToolCallStep, TurnFigures } from './trace';

/** What one EvalBench agent reply (the parsed `agent` JSON of a history turn) records. */
export interface AgentTurn {
  readonly toolCalls?: readonly ToolCallStep[];
  readonly skills?: readonly SkillStep[];
  /** The reply text, when recorded. */
  readonly response?: Json;
  readonly figures: TurnFigures;
}

/** EvalBench's token names (Gemini CLI stats) and the model's names for them. */
const TOKEN_NAMES: readonly (readonly [string, keyof TokenFigures])[] = [
  ['input', 'input'],
  ['prompt', 'prompt'],
  ['candidates', 'candidates'],
  ['total', 'total'],
  ['cached', 'cached'],
  ['cache_creation', 'cacheCreation'],
  ['thoughts', 'thoughts'],
  ['tool', 'tool'],
];

/**
 * Reads an agent reply as EvalBench's counters do, leniently: figures that are missing or not numbers
 * add nothing, and tool calls that are not objects with a string `name` are left out. Tokens are summed
 * over `stats.models.*.tokens`, model latency over `stats.models.*.api.totalLatencyMs`; the tool time is
 * `stats.tools.totalDurationMs`; the call count is `stats.tools.totalCalls` when it is a whole number,
 * else the length of `tool_calls`. Arguments are kept as recorded (`args`, else `arguments`).
 */
export function readAgentTurn(agent: JsonObject, turn: number): AgentTurn {
  const calls = fieldOf(agent, 'tool_calls');
  const skills = fieldOf(agent, 'skills');
  const response = fieldOf(agent, 'response');
  return defined<AgentTurn>({
    toolCalls: Array.isArray(calls) ? readCalls(calls as readonly Json[], turn) : undefined,
    skills: Array.isArray(skills) ? skillSteps(skills as readonly Json[], turn) : undefined,
    response,
    figures: figuresOf(agent, Array.isArray(calls) ? calls.length : undefined),
  });
}

/** Skill names (strings, or objects with a string `name`) as skill steps; other items are left out. */
export function skillSteps(items: readonly Json[], turn?: number): SkillStep[] {
  return items.flatMap((item) => {
    const name = typeof item === 'string' ? item : isJsonObject(item) ? fieldOf(item, 'name') : undefined;
    return typeof name === 'string' && name !== '' ? [defined<SkillStep>({ kind: 'skill', name, turn })] : [];
  });
}

function readCalls(calls: readonly Json[], turn: number): ToolCallStep[] {
  return calls.flatMap((call) => {
    if (!isJsonObject(call)) return [];
    const name = fieldOf(call, 'name');
    if (typeof name !== 'string' || name === '') return [];
    const id = fieldOf(call, 'id');
    return [
      toolCallStep({
        name,
        arguments: fieldOf(call, 'args') ?? fieldOf(call, 'arguments'),
        result: fieldOf(call, 'result'),
        error: errorText(fieldOf(call, 'error')),
        durationMs: figure(fieldOf(call, 'duration_ms') ?? fieldOf(call, 'durationMs')),
        turn,
        id: typeof id === 'string' || typeof id === 'number' ? String(id) : undefined,
      }),
    ];
  });
}

function figuresOf(agent: JsonObject, recordedCalls: number | undefined): TurnFigures {
  const stats = objectAt(agent, 'stats');
  const models = stats === undefined ? undefined : objectAt(stats, 'models');
  const tools = stats === undefined ? undefined : objectAt(stats, 'tools');
  const tokens: { -readonly [K in keyof TokenFigures]: number | undefined } = {};
  let modelLatency: number | undefined;
  for (const model of Object.values(models ?? {})) {
    if (!isJsonObject(model)) continue;
    const counts = objectAt(model, 'tokens');
    for (const [recorded, name] of TOKEN_NAMES) {
      const value = counts === undefined ? undefined : figure(fieldOf(counts, recorded));
      if (value !== undefined) tokens[name] = (tokens[name] ?? 0) + value;
    }
    const api = objectAt(model, 'api');
    const latency = api === undefined ? undefined : figure(fieldOf(api, 'totalLatencyMs'));
    if (latency !== undefined) modelLatency = (modelLatency ?? 0) + latency;
  }
  const totalCalls = tools === undefined ? undefined : fieldOf(tools, 'totalCalls');
  const summed = defined<TokenFigures>(tokens);
  return defined<TurnFigures>({
    tokens: Object.keys(summed).length > 0 ? summed : undefined,
    modelLatencyMs: modelLatency,
    toolDurationMs: tools === undefined ? undefined : figure(fieldOf(tools, 'totalDurationMs')),
    toolCalls: typeof totalCalls === 'number' && Number.isInteger(totalCalls) && totalCalls >= 0 ? totalCalls : recordedCalls,
  });
}

function objectAt(value: JsonObject, key: string): JsonObject | undefined {
  const field = fieldOf(value, key);
  return isJsonObject(field) ? field : undefined;
}

/** A finite number; anything else adds nothing. */
function figure(value: Json | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
