import type { Json } from '../case';
import { readAgentToolCalls } from './agentToolCalls';
import { defined, fieldOf, type JsonObject } from './fields';
import type { SkillStep, TokenFigures, ToolCallStep, TurnFigures } from './trace';
import { isObject } from '../../shared/isObject';

/** What one EvalBench agent reply (the parsed `agent` JSON of a history turn) records. */
export interface AgentTurn {
  readonly toolCalls?: readonly ToolCallStep[];
  /** The tool names EvalBench's `accumulated_tools` gets from this reply (see `readAgentToolCalls`). */
  readonly trajectory: readonly string[];
  readonly skills?: readonly SkillStep[];
  /** The skills `stats.tools.byName` shows activated (`skillsOfByName`), when any. */
  readonly activatedSkills?: readonly SkillStep[];
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
 * add nothing. Tokens are summed over `stats.models.*.tokens`, model latency over
 * `stats.models.*.api.totalLatencyMs`; the tool time is `stats.tools.totalDurationMs`; the call count is
 * `stats.tools.totalCalls` when it is a whole number, else the length of `tool_calls`. Tool calls are
 * read in every recorded shape (`agentToolCalls.ts`). Skills: the reply's `skills` list, and apart from it
 * the skills its `stats.tools.byName` shows activated (`skillsOfByName`).
 */
export function readAgentTurn(agent: JsonObject, turn: number): AgentTurn {
  const calls = fieldOf(agent, 'tool_calls');
  const skills = fieldOf(agent, 'skills');
  const response = fieldOf(agent, 'response');
  const stats = objectAt(agent, 'stats');
  const tools = stats === undefined ? undefined : objectAt(stats, 'tools');
  const byName = tools === undefined ? undefined : objectAt(tools, 'byName');
  const toolCalls = readAgentToolCalls(agent, byName, turn);
  return defined<AgentTurn>({
    toolCalls: toolCalls.steps,
    trajectory: toolCalls.trajectory,
    skills: Array.isArray(skills) ? skillSteps(skills as readonly Json[], turn) : undefined,
    activatedSkills: byName === undefined ? undefined : skillsOfByName(byName, turn),
    response,
    figures: figuresOf(stats, tools, Array.isArray(calls) ? calls.length : undefined),
  });
}

/** Skill names (strings, or objects with a string `name`) as skill steps; other items are left out. */
export function skillSteps(items: readonly Json[], turn?: number): SkillStep[] {
  return items.flatMap((item) => {
    const name = typeof item === 'string' ? item : isObject(item) ? fieldOf(item, 'name') : undefined;
    return typeof name === 'string' && name !== '' ? [defined<SkillStep>({ kind: 'skill', name, turn })] : [];
  });
}

/**
 * The skills a reply's byName shows activated, as EvalBench's `extract_skills` finds them: the
 * `skill_name` / `skillName` / `skill` / `name` parameter of Gemini CLI's and agy's `activate_skill`
 * calls, and the `skill` / `name` / `skill_name` parameter of Claude Code's `Skill` tool, each once.
 * (Claude Code's skills that appear as tools of their own need the installed skill folders, which a
 * recording does not have.) Undefined when neither tool was called.
 */
function skillsOfByName(byName: JsonObject, turn: number): SkillStep[] | undefined {
  const names: string[] = [];
  for (const [tool, keys] of SKILL_TOOLS) {
    const stat = fieldOf(byName, tool);
    const parameters = isObject(stat) ? fieldOf(stat, 'parameters') : undefined;
    if (!Array.isArray(parameters)) continue;
    for (const params of parameters as readonly Json[]) {
      if (!isObject(params)) continue;
      const name = keys.map((key) => fieldOf(params, key)).find((value) => typeof value === 'string' && value !== '');
      if (typeof name === 'string' && !names.includes(name)) names.push(name);
    }
  }
  return names.length === 0 ? undefined : skillSteps(names, turn);
}

const SKILL_TOOLS: readonly (readonly [string, readonly string[]])[] = [
  ['activate_skill', ['skill_name', 'skillName', 'skill', 'name']],
  ['Skill', ['skill', 'name', 'skill_name']],
];

function figuresOf(
  stats: JsonObject | undefined,
  tools: JsonObject | undefined,
  recordedCalls: number | undefined,
): TurnFigures {
  const models = stats === undefined ? undefined : objectAt(stats, 'models');
  const tokens: { -readonly [K in keyof TokenFigures]: number | undefined } = {};
  let modelLatency: number | undefined;
  for (const model of Object.values(models ?? {})) {
    if (!isObject(model)) continue;
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
    toolCalls:
      typeof totalCalls === 'number' && Number.isInteger(totalCalls) && totalCalls >= 0 ? totalCalls : recordedCalls,
  });
}

function objectAt(value: JsonObject, key: string): JsonObject | undefined {
  const field = fieldOf(value, key);
  return isObject(field) ? field : undefined;
}

/** A finite number; anything else adds nothing. */
function figure(value: Json | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
