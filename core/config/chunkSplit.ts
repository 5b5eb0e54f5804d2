/**
 * Where a run config's text can be cut into pieces that parse on their own (chunkedParse.ts): before
 * each top-level `key:` line, and, inside a block-list `scorers:`, before each of its `- ` items. Only
 * the lines are looked at here; whether each piece really parses to one pair or one item, with no
 * error, is checked on the parsed piece, and anything else sends the caller back to a whole parse.
 */
export interface TextChunk {
  readonly start: number;
  readonly text: string;
}

export interface TopLevelBlock {
  /** The whole block, or, for a split `scorers:`, its `scorers:` line and the comments before its first item. */
  readonly header: TextChunk;
  /** The items of a block-list `scorers:`, each with the comment and blank lines that follow it. */
  readonly items?: readonly TextChunk[];
}

/** A top-level key starts with one of these; any other first character at column 0 is left to a whole parse. */
const PLAIN_KEY_START = /[A-Za-z0-9_]/;
/** A `scorers:` line that can head a list of items: nothing after the colon but a comment. */
const SCORERS_LINE = /^scorers:[ ]*(?:#.*)?$/;

interface Line {
  readonly start: number;
  readonly text: string;
}

/** The top-level blocks of `text`, or undefined when the text has anything a piece-wise parse could read differently. */
export function splitTopLevel(text: string): TopLevelBlock[] | undefined {
  // CRLF line ends, a byte-order mark, tabs and document markers or directives: parse whole.
  if (text.includes('\r') || text.includes('\t') || text.charCodeAt(0) === 0xfeff) return undefined;
  const lines = linesOf(text);
  const starts: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line === undefined || isFiller(line.text) || line.text.charCodeAt(0) === 32) continue;
    const first = line.text.charAt(0);
    // A `-` item at column 0 belongs to the block above (`scorers:` then `- type: …`).
    if (first === '-' && (line.text.length === 1 || line.text.charAt(1) === ' ')) {
      if (starts.length === 0) return undefined;
      if (line.text.startsWith('---')) return undefined;
      continue;
    }
    if (!PLAIN_KEY_START.test(first)) return undefined;
    starts.push(i);
  }
  if (starts.length === 0) return undefined;
  const blocks: TopLevelBlock[] = [];
  for (let b = 0; b < starts.length; b++) {
    // The lines before the first key (comments) go with the first block.
    const from = b === 0 ? 0 : (starts[b] ?? 0);
    const to = starts[b + 1] ?? lines.length;
    const keyLine = lines[starts[b] ?? 0];
    const items =
      keyLine !== undefined && SCORERS_LINE.test(keyLine.text)
        ? splitItems(text, lines, starts[b] ?? 0, to)
        : undefined;
    if (items === undefined) {
      blocks.push({ header: chunkOf(text, lines, from, to) });
    } else {
      blocks.push({ header: chunkOf(text, lines, from, items.firstItem), items: items.chunks });
    }
  }
  return blocks;
}

/** The items of the list under the `scorers:` line at `keyLine`, up to line `to`; undefined when it is not a plain block list. */
function splitItems(
  text: string,
  lines: readonly Line[],
  keyLine: number,
  to: number,
): { firstItem: number; chunks: TextChunk[] } | undefined {
  let indent = -1;
  const itemStarts: number[] = [];
  for (let i = keyLine + 1; i < to; i++) {
    const line = lines[i];
    if (line === undefined || isFiller(line.text)) continue;
    const spaces = leadingSpaces(line.text);
    if (indent === -1) {
      if (!isItemLine(line.text, spaces)) return undefined;
      indent = spaces;
    }
    if (spaces === indent) {
      if (!isItemLine(line.text, spaces)) return undefined;
      itemStarts.push(i);
    } else if (spaces < indent) {
      return undefined;
    }
  }
  const firstItem = itemStarts[0];
  if (firstItem === undefined) return undefined;
  return { firstItem, chunks: itemStarts.map((start, n) => chunkOf(text, lines, start, itemStarts[n + 1] ?? to)) };
}

function isItemLine(text: string, spaces: number): boolean {
  return text.charAt(spaces) === '-' && (text.length === spaces + 1 || text.charAt(spaces + 1) === ' ');
}

function leadingSpaces(text: string): number {
  let n = 0;
  while (text.charCodeAt(n) === 32) n += 1;
  return n;
}

/** A blank line, or one that holds only a comment. */
function isFiller(text: string): boolean {
  const spaces = leadingSpaces(text);
  return spaces === text.length || text.charAt(spaces) === '#';
}

function linesOf(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start <= text.length) {
    const end = text.indexOf('\n', start);
    if (end === -1) {
      if (start < text.length) lines.push({ start, text: text.slice(start) });
      break;
    }
    lines.push({ start, text: text.slice(start, end) });
    start = end + 1;
  }
  return lines;
}

/** Lines [from, to) with their line breaks, as one piece. */
function chunkOf(text: string, lines: readonly Line[], from: number, to: number): TextChunk {
  const start = lines[from]?.start ?? text.length;
  const end = lines[to]?.start ?? text.length;
  return { start, text: text.slice(start, end) };
}
