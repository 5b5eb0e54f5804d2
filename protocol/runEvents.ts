/**
 * The run event stream on the wire: one JSON object per line (JSON Lines). The runner writes it
 * (`evallens --reporter=jsonl`); the extension reads it from the child's stdout. Only framing lives
 * here; the event types are core's.
 */
import type { RunEvent } from '../core/runner/events';

export type {
  CaseEndEvent,
  CaseStartEvent,
  CaseStatus,
  ResultEvent,
  RunEndEvent,
  RunEvent,
  RunStartEvent,
  RunSummary,
  ScorerInfo,
} from '../core/runner/events';

/** The `type`s a decoder accepts; anything else in the stream is an error, not an event. */
export const RUN_EVENT_TYPES: readonly RunEvent['type'][] = ['run/start', 'case/start', 'result', 'case/end', 'run/end'];

/** One event as one line, newline included. JSON.stringify escapes newlines inside strings. */
export function encodeEvent(event: RunEvent): string {
  return `${JSON.stringify(event)}\n`;
}

/** What a decoder carries between chunks: the unfinished last line and the count of lines seen. */
export interface DecodeState {
  buffer: string;
  line: number;
  /** Decodes byte chunks; keeps a UTF-8 sequence split across two chunks whole. */
  readonly bytes: TextDecoder;
}

export function createDecodeState(): DecodeState {
  return { buffer: '', line: 0, bytes: new TextDecoder('utf-8') };
}

/** A line of the stream that is not a run event. Says which line and why, never its text (payloads stay out of errors). */
export class RunEventDecodeError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`run event stream, line ${line}: expected a JSON run event object, ${reason}`);
    this.name = 'RunEventDecodeError';
  }
}

/**
 * Feeds one chunk (text, or bytes as read from a stream) and returns the events of the lines it
 * completed, in order. A partial last line waits in `state` for the next chunk; call
 * `finishEvents` when the stream ends. Blank lines are skipped; `\r\n` endings are accepted.
 * A line that is not a run event throws RunEventDecodeError; the stream is broken from there on.
 */
export function decodeEvents(chunk: string | Uint8Array, state: DecodeState): RunEvent[] {
  const text = typeof chunk === 'string' ? chunk : state.bytes.decode(chunk, { stream: true });
  const lines = (state.buffer + text).split('\n');
  state.buffer = lines.pop() ?? '';
  const events: RunEvent[] = [];
  for (const line of lines) {
    state.line += 1;
    const event = parseLine(line, state.line);
    if (event !== undefined) events.push(event);
  }
  return events;
}

/** Ends the stream: returns the event of an unterminated last line, if any. */
export function finishEvents(state: DecodeState): RunEvent[] {
  const rest = state.buffer + state.bytes.decode();
  state.buffer = '';
  if (rest.trim() === '') return [];
  state.line += 1;
  const event = parseLine(rest, state.line);
  return event === undefined ? [] : [event];
}

function parseLine(raw: string, lineNumber: number): RunEvent | undefined {
  const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (line.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new RunEventDecodeError(lineNumber, `saw text that is not valid JSON (${line.length} characters)`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RunEventDecodeError(lineNumber, `saw ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}`);
  }
  const type: unknown = (value as { type?: unknown }).type;
  if (typeof type !== 'string' || !(RUN_EVENT_TYPES as readonly string[]).includes(type)) {
    const seen = typeof type === 'string' ? `an unknown type "${type.slice(0, 40)}"` : 'no string `type`';
    throw new RunEventDecodeError(lineNumber, `saw an object with ${seen} (expected one of ${RUN_EVENT_TYPES.join(', ')})`);
  }
  // The runner and the reader are built from the same core types; the type tag is the contract checked here.
  return value as RunEvent;
}
