/**
 * The refactoring between the two forms of `scorers:`: a mapping keyed by scorer (EvalBench style)
 * and a list of `- type: <key>` entries (EvalCore style). Options keep their text; the entries are
 * re-indented. A list with two entries of one scorer has no mapping form and is not offered one.
 * Comments go along: those between entries and options (and after a key, as `contains:  # why`)
 * are kept as comment lines before what followed them, at its new indentation; a refactoring must
 * not lose what the person wrote.
 */
import type { OutlineEntry, OutlineNode } from '../../core/config/yamlOutline';
import { entryOf } from './outlineQuery';
import { columnOf, type OffsetEdit } from './yamlEdits';

export interface FormChange {
  readonly title: string;
  readonly edit: OffsetEdit;
}

export function scorersFormChange(text: string, root: OutlineNode | undefined): FormChange | undefined {
  const scorers = entryOf(root, 'scorers');
  const value = scorers?.value;
  if (scorers === undefined || value === undefined) return undefined;
  const colon = text.indexOf(':', scorers.keySpan.end);
  const column =
    value.kind !== 'scalar' && value.flow
      ? columnOf(text, scorers.keySpan.start) + 2
      : columnOf(text, value.span.start);
  const replace = (lines: string[]): OffsetEdit => ({
    start: colon + 1,
    end: value.span.end,
    newText: `\n${lines.join('\n')}`,
  });
  const comments = new CommentCursor(text, colon + 1);
  const withTail = (lines: string[] | undefined): string[] | undefined =>
    lines === undefined ? undefined : [...lines, ...comments.upTo(value.span.end, column)];
  if (value.kind === 'map') {
    const lines = withTail(toListLines(text, value.entries, column, comments));
    return lines === undefined
      ? undefined
      : { title: 'Convert scorers to the list form (- type: …)', edit: replace(lines) };
  }
  if (value.kind === 'seq') {
    const lines = withTail(toMappingLines(text, value.items, column, comments));
    return lines === undefined
      ? undefined
      : { title: 'Convert scorers to the mapping form (key: options)', edit: replace(lines) };
  }
  return undefined;
}

/** A pair's text at a new column, its continuation lines moved by as much as its first line. */
function pairAt(text: string, pair: OutlineEntry, column: number): string {
  const from = columnOf(text, pair.keySpan.start);
  const [first = '', ...rest] = text.slice(pair.span.start, pair.span.end).split('\n');
  const moved = rest.map((line) => {
    const blanks = line.length - line.trimStart().length;
    return line.trim() === '' ? '' : ' '.repeat(Math.max(0, column + blanks - from)) + line.trimStart();
  });
  return [`${' '.repeat(column)}${first}`, ...moved].join('\n');
}

/**
 * The comments of the text between nodes, read once each in document order. Between two nodes there
 * are only indicators (`:`, `-`, `,`, brackets) and whitespace, so a `#` after a blank or at a line's
 * start begins a comment there.
 */
class CommentCursor {
  constructor(
    private readonly text: string,
    private at: number,
  ) {}

  /** The comment lines between the cursor and `end`, indented at `column`; the cursor moves to `end`. */
  upTo(end: number, column: number): string[] {
    const gap = end > this.at ? this.text.slice(this.at, end) : '';
    this.at = Math.max(this.at, end);
    const lines: string[] = [];
    for (const line of gap.split('\n')) {
      const comment = /(?:^|\s)(#.*)$/.exec(line)?.[1];
      if (comment !== undefined) lines.push(`${' '.repeat(column)}${comment.trimEnd()}`);
    }
    return lines;
  }

  skipTo(end: number): void {
    this.at = Math.max(this.at, end);
  }

  /** A comment on the rest of the cursor's line (`key:  # why`), as ` # why`, the cursor past it; else ''. */
  restOfLine(): string {
    const lineEnd = this.text.indexOf('\n', this.at);
    const rest = this.text.slice(this.at, lineEnd === -1 ? this.text.length : lineEnd);
    const comment = /^[\s:,{}[\]-]*?(?:^|\s)(#.*)$/.exec(rest)?.[1];
    if (comment === undefined) return '';
    this.at = lineEnd === -1 ? this.text.length : lineEnd;
    return `  ${comment.trimEnd()}`;
  }
}

function toListLines(
  text: string,
  entries: readonly OutlineEntry[],
  column: number,
  comments: CommentCursor,
): string[] | undefined {
  const lines: string[] = [];
  for (const entry of entries) {
    const options = entry.value;
    const empty = options === undefined || (options.kind === 'scalar' && options.value === null);
    if (!empty && options.kind !== 'map') return undefined;
    lines.push(...comments.upTo(entry.span.start, column));
    comments.skipTo(empty ? entry.span.end : entry.keySpan.end);
    lines.push(`${' '.repeat(column)}- type: ${entry.key}${comments.restOfLine()}`);
    if (options?.kind === 'map') {
      for (const option of options.entries) {
        lines.push(...comments.upTo(option.span.start, column + 2));
        lines.push(pairAt(text, option, column + 2));
        comments.skipTo(option.span.end);
      }
    }
  }
  return lines;
}

function toMappingLines(
  text: string,
  items: readonly OutlineNode[],
  column: number,
  comments: CommentCursor,
): string[] | undefined {
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    if (item.kind !== 'map') return undefined;
    const type = entryOf(item, 'type')?.value;
    if (type?.kind !== 'scalar' || typeof type.value !== 'string' || seen.has(type.value)) return undefined;
    seen.add(type.value);
    lines.push(...comments.upTo(item.span.start, column));
    const options = item.entries.filter((e) => e.key !== 'type');
    const keyLine = lines.push(`${' '.repeat(column)}${type.value}:${options.length === 0 ? ' {}' : ''}`) - 1;
    for (const entry of item.entries) {
      lines.push(...comments.upTo(entry.span.start, column + 2));
      comments.skipTo(entry.span.end);
      if (entry.key !== 'type') lines.push(pairAt(text, entry, column + 2));
      else lines[keyLine] += comments.restOfLine();
    }
  }
  return lines;
}
