/**
 * The top of a large run config, analysed on its own before the whole of it, so that an editor shows
 * the problems a person can see at once (the language server publishes them first, then the complete
 * set). The part is every top-level block (all small) and the scorer entries of a block-list
 * `scorers:` that start within the first VISIBLE_LINES lines; its document is built from those pieces
 * (chunkedParse.ts), so its nodes carry the whole text's offsets and its problems the whole text's
 * ranges.
 *
 * The rule: a problem this part's analysis reports is shown only when the analysis of the whole text
 * is certain to report it too, identical. What the entries left out could change:
 * - A YAML error or an alias problem anywhere makes the whole analysis report only those: every
 *   left-out entry must be plain block YAML that parses without one (`isPlainItem`, a conservative
 *   check by lines; anything it does not know means no part).
 * - `${VAR}` expansion masks, in every message, the values it brought in from anywhere: a text with
 *   `${` has no part.
 * - Checks across the whole list: a duplicate scorer name is reported at the later entry (an entry
 *   within the part is compared with the ones before it only, which the part has); whether
 *   `pass_criteria` tests a job score depends on every entry (`pass-criteria-unused` is never shown
 *   from a part); "no scorers" cannot arise (the part has at least one entry).
 * - EvalBench configs read their scorer list as a whole (acceptEvalbenchScorers): the caller shows a
 *   part of an EvalLens config only.
 * - Problems at ranges past the part (later top-level blocks) are left to the whole analysis.
 * test/core/config/visiblePart.test.ts checks the rule on every fixture and on mutated configs, cut at
 * many lines.
 */
import type { Problem } from '../problem';
import { splitTopLevel, type TextChunk, type TopLevelBlock } from './chunkSplit';
import { YamlChunkCache, type ComposedDocument, type YamlParseOptions } from './chunkedParse';

/**
 * The lines an editor shows of a file just opened, generously: a full-height window on a tall or
 * portrait monitor at a small font shows ~100-140 lines. Entries that start within them are in the part.
 */
export const VISIBLE_LINES = 150;
/** A config of at most this many lines is analysed whole at once (~10% of the 5,000-line one's time). */
export const MIN_PART_LINES = 400;

export interface PartLimits {
  readonly minLines: number;
  readonly visibleLines: number;
}

export interface VisiblePart {
  /** The offset where the part ends: the start of the first scorer entry left out. */
  readonly end: number;
  /** Pass to YamlSource: its `compose` gives the part's document. */
  readonly chunks: PartChunks;
}

/** The visible part of `text`, or undefined when the text is small or the part could mislead (see above). */
export function visiblePartOf(
  text: string,
  limits: PartLimits = { minLines: MIN_PART_LINES, visibleLines: VISIBLE_LINES },
): VisiblePart | undefined {
  const visibleEnd = offsetOfLine(text, limits.visibleLines);
  if (visibleEnd === undefined || offsetOfLine(text, limits.minLines) === undefined) return undefined;
  if (text.includes('${')) return undefined;
  const blocks = splitTopLevel(text);
  if (blocks === undefined) return undefined;
  const lists = blocks.filter((block) => block.items !== undefined);
  const list = lists[0];
  if (lists.length !== 1 || list?.items === undefined) return undefined;
  const kept = list.items.filter((item) => item.start < visibleEnd);
  const rest = list.items.slice(kept.length);
  const firstLeftOut = rest[0];
  if (kept.length === 0 || firstLeftOut === undefined) return undefined;
  const indent = leadingSpaces(firstLeftOut.text);
  if (!rest.every((item) => isPlainItem(item, indent))) return undefined;
  const partBlocks = blocks.map((block) => (block === list ? { header: block.header, items: kept } : block));
  return { end: firstLeftOut.start, chunks: new PartChunks(partBlocks) };
}

/** The problems of a part's analysis that the whole text's analysis is certain to report as well. */
export function certainProblems(problems: readonly Problem[], part: VisiblePart): Problem[] {
  return problems.filter(
    (p) => p.code !== 'pass-criteria-unused' && p.range.start.offset < part.end && p.range.end.offset <= part.end,
  );
}

/** A piece cache whose `compose` ignores the text it is given and builds the part's document. */
export class PartChunks extends YamlChunkCache {
  /** Whether a YamlSource built its document here (it parses the whole text when flow nesting is too deep). */
  used = false;

  constructor(private readonly blocks: readonly TopLevelBlock[]) {
    super();
  }

  override compose(text: string, options: YamlParseOptions): ComposedDocument | undefined {
    this.used = true;
    return this.composeBlocks(text, this.blocks, options);
  }
}

/** The offset where line `line` (0-based) starts, or undefined when the text has no such line. */
function offsetOfLine(text: string, line: number): number | undefined {
  let at = 0;
  for (let n = 0; n < line; n++) {
    const next = text.indexOf('\n', at);
    if (next === -1 || next + 1 >= text.length) return undefined;
    at = next + 1;
  }
  return at;
}

