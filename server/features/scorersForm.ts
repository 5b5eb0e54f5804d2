/**
 * The refactoring between the two forms of `scorers:`: a mapping keyed by scorer (EvalBench style)
 * and a list of `- type: <key>` entries (EvalCore style). Options keep their text; the entries are
 * re-indented. A list with two entries of one scorer has no mapping form and is not offered one.
 * Comment lines between entries are not carried over.
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
  const column = value.kind !== 'scalar' && value.flow ? columnOf(text, scorers.keySpan.start) + 2 : columnOf(text, value.span.start);
  const replace = (lines: string[]): OffsetEdit => ({ start: colon + 1, end: value.span.end, newText: `\n${lines.join('\n')}` });
  if (value.kind === 'map') {
    const lines = toListLines(text, value.entries, column);
    return lines === undefined ? undefined : { title: 'Convert scorers to the list form (- type: …)', edit: replace(lines) };
  }
  if (value.kind === 'seq') {
    const lines = toMappingLines(text, value.items, column);
    return lines === undefined ? undefined : { title: 'Convert scorers to the mapping form (key: options)', edit: replace(lines) };
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

function toListLines(text: string, entries: readonly OutlineEntry[], column: number): string[] | undefined {
  const lines: string[] = [];
  for (const entry of entries) {
    const options = entry.value;
    const empty = options === undefined || (options.kind === 'scalar' && options.value === null);
    if (!empty && options.kind !== 'map') return undefined;
    lines.push(`${' '.repeat(column)}- type: ${entry.key}`);
    if (options?.kind === 'map') for (const option of options.entries) lines.push(pairAt(text, option, column + 2));
  }
  return lines;
}

function toMappingLines(text: string, items: readonly OutlineNode[], column: number): string[] | undefined {
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    if (item.kind !== 'map') return undefined;
    const type = entryOf(item, 'type')?.value;
    if (type?.kind !== 'scalar' || typeof type.value !== 'string' || seen.has(type.value)) return undefined;
    seen.add(type.value);
    const options = item.entries.filter((e) => e.key !== 'type');
    if (options.length === 0) {
      lines.push(`${' '.repeat(column)}${type.value}: {}`);
      continue;
    }
    lines.push(`${' '.repeat(column)}${type.value}:`);
    for (const option of options) lines.push(pairAt(text, option, column + 2));
  }
  return lines;
}
