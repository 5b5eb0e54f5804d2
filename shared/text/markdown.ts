/**
 * Text from a workspace (case ids, scorer names, reasons, config names, option values) put into
 * Markdown that a hover or a message renders. Two places, two rules, so there is one helper each:
 *
 * - `markdownCode`: inside a code span (`` `id` ``) nothing is an escape: a backslash shows as a
 *   backslash. The text is fenced with more backticks than its longest run of them, padded with a
 *   space when it starts or ends with a backtick; so `sale-items` shows as sale-items, not sale\-items.
 * - `markdownText`: in prose every ASCII punctuation character is backslash-escaped (CommonMark allows
 *   it for each of them), so nothing in the text becomes emphasis, a link, an autolink, HTML, an
 *   entity, a heading, a list or a table cell border.
 *
 * Both first make the text printable (shared/text/printable.ts: controls and bidi characters as
 * visible escapes) and keep it on one line, so it cannot end a table row or start a block of its own:
 * in a code span a line break shows as `\n`, in prose it becomes a space (as Markdown itself shows it).
 * Inside a table cell a `|` ends the cell even in a code span; `inTable` escapes it there (GFM reads
 * `\|` as `|` before anything else, in code spans too).
 */
import { printable } from './printable';

export interface MarkdownPlace {
  /** The text goes into a cell of a Markdown table. */
  readonly inTable?: boolean;
}

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/g;

/** `text` as a code span, shown exactly as written (after printable). */
export function markdownCode(text: string, place: MarkdownPlace = {}): string {
  // An empty span would not be one: a single space shows as nothing, the honest picture of "".
  if (text === '') return '` `';
  let body = printable(text);
  if (place.inTable === true) body = body.replace(/\|/g, '\\|');
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  // A span that starts or ends with a backtick (or with a space at both ends) needs one space of
  // padding each side, which the renderer strips again.
  const pad =
    body.startsWith('`') || body.endsWith('`') || (body.startsWith(' ') && body.endsWith(' ') && body.trim() !== '')
      ? ' '
      : '';
  return `${fence}${pad}${body}${pad}${fence}`;
}

/** `text` as prose, every character shown as written (after printable), on one line. */
export function markdownText(text: string): string {
  const oneLine = printable(text.replace(/\r\n|[\r\n]/g, ' '));
  return oneLine.replace(ASCII_PUNCTUATION, (c) => `\\${c}`);
}
