import type { Json } from '../case';
import { parseFieldPath, valueAt } from '../scorers/support/path';
import type { TargetConfig } from './targetConfig';
import { parseJson as parseJsonWithin } from '../text/jsonDepth';

/** What a target answered, read: the case's output and, when `trace_path` found one, its trace. */
export interface TargetAnswer {
  readonly output: Json;
  readonly trace?: Json;
}

/**
 * Reads a target's answer (a command's stdout, a response body). `auto` takes JSON when the whole
 * answer parses as JSON, else the text without one trailing newline. An empty answer is an error: a
 * target that answers nothing has failed, and scoring "" would hide it. Reasons never quote the answer.
 */
export function readAnswer(
  raw: string,
  config: Pick<TargetConfig, 'format' | 'outputPath' | 'tracePath'>,
): TargetAnswer {
  const text = withoutTrailingNewline(raw);
  if (text.trim() === '') throw new Error('the target answered nothing');
  const json = config.format === 'text' ? undefined : parseJson(text);
  if (config.format === 'json' && json === undefined)
    throw new Error("the target's answer is not valid JSON (format: json)");
  if (json === undefined) {
    if (config.outputPath !== undefined)
      throw new Error(`the target's answer is text, not JSON, so output_path "${config.outputPath}" selects nothing`);
    return { output: text };
  }
  const output = config.outputPath === undefined ? json.value : select(json.value, config.outputPath);
  if (output === undefined)
    throw new Error(`the target's answer has no field at output_path "${config.outputPath ?? ''}"`);
  const trace = config.tracePath === undefined ? undefined : select(json.value, config.tracePath);
  return trace === undefined ? { output } : { output, trace };
}

function withoutTrailingNewline(text: string): string {
  if (text.endsWith('\r\n')) return text.slice(0, -2);
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

function parseJson(text: string): { value: Json } | undefined {
  try {
    return { value: parseJsonWithin(text) as Json };
  } catch {
    return undefined;
  }
}

function select(value: Json, path: string): Json | undefined {
  const parsed = parseFieldPath(path);
  // The path was checked when the config loaded.
  return parsed.ok ? valueAt(value, parsed.segments) : undefined;
}