// What a left-out entry may hold, line by line: `key:`, `key: value`, `- value`, `- key: value`, with
// values that are plain words, simple quoted strings, or one-level flow lists and mappings of them.
const KEY = '[A-Za-z_][A-Za-z0-9_]*';
const PLAIN = '(?:[A-Za-z0-9_./]|-(?=[0-9.]))[A-Za-z0-9_./+-]*(?: +[A-Za-z0-9_./+-]+)*';
const DOUBLE = '"(?:[ !#-\\[\\]-~]|\\\\[\\\\"/nt0abefrv ])*"';
const SINGLE = "'(?:[ -&(-~]|'')*'";
const WORD = `(?:[A-Za-z0-9_./](?:[A-Za-z0-9_./+-]| (?=[A-Za-z0-9_./+-]))*|${DOUBLE}|${SINGLE})`;
const FLOW_LIST = `\\[ *(?:${WORD}(?: *, *${WORD})*)? *\\]`;
const FLOW_PAIR = `${KEY}: +${WORD}`;
const FLOW_MAP = `\\{ *(?:${FLOW_PAIR}(?: *, *${FLOW_PAIR})*)? *\\}`;
const COMMENT = '(?: +#.*)?';
const VALUE = new RegExp(`^(?:${PLAIN}|${DOUBLE}|${SINGLE}|${FLOW_LIST}|(${FLOW_MAP}))${COMMENT} *$`);
const ENTRY = new RegExp(`^(${KEY}):(?:( +#.*| *)$| +(.*)$)`);
const FLOW_KEY = new RegExp(`(?:\\{|,) *(${KEY}):`, 'g');
/** Keys that YAML reads as one value under different spellings (`true`/`True`): a repeat would be an error. */
const SPECIAL_KEY = /^(?:true|false|null|True|False|TRUE|FALSE|Null|NULL)$/;

const MAX_LINE = 1000;

interface Frame {
  readonly indent: number;
  readonly kind: 'map' | 'seq';
  readonly keys: Set<string>;
}

/**
 * Whether one scorer entry (a `- ` item at `indent`, with the comment lines after it) is plain block
 * YAML that parses with no error and no alias: every line is one of the shapes above, at an indent
 * that continues a block open above it, with no key repeated in a mapping. Conservative: some valid
 * YAML answers false (then the server shows no part).
 */
export function isPlainItem(item: TextChunk, indent: number): boolean {
  const stack: Frame[] = [{ indent, kind: 'seq', keys: new Set() }];
  // The line before was `key:` with nothing after it: this one may open a block inside it.
  let opening = false;
  for (const line of item.text.split('\n')) {
    const spaces = leadingSpaces(line);
    if (spaces === line.length || line.charAt(spaces) === '#') continue;
    // YAML refuses a key longer than 1,024 characters: no line comes near that here.
    if (line.length > MAX_LINE) return false;
    const content = line.slice(spaces);
    let top = stack[stack.length - 1];
    if (top === undefined) return false;
    if (opening && spaces > top.indent) {
      top = { indent: spaces, kind: content.startsWith('- ') ? 'seq' : 'map', keys: new Set() };
      stack.push(top);
    } else {
      while (top !== undefined && top.indent > spaces) {
        stack.pop();
        top = stack[stack.length - 1];
      }
      if (top === undefined || top.indent !== spaces) return false;
    }
    opening = false;
    if (top.kind === 'seq') {
      if (!content.startsWith('- ')) return false;
      const after = content.slice(2);
      if (ENTRY.test(after)) {
        const map: Frame = { indent: spaces + 2, kind: 'map', keys: new Set() };
        stack.push(map);
        const entry = plainEntry(map, after);
        if (entry === undefined) return false;
        opening = entry === 'opens';
      } else if (!plainValue(after)) {
        return false;
      }
    } else {
      const entry = plainEntry(top, content);
      if (entry === undefined) return false;
      opening = entry === 'opens';
    }
  }
  return true;
}

/** A `key:` line of mapping `frame`: 'opens' (nothing after the colon), 'value', or undefined when not plain. */
function plainEntry(frame: Frame, content: string): 'opens' | 'value' | undefined {
  const match = ENTRY.exec(content);
  const key = match?.[1];
  if (match === null || key === undefined || SPECIAL_KEY.test(key) || frame.keys.has(key)) return undefined;
  frame.keys.add(key);
  const value = match[3];
  if (value === undefined) return 'opens';
  return plainValue(value) ? 'value' : undefined;
}

function plainValue(text: string): boolean {
  const match = VALUE.exec(text);
  if (match === null) return false;
  const flowMap = match[1];
  if (flowMap === undefined) return true;
  const keys = [...flowMap.matchAll(FLOW_KEY)].map((m) => m[1] ?? '');
  return keys.every((key, i) => !SPECIAL_KEY.test(key) && keys.indexOf(key) === i);
}

function leadingSpaces(text: string): number {
  let n = 0;
  while (text.charCodeAt(n) === 32) n += 1;
  return n;
}
