import {
  Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  Pair,
  parseDocument,
  visit,
  YAMLMap,
  YAMLSeq,
  type DocumentOptions,
  type Node,
  type ParseOptions,
  type ParsedNode,
  type SchemaOptions,
} from 'yaml';
import { splitTopLevel, type TextChunk, type TopLevelBlock } from './chunkSplit';

/**
 * Parses a run config one piece at a time, reusing the pieces an edit did not touch: the text is cut
 * into its top-level `key:` blocks and the items of a block-list `scorers:` (chunkSplit.ts), each piece
 * is parsed on its own and kept by its text, and the pieces are put back together into one document
 * whose nodes carry the offsets of the whole text. A one-line edit in a 5,000-line config re-parses
 * one scorer entry instead of the whole file.
 *
 * Only used when it gives exactly what parsing the whole text gives: anything a piece-wise parse could
 * read differently (a piece with a syntax error or warning, an anchor or alias, a piece that is not one
 * `key: value` or one list item, a repeated top-level key, directives, …) makes `compose` answer
 * undefined, and the caller parses the whole text. test/core/config/chunkedParse.test.ts compares
 * both on every fixture and on mutated configs.
 */

export type YamlParseOptions = ParseOptions & DocumentOptions & SchemaOptions;

interface ParsedChunk {
  /** The piece's own root: a one-pair mapping (a top-level block) or a one-item list (a scorer entry). */
  readonly root: ParsedNode;
  /** The offset the root's ranges currently count from (its nodes are shifted in place when it moves). */
  offset: number;
  /** The build that last used it: a piece that occurs twice in one text gets a fresh parse the second time. */
  build: number;
}

/** What a piece needs of the whole parse, found once when it is parsed. */
interface ChunkFacts {
  readonly usable: boolean;
  /** A string in it contains `${`: `${VAR}` expansion changes its nodes in place, so it is never shared. */
  readonly expands: boolean;
}

export interface ComposedDocument {
  readonly doc: Document.Parsed;
  /** The roots of the pieces whose strings contain `${` (the only nodes `${VAR}` expansion must visit). */
  readonly expanding: readonly Node[];
}

/** How many parsed pieces a cache keeps (least recently used go first): a few 5,000-line configs' worth. */
const DEFAULT_CAPACITY = 6000;
/**
 * A text of more pieces than this, most of them new, is parsed whole: cold (the first check after the
 * server starts), one parse of 500 entries took ~370 ms where 500 parses of one entry took ~500 ms.
 * `warm` then parses its pieces when the host has time, for the edits that follow.
 */
const COLD_PIECES = 64;

/**
 * The parsed pieces of recent texts, by kind and text. One per host (the language server makes one per
 * server); a document composed from it stays valid until the next `compose` on the same cache, since
 * shared pieces are moved in place — every caller uses its document synchronously.
 */
export class YamlChunkCache {
  private readonly chunks = new Map<string, ParsedChunk>();
  private builds = 0;
  /** The pieces of the last text that was parsed whole because they were new, still to parse (latest text only). */
  private toWarm: { readonly kind: 'map' | 'seq'; readonly chunk: TextChunk }[] = [];
  private warmOptions: YamlParseOptions = {};

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  get size(): number {
    return this.chunks.size;
  }

  /** The whole text as one document built from its pieces, or undefined when it must be parsed whole. */
  compose(text: string, options: YamlParseOptions): ComposedDocument | undefined {
    const blocks = splitTopLevel(text);
    if (blocks === undefined) return undefined;
    if (this.isCold(blocks, options)) return undefined;
    return this.composeBlocks(text, blocks, options);
  }

  /**
   * One document of `blocks` (pieces of `text`, in order, maybe not all of them: see visiblePart.ts),
   * their nodes at their offsets in `text`; undefined when a piece is not usable on its own.
   */
  protected composeBlocks(
    text: string,
    blocks: readonly TopLevelBlock[],
    options: YamlParseOptions,
  ): ComposedDocument | undefined {
    const build = ++this.builds;
    const expanding: Node[] = [];
    const pairs: Pair[] = [];
    const keys = new Set<unknown>();
    let first: readonly number[] | undefined;
    let last: readonly number[] | undefined;
    for (const block of blocks) {
      const root = this.piece('map', block.header, build, options, expanding);
      if (root === undefined || !isMap(root) || root.flow === true || root.items.length !== 1) return undefined;
      const pair = root.items[0];
      if (pair === undefined || !isScalar(pair.key) || keys.has(pair.key.value)) return undefined;
      keys.add(pair.key.value);
      let range = root.range;
      if (block.items !== undefined) {
        // `scorers:` on its own line, then its items, each parsed on its own.
        if (!isScalar(pair.value) || pair.value.value !== null) return undefined;
        const list = new YAMLSeq(root.schema);
        for (const item of block.items) {
          const one = this.piece('seq', item, build, options, expanding);
          if (one === undefined || !isSeq(one) || one.flow === true || one.items.length !== 1) return undefined;
          list.items.push(one.items[0]);
          list.range = [list.range?.[0] ?? one.range[0], one.range[1], one.range[2]];
        }
        // A new pair: the cached piece keeps its own (empty) value.
        pairs.push(new Pair(pair.key, list));
        if (list.range !== undefined && list.range !== null) range = [root.range[0], list.range[1], list.range[2]];
      } else {
        pairs.push(pair);
      }
      first ??= range;
      last = range;
    }
    const doc = new Document(null, options) as Document.Parsed;
    if (first !== undefined && last !== undefined) {
      const map = new YAMLMap(doc.schema);
      map.items = pairs;
      map.range = [first[0] ?? 0, last[1] ?? 0, last[2] ?? 0];
      doc.contents = map as YAMLMap.Parsed;
    }
    doc.range = [0, text.length, text.length];
    return { doc, expanding };
  }

