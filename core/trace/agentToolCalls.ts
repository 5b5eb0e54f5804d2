import type { Json } from '../case';
import { errorText, fieldOf, type JsonObject } from './fields';
import { canonicalToolName } from './toolNames';
import { decodedArguments, toolCallStep } from './toolCallStep';
import type { ToolCallStep } from './trace';
import { isObject } from '../../shared/isObject';

/**
 * The tool calls of one EvalBench agent reply, in every shape EvalBench has recorded them
 * (a fixture of each: test/fixtures/evalbench/recordings/):
 *
 * - `tool_calls: [{tool_id, tool_name, parameters, status, response, timestamp, result_timestamp}]`:
 *   Gemini CLI, Claude Code and Codex since EvalBench's stream-json parsers (2026-06); the name is
 *   already canonical.
 * - `tool_calls: [{name, args | arguments, result, error, id}]`: the older shape (and hand-written
 *   recordings); `functionCall` / `function_call` / `function` (`{name, args | arguments}`) wrappers
 *   as Gemini API parts and OpenAI tool calls give them.
 * - no `tool_calls`, only `stats.tools.byName: {<name>: {count, parameters: [...]}}`: Gemini CLI's own
 *   `--output-format json` and Antigravity (agy). Each name gives `count` calls (at least one), with
 *   the recorded parameters in order; calls of one name are grouped, as byName groups them.
 *
 * `trajectory` is the list EvalBench's `accumulated_tools` gets from this reply: the keys of
 * `stats.tools.byName` (each harness's `extract_tools`), or, when the reply has no byName, the names
 * of its tool calls in order.
 */
export interface AgentToolCalls {
  /** Undefined when the reply records no calls in any shape. */
  readonly steps?: readonly ToolCallStep[];
  readonly trajectory: readonly string[];
}

export function readAgentToolCalls(agent: JsonObject, byName: JsonObject | undefined, turn: number): AgentToolCalls {
  const calls = fieldOf(agent, 'tool_calls');
  const listed = Array.isArray(calls) ? listedCalls(calls as readonly Json[], turn) : undefined;
  const steps = listed ?? (byName === undefined ? undefined : byNameCalls(byName, turn));
  const trajectory =
    byName !== undefined
      ? Object.keys(byName).map((name) => canonicalToolName(name))
      : (listed ?? []).map((step) => step.name);
  return steps === undefined ? { trajectory } : { steps, trajectory };
}

const SUCCESS = new Set(['success', 'ok', 'completed', 'done']);

function listedCalls(calls: readonly Json[], turn: number): ToolCallStep[] {
  const steps: ToolCallStep[] = [];
  for (const item of calls) {
    if (!isObject(item)) continue;
    const call = wrapped(item);
    const name = firstString(call, NAME_KEYS);
    if (name === undefined) continue;
    const id = fieldOf(item, 'tool_id') ?? fieldOf(item, 'id') ?? fieldOf(call, 'id');
    const status = fieldOf(item, 'status');
    const result = fieldOf(item, 'result') ?? fieldOf(item, 'response') ?? fieldOf(item, 'output');
    const failed = typeof status === 'string' && !SUCCESS.has(status.toLowerCase());
    const startMs = instant(fieldOf(item, 'timestamp'));
    const endMs = instant(fieldOf(item, 'result_timestamp'));
    const timed = startMs !== undefined && endMs !== undefined;
    steps.push(
      toolCallStep({
        name,
        arguments: decodedArguments(firstValue(call, ARGUMENT_KEYS)),
        result: result === null ? undefined : result,
        error: errorText(fieldOf(item, 'error')) ?? (failed ? `status ${status}` : undefined),
        durationMs: figure(fieldOf(item, 'duration_ms') ?? fieldOf(item, 'durationMs')),
        startMs: timed ? startMs : undefined,
        endMs: timed ? endMs : undefined,
        turn,
        id: typeof id === 'string' || typeof id === 'number' ? String(id) : undefined,
      }),
    );
  }
  return steps;
}

/** The call inside a `functionCall` / `function_call` / `function` wrapper, else the item itself. */
function wrapped(item: JsonObject): JsonObject {
  for (const key of WRAPPERS) {
    const inner = fieldOf(item, key);
    if (isObject(inner)) return inner;
  }
  return item;
}

function byNameCalls(byName: JsonObject, turn: number): ToolCallStep[] {
  const steps: ToolCallStep[] = [];
  for (const name of Object.keys(byName)) {
    if (name === '') continue;
    const stat = fieldOf(byName, name);
    const recorded = isObject(stat) ? fieldOf(stat, 'parameters') : undefined;
    const parameters = Array.isArray(recorded) ? (recorded as readonly Json[]) : [];
    const count = isObject(stat) ? fieldOf(stat, 'count') : undefined;
    const calls = Math.max(1, typeof count === 'number' && Number.isInteger(count) ? count : parameters.length);
    for (let i = 0; i < calls; i += 1) steps.push(toolCallStep({ name, arguments: parameters[i], turn }));
  }
  return steps;
}

const NAME_KEYS = ['tool_name', 'name'] as const;
const ARGUMENT_KEYS = ['parameters', 'args', 'arguments', 'input'] as const;
const WRAPPERS = ['functionCall', 'function_call', 'function'] as const;

function firstString(value: JsonObject, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const field = fieldOf(value, key);
    if (typeof field === 'string' && field !== '') return field;
  }
  return undefined;
}

function firstValue(value: JsonObject, keys: readonly string[]): Json | undefined {
  for (const key of keys) {
    const field = fieldOf(value, key);
    if (field !== undefined) return field;
  }
  return undefined;
}

/** An ISO 8601 timestamp (as EvalBench's harness events give them) in milliseconds since the epoch. */
function instant(value: Json | undefined): number | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}

function figure(value: Json | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
