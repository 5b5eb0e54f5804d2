import { describeJsonParseError } from '../dataset/jsonSyntax';

/**
 * A JSON.parse error said by position and kind only. V8's messages quote the text around the
 * mistake ("Unexpected token 'r', "root:*:202"… is not valid JSON"), and the file may be anything a
 * path can name (/etc/shadow): not one character of it may reach a message.
 */
export function jsonParseError(text: string, error: unknown): string {
  const { offset, what } = describeJsonParseError(text, error);
  const { line, column } = lineAndColumn(text, offset);
  // The kind without the character itself: not even one character of the file is quoted.
  const kind = what.replace(/^(unexpected character) (?:'.+?'|U\+[0-9A-F]{4})(?=$| after)/u, '$1');
  return `invalid JSON at line ${line}, column ${column}: ${kind}`;
}

/** 1-based line and column of an offset, as a person reads them. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
