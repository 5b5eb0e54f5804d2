import type { Json } from '../case';
import { defined, parsedJson } from './fields';
import type { ToolCallStep } from './trace';
import { canonicalToolCall } from './toolNames';

/** A tool call as a recording gives it, before its name is made canonical. */
export interface RecordedCall {
  readonly name: string;
  /** Absent when the recording did not keep the arguments (never replaced by `{}`). */
  readonly arguments?: Json | undefined;
  readonly result?: Json | undefined;
  readonly error?: string | undefined;
  readonly startMs?: number | undefined;
  readonly endMs?: number | undefined;
  readonly durationMs?: number | undefined;
  readonly turn?: number | undefined;
  readonly id?: string | undefined;
}

/**
 * The step of one recorded call: its canonical name (`recordedName` keeps the recorded one when it
 * differs), and for an agy `call_mcp_tool` the MCP tool's own arguments. The duration is the recorded
 * one, else end minus start when both are recorded.
 */
export function toolCallStep(call: RecordedCall): ToolCallStep {
  const canonical = canonicalToolCall(call.name, call.arguments);
  const durationMs =
    call.durationMs ?? (call.startMs !== undefined && call.endMs !== undefined ? call.endMs - call.startMs : undefined);
  return defined<ToolCallStep>({
    kind: 'tool_call',
    name: canonical.name,
    recordedName: canonical.name === call.name ? undefined : call.name,
    arguments: canonical.arguments,
    result: call.result,
    error: call.error,
    startMs: call.startMs,
    endMs: call.endMs,
    durationMs,
    turn: call.turn,
    id: call.id,
  });
}

/**
 * Arguments recorded as JSON text (OpenAI's `function.arguments`, some harness logs) become the value
 * the text holds. Text that is not JSON is kept as the string it is: the recording did keep arguments,
 * so they are not "absent", and a scorer that compares them sees a string and can say so.
 */
export function decodedArguments(value: Json | undefined): Json | undefined {
  if (typeof value !== 'string') return value;
  const decoded = parsedJson(value);
  return decoded === undefined ? value : decoded;
}
