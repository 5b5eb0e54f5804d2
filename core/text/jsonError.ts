import { describeJsonParseError } from '../dataset/jsonSyntax';
import { LineIndex } from './position';
import { displayLineAndColumn } from '../../shared/text/displayPosition';

/**
 * A JSON.parse error said by position and kind only. V8's messages quote the text around the
 * mistake ("Unexpected token 'r', "root:*:202"… is not valid JSON"), and the file may be anything a
 * path can name (/etc/shadow): not one character of it may reach a message.
 */
export function jsonParseError(text: string, error: unknown): string {
  const { offset, what } = describeJsonParseError(text, error);
  const where = displayLineAndColumn(new LineIndex(text).position(offset));
  // The kind without the character itself: not even one character of the file is quoted.
  const kind = what.replace(/^(unexpected character) (?:'.+?'|U\+[0-9A-F]{4})(?=$| after)/u, '$1');
  return `invalid JSON at ${where}: ${kind}`;
}
