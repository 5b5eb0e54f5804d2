/**
 * Text edits on a run config that keep its YAML style: add an option to a scorer entry, remove one,
 * set a top-level key. Edits are offsets into the analysed text; the caller turns them into LSP edits.
 */
import type { OutlineEntry, OutlineNode } from '../../core/config/yamlOutline';
import { entryOf, type ScorerEntryOutline } from './outlineQuery';

export interface OffsetEdit {
  readonly start: number;
  readonly end: number;
  readonly newText: string;
}

export function columnOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf('\n', offset - 1) + 1);
}

/** `name: value` added to a scorer entry's options, beside the options it has, or as its first. */
export function addOption(text: string, entry: ScorerEntryOutline, name: string, value: string): OffsetEdit {
  const options = entry.options;
  const last = options?.entries[options.entries.length - 1];
  if (options !== undefined && options.flow) {
    if (last === undefined) return { start: options.span.start, end: options.span.end, newText: `{${name}: ${value}}` };
    return { start: last.span.end, end: last.span.end, newText: `, ${name}: ${value}` };
  }
  if (options !== undefined && last !== undefined) {
    // List form: the item's keys stand at the column of its `type`; mapping form: at the first option's.
    const column = columnOf(
      text,
      (options.entries.find((e) => e.key !== 'type') ?? options.entries[0] ?? last).keySpan.start,
    );
    return { start: last.span.end, end: last.span.end, newText: `\n${' '.repeat(column)}${name}: ${value}` };
  }
  // Mapping form with no options yet (`key:`, `key: null`, `key: {}`): they go on the lines below.
  const colon = text.indexOf(':', entry.keySpan.end);
  const column = columnOf(text, entry.keySpan.start);
  return {
    start: colon + 1,
    end: Math.max(colon + 1, entry.span.end),
    newText: `\n${' '.repeat(column + 2)}${name}: ${value}`,
  };
}

/** Removes one option of a scorer entry, with its line when it has one to itself. */
export function removeOption(text: string, entry: ScorerEntryOutline, name: string): OffsetEdit | undefined {
  const options = entry.options;
  if (options === undefined) return undefined;
  const index = options.entries.findIndex((e) => e.key === name);
  const option = options.entries[index];
  if (option === undefined) return undefined;
  const next = options.entries[index + 1];
  const previous = options.entries[index - 1];
  if (options.flow) {
    if (next !== undefined) return { start: option.span.start, end: next.keySpan.start, newText: '' };
    return { start: previous?.span.end ?? option.span.start, end: option.span.end, newText: '' };
  }
  const lineStart = text.lastIndexOf('\n', option.keySpan.start - 1) + 1;
  const ownsLine = text.slice(lineStart, option.keySpan.start).trim() === '';
  if (!ownsLine) {
    // The first key of a list item shares the `- ` line: the next key moves up onto it.
    return next === undefined ? undefined : { start: option.keySpan.start, end: next.keySpan.start, newText: '' };
  }
  const lineEnd = text.indexOf('\n', option.span.end);
  return { start: lineStart, end: lineEnd === -1 ? text.length : lineEnd + 1, newText: '' };
}

/** Sets a top-level key: its value replaced when present, else a line added before `before` (or at the end). */
export function setTopLevel(
  text: string,
  root: OutlineNode | undefined,
  key: string,
  value: string,
  before: string,
): OffsetEdit {
  const existing: OutlineEntry | undefined = entryOf(root, key);
  if (existing !== undefined) {
    const colon = text.indexOf(':', existing.keySpan.end);
    return { start: colon + 1, end: Math.max(colon + 1, existing.span.end), newText: ` ${value}` };
  }
  const anchor = entryOf(root, before);
  if (anchor !== undefined) {
    const lineStart = text.lastIndexOf('\n', anchor.keySpan.start - 1) + 1;
    return { start: lineStart, end: lineStart, newText: `${key}: ${value}\n` };
  }
  const needsBreak = text.length > 0 && !text.endsWith('\n');
  return { start: text.length, end: text.length, newText: `${needsBreak ? '\n' : ''}${key}: ${value}\n` };
}
