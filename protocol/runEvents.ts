/**
 * The run event stream on the wire: one JSON object per line (JSON Lines). The runner writes it
 * (`evallens --reporter=jsonl`); the extension reads it from the child's stdout. Only framing lives
 * here; the event types are core's.
 */
import type { RunEvent } from '../core/runner/events';
import { LineDecoder, type DecodedLine } from './lineDecoder';

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
export const RUN_EVENT_TYPES: readonly RunEvent['type'][] = [
  'run/start',
  'case/start',
  'result',
  'case/end',
  'run/end',
];

/** One event as one line, newline included. JSON.stringify escapes newlines inside strings. */
export function encodeEvent(event: RunEvent): string {
  return `${JSON.stringify(event)}\n`;
}

/**
 * The longest event line a decoder takes, in characters. A result's `details` keeps at most a prefix
 * of each long text (core/runner/detailsCap.ts), so real events stay far below it; a longer line is
 * skipped (`state.overLong`) and decoding goes on with the next line.
 */
export const MAX_EVENT_LINE_CHARS = 32 * 1024 * 1024;

/** A line of the stream that was longer than the cap: skipped, never held whole. */
export interface OverLongLine {
  readonly line: number;
  readonly length: number;
}

/** What a decoder carries between chunks: the unfinished last line, and the over-long lines skipped so far. */
export interface DecodeState {
  readonly lines: LineDecoder;
  /** Over-long lines skipped since the caller last emptied this list. */
  readonly overLong: OverLongLine[];
}

export function createDecodeState(maxLineChars = MAX_EVENT_LINE_CHARS): DecodeState {
  return { lines: new LineDecoder(maxLineChars), overLong: [] };
}

/** What a person reads about a skipped over-long line: which line, how long, and the cap. */
export function overLongMessage({ line, length }: OverLongLine, maxLineChars = MAX_EVENT_LINE_CHARS): string {
  return `run event stream, line ${line}: skipped an event of ${length} characters, longer than the limit of ${maxLineChars}; the events after it are read`;
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
 * Work is linear in the stream (protocol/lineDecoder.ts). A line over the cap is skipped and
 * recorded in `state.overLong`. A line that is not a run event throws RunEventDecodeError; the stream
 * is broken from there on.
 */
export function decodeEvents(chunk: string | Uint8Array, state: DecodeState): RunEvent[] {
  return eventsOf(state.lines.push(chunk), state);
}

/** Ends the stream: returns the event of an unterminated last line, if any. */
export function finishEvents(state: DecodeState): RunEvent[] {
  return eventsOf(state.lines.end(), state);
}

function eventsOf(lines: readonly DecodedLine[], state: DecodeState): RunEvent[] {
  const events: RunEvent[] = [];
  for (const decoded of lines) {
    if (decoded.kind === 'tooLong') {
      state.overLong.push({ line: decoded.line, length: decoded.length });
      continue;
    }
    const event = parseLine(decoded.text, decoded.line);
    if (event !== undefined) events.push(event);
  }
  return events;
}

function parseLine(line: string, lineNumber: number): RunEvent | undefined {
  if (line.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new RunEventDecodeError(lineNumber, `saw text that is not valid JSON (${line.length} characters)`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RunEventDecodeError(
      lineNumber,
      `saw ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}`,
    );
  }
  const type: unknown = (value as { type?: unknown }).type;
  if (typeof type !== 'string' || !(RUN_EVENT_TYPES as readonly string[]).includes(type)) {
    const seen = typeof type === 'string' ? `an unknown type "${type.slice(0, 40)}"` : 'no string `type`';
    throw new RunEventDecodeError(
      lineNumber,
      `saw an object with ${seen} (expected one of ${RUN_EVENT_TYPES.join(', ')})`,
    );
  }
  // The runner and the reader are built from the same core types; the type tag is the contract checked here.
  return value as RunEvent;
}
