/**
 * Where the cursor is in a run config, read from the text around it rather than from a parse: while a
 * person types, the YAML is often incomplete (`  reg` under `scorers:`, an empty line under a scorer
 * key, `mode: ` with no value yet), and indentation alone says which mapping the cursor writes into.
 * Only the lines of the enclosing blocks are read, so it costs little on a long config.
 */
import type { PathSegment } from './outlineQuery';

/** Stands for "an item of this list" in a path (its index does not matter for the schema). */
export const LIST_ITEM = -1;

export interface CursorContext {
  /** The mapping (or list item) the cursor writes into: keys, and LIST_ITEM for a list item. */
  readonly path: readonly PathSegment[];
  /** A key being written, or the value of `key`. */
  readonly position: 'key' | 'value';
  /** The key whose value is being written. */
  readonly key?: string;
  /** The line starts a list item (`- …`): a key of an item mapping, or a scalar item. */
  readonly listItemLine: boolean;
  /** What is typed so far, and its start offset: completions replace it. */
  readonly partial: string;
  readonly partialStart: number;
  /** Column of the keys of the mapping being written. */
  readonly indent: number;
  /** Keys already written in that mapping, each with its value text (a list item's `type`, say). */
  readonly siblings: ReadonlyMap<string, string>;
}

interface LineShape {
  readonly indent: number;
  /** Column of the first dash of `- ` (undefined when the line is not a list item). */
  readonly dash?: number;
  /** Column of what follows the indentation and dashes. */
  readonly content: number;
  readonly rest: string;
}

const KEY_LINE = /^([^\s#'"{[\]},:-][^:#]*?|"[^"]*"|'[^']*')[ \t]*:(?:[ \t]+(.*))?$/;

function shape(line: string): LineShape | undefined {
  const indent = line.length - line.trimStart().length;
  let content = indent;
  let dash: number | undefined;
  while (line.startsWith('- ', content) || (line.startsWith('-', content) && content + 1 === line.length)) {
    dash ??= content;
    content += 2;
    while (line.charAt(content) === ' ') content += 1;
  }
  const rest = line.slice(Math.min(content, line.length)).replace(/\s+$/, '');
  if (rest === '' && dash === undefined) return undefined;
  if (rest.startsWith('#')) return undefined;
  return { indent, content: Math.min(content, line.length), rest, ...(dash === undefined ? {} : { dash }) };
}

function keyOf(rest: string): { key: string; value: string } | undefined {
  const match = KEY_LINE.exec(rest);
  if (match === null) return undefined;
  const key = (match[1] ?? '').replace(/^["']|["']$/g, '');
  return { key, value: (match[2] ?? '').replace(/\s+#.*$/, '').trim() };
}

export function cursorContext(text: string, offset: number): CursorContext | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const prefix = text.slice(lineStart, offset);
  if (prefix.includes('#') || prefix.includes('{') || prefix.includes('[')) return undefined;
  const current = shape(prefix) ?? { indent: prefix.length, content: prefix.length, rest: '' };
  const listItemLine = current.dash !== undefined;
  // The typed text as it is: `mode: ` with its trailing blank is a value about to be written.
  const typed = prefix.slice(current.content);
  let position: 'key' | 'value';
  let key: string | undefined;
  let partial: string;
  const valueMatch = /^([^:#]+?)[ \t]*:[ \t]+(.*)$/.exec(typed);
  if (valueMatch !== null) {
    position = 'value';
    key = (valueMatch[1] ?? '').replace(/^["']|["']$/g, '');
    partial = (valueMatch[2] ?? '').replace(/^["']/, '');
  } else if (/^[\w.\-/]*$/.test(typed)) {
    position = 'key';
    partial = typed;
  } else {
    return undefined;
  }
  const lines = text.split('\n');
  const cursorLine = text.slice(0, lineStart).split('\n').length - 1;
  const siblings = new Map<string, string>();
  const path: PathSegment[] = [];
  let want = current.content;
  if (listItemLine) {
    path.push(LIST_ITEM);
    want = current.dash ?? want;
  }
  collectBelow(lines, cursorLine, current.content, siblings);
  let collecting = !listItemLine;
  for (let i = cursorLine - 1; i >= 0 && (want > 0 || collecting); i--) {
    const line = shape(lines[i] ?? '');
    if (line === undefined) continue;
    if (line.dash !== undefined && line.content <= want && line.dash < want) {
      // The first line of the list item the cursor is in: its key belongs with ours.
      if (collecting && line.content === want) addSibling(siblings, line.rest);
      path.push(LIST_ITEM);
      want = line.dash;
      collecting = false;
      continue;
    }
    if (line.content === want && collecting) {
      addSibling(siblings, line.rest);
      continue;
    }
    if (line.content < want) {
      const parent = keyOf(line.rest);
      if (parent === undefined || parent.value !== '') return undefined;
      path.push(parent.key);
      want = line.dash ?? line.content;
      if (line.dash !== undefined) path.push(LIST_ITEM);
      collecting = false;
    }
  }
  path.reverse();
  return {
    path,
    position,
    ...(key === undefined ? {} : { key }),
    listItemLine,
    partial,
    partialStart: offset - partial.length,
    indent: current.content,
    siblings,
  };
}

function addSibling(siblings: Map<string, string>, rest: string): void {
  const found = keyOf(rest);
  if (found !== undefined && !siblings.has(found.key)) siblings.set(found.key, found.value);
}

/** Keys of the same mapping below the cursor line, up to the first line that leaves it. */
function collectBelow(
  lines: readonly string[],
  cursorLine: number,
  column: number,
  siblings: Map<string, string>,
): void {
  for (let i = cursorLine + 1; i < lines.length; i++) {
    const line = shape(lines[i] ?? '');
    if (line === undefined) continue;
    if (line.indent < column || (line.dash !== undefined && line.dash < column)) return;
    if (line.content === column && line.dash === undefined) addSibling(siblings, line.rest);
  }
}
