import type { Json } from '../case';
import { kind, TraceShapeError } from './fields';
import { toolCallStep } from './toolCallStep';
import type { Trace } from './trace';

/**
 * A plain list of tool names, in call order: tool-call steps with canonical names and no arguments,
 * results or figures (the list keeps none), and no turns.
 */
export function toolNameListTrace(names: readonly Json[]): Trace {
  const steps = names.map((name, index) => {
    if (typeof name !== 'string' || name === '') {
      throw new TraceShapeError(
        `trace item ${index + 1} is ${name === '' ? 'an empty string' : kind(name)}, not a tool name (the trace's first item is one)`,
      );
    }
    return toolCallStep({ name });
  });
  return { steps, hasSteps: true, turns: [], hasTurns: false, format: 'tool_names' };
}
