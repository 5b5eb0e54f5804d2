import type { ParseError } from 'jsonc-parser';

/** Where a JSON text stops being valid, and what was wrong there (without quoting the text). */
export interface JsonSyntaxProblem {
  /** UTF-16 offset in the text. */
  readonly offset: number;
  /** "expected ',' or '}' after property value", "unexpected character '}'", … */
  readonly what: string;
}

/** V8's position suffix (Node 22 adds the line and column). */
const POSITION = / at position (\d+)(?: \(line \d+ column \d+\))?$/;

/**
 * Reads V8's `JSON.parse` SyntaxError for `text`. Most messages end with "at position N" and
 * name no text. An unexpected token has no position and quotes the text, so that message is not
 * used: the position is found with jsonc-parser's scanner (else 0) and only its character is named.
 */
export function describeJsonParseError(text: string, error: unknown): JsonSyntaxProblem {
  const message = error instanceof Error ? error.message : String(error);
  if (message.startsWith('Unexpected end of JSON input')) return endsEarly(text);
  const match = POSITION.exec(message);
  if (match?.[1] === undefined) {
    const offset = firstErrorOffset(text);
    return offset >= text.length
      ? endsEarly(text)
      : { offset, what: `unexpected character ${characterAt(text, offset)}` };
  }
  const offset = Number(match[1]);
  if (message.startsWith('Unexpected non-whitespace character after JSON')) {
    return { offset, what: `unexpected character ${characterAt(text, offset)} after the end of the JSON value` };
  }
  // "Expected ':' after property name", "Unterminated string", "Bad control character in string
  // literal", "No number after minus sign", …
  const plain = message.slice(0, match.index).replace(/ in JSON$/, '');
  return { offset, what: plain.charAt(0).toLowerCase() + plain.slice(1) };
}

/** One character of the text, quoted, for a message: only the token, never more. */
export function characterAt(text: string, offset: number): string {
  const code = text.codePointAt(offset);
  if (code === undefined) return 'end of text';
  return code < 0x20 || code === 0x7f
    ? `U+${code.toString(16).toUpperCase().padStart(4, '0')}`
    : `'${String.fromCodePoint(code)}'`;
}

function endsEarly(text: string): JsonSyntaxProblem {
  return { offset: text.length, what: 'the JSON value ends too early' };
}

function firstErrorOffset(text: string): number {
  const errors: ParseError[] = [];
  // Loaded when a text fails to parse, not at start-up: most commands never need it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { parse: parseTolerant } = require('jsonc-parser') as typeof import('jsonc-parser');
  parseTolerant(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  return errors[0]?.offset ?? 0;
}
