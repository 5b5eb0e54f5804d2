import type { EvalCase, Json } from '../../../case';
import { traceOf } from '../../../trace/traceOf';
import { toolCalls, type ToolCallStep, type TraceStep } from '../../../trace/trace';
import { promptText } from './judgeSupport';
import { isObject } from '../../../../shared/isObject';

/**
 * How an agent case is shown to a judge. The goal is the scenario's `conversation_plan` (an agent
 * evalset keeps it in the case's metadata), else the case's `input`. The conversation is the trace's
 * messages in order, with every tool call (name, arguments, result or error) between them when
 * `include_tool_calls` is on; a case whose trace holds no messages is shown as its input and output.
 */
export function goalOf(evalCase: EvalCase): string | undefined {
  const plan = field(evalCase.metadata, 'conversation_plan');
  if (plan !== undefined && plan !== null && plan !== '') return promptText(plan);
  return evalCase.input === undefined ? undefined : promptText(evalCase.input);
}

export function conversationOf(
  evalCase: EvalCase,
  output: Json | undefined,
  includeToolCalls: boolean,
): string | undefined {
  const lookup = traceOf(evalCase);
  const steps = lookup.ok ? lookup.trace.steps : [];
  const shown = steps.filter((s) => s.kind === 'message' || (includeToolCalls && s.kind === 'tool_call'));
  const lines: string[] = [];
  if (!steps.some((s) => s.kind === 'message')) {
    if (evalCase.input !== undefined) lines.push(`user: ${promptText(evalCase.input)}`);
    if (includeToolCalls) lines.push(...shown.map(stepLine));
    if (output !== undefined) lines.push(`assistant: ${promptText(output)}`);
  } else {
    lines.push(...shown.map(stepLine));
  }
  return lines.length === 0 ? undefined : lines.join('\n');
}

/** The trace's tool calls as prompt text, one per line, and how many of them kept their arguments. */
export function toolCallsOf(
  evalCase: EvalCase,
): { readonly text: string; readonly calls: number; readonly withArguments: number } | { readonly reason: string } {
  const lookup = traceOf(evalCase);
  if (!lookup.ok) return { reason: lookup.reason };
  const calls = toolCalls(lookup.trace);
  return {
    text: calls.map((c, i) => `${i + 1}. ${callLine(c)}`).join('\n'),
    calls: calls.length,
    withArguments: calls.filter((c) => c.arguments !== undefined).length,
  };
}

function stepLine(step: TraceStep): string {
  if (step.kind === 'message') return `${step.role}: ${promptText(step.content)}`;
  if (step.kind === 'tool_call') return `[tool call] ${callLine(step)}`;
  return '';
}

function callLine(call: ToolCallStep): string {
  const args = call.arguments === undefined ? '(arguments not recorded)' : JSON.stringify(call.arguments);
  const outcome =
    call.error !== undefined
      ? ` → error: ${call.error}`
      : call.result !== undefined
        ? ` → ${JSON.stringify(call.result)}`
        : '';
  return `${call.name}(${args})${outcome}`;
}

function field(value: Json | undefined, key: string): Json | undefined {
  return isObject(value) ? value[key] : undefined;
}