  /**
   * Parses up to `budgetMs` worth of the pieces of the last text that `compose` left to a whole parse
   * because they were new; true while some are left. A host calls it when idle, so that the next edit
   * of that text re-parses one piece.
   */
  warm(budgetMs: number): boolean {
    const until = performance.now() + budgetMs;
    while (this.toWarm.length > 0 && performance.now() < until) {
      const next = this.toWarm.pop();
      if (next === undefined) break;
      if (this.chunks.has(keyOf(next.kind, next.chunk.text))) continue;
      this.piece(next.kind, next.chunk, ++this.builds, this.warmOptions, []);
    }
    return this.toWarm.length > 0;
  }

  /** Whether most of a long text's pieces are new (then it is parsed whole and its pieces queued for `warm`). */
  private isCold(blocks: readonly TopLevelBlock[], options: YamlParseOptions): boolean {
    const pieces = blocks.flatMap((block) => [
      { kind: 'map' as const, chunk: block.header },
      ...(block.items ?? []).map((chunk) => ({ kind: 'seq' as const, chunk })),
    ]);
    if (pieces.length <= COLD_PIECES) return false;
    const missing = pieces.filter((p) => !this.chunks.has(keyOf(p.kind, p.chunk.text)));
    if (missing.length * 2 <= pieces.length) return false;
    this.toWarm = missing.reverse();
    this.warmOptions = options;
    return true;
  }

  /** The root of one piece, from the cache when its text was parsed before; undefined when unusable. */
  private piece(
    kind: 'map' | 'seq',
    chunk: TextChunk,
    build: number,
    options: YamlParseOptions,
    expanding: Node[],
  ): ParsedNode | undefined {
    const key = keyOf(kind, chunk.text);
    const cached = this.chunks.get(key);
    if (cached !== undefined && cached.build !== build) {
      // Most recently used last.
      this.chunks.delete(key);
      this.chunks.set(key, cached);
      cached.build = build;
      moveTo(cached, chunk.start);
      return cached.root;
    }
    const doc = parseDocument(chunk.text, options);
    if (doc.errors.length > 0 || doc.warnings.length > 0 || doc.contents === null) return undefined;
    const root = doc.contents;
    const facts = factsOf(root);
    if (!facts.usable) return undefined;
    const parsed: ParsedChunk = { root, offset: 0, build };
    moveTo(parsed, chunk.start);
    if (facts.expands) {
      expanding.push(root);
    } else if (cached === undefined) {
      this.chunks.set(key, parsed);
      if (this.chunks.size > this.capacity) {
        const oldest = this.chunks.keys().next();
        if (oldest.done !== true) this.chunks.delete(oldest.value);
      }
    }
    return root;
  }
}

function keyOf(kind: 'map' | 'seq', text: string): string {
  return `${kind}\u0000${text}`;
}

function factsOf(root: Node): ChunkFacts {
  let usable = true;
  let expands = false;
  visit(root, {
    Node: (_key, node) => {
      if (isAlias(node) || node.anchor !== undefined) {
        usable = false;
        return visit.BREAK;
      }
      if (isScalar(node) && typeof node.value === 'string' && node.value.includes('${')) expands = true;
      return undefined;
    },
    Pair: (_key, pair) => {
      // A key that is a collection (`? [a, b]: …`) is never a config key; let the whole parse word it.
      if (pair.key !== null && !isScalar(pair.key)) {
        usable = false;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return { usable, expands };
}

/** Moves a piece's nodes so that their ranges count from `offset`. */
function moveTo(chunk: ParsedChunk, offset: number): void {
  const delta = offset - chunk.offset;
  if (delta === 0) return;
  shift(chunk.root, delta);
  chunk.offset = offset;
}

function shift(node: unknown, delta: number): void {
  if (isMap(node)) {
    for (const pair of node.items) {
      shift(pair.key, delta);
      shift(pair.value, delta);
    }
  } else if (isSeq(node)) {
    for (const item of node.items) shift(item, delta);
  }
  if (isScalar(node) || isMap(node) || isSeq(node)) {
    const range = node.range;
    if (range !== undefined && range !== null) node.range = [range[0] + delta, range[1] + delta, range[2] + delta];
  }
}
