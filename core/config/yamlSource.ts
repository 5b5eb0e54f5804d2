import {
  isAlias,
  isMap,
  isScalar,
  isSeq,
  parseDocument,
  Scalar,
  visit,
  type Alias,
  type Document,
  type Node,
  type Pair,
} from 'yaml';
import type { Problem } from '../problem';
import { LineIndex, type SourceRange } from '../text/position';
import type { YamlChunkCache, YamlParseOptions } from './chunkedParse';
import { isUntrustedEnv, notReadReason } from './untrustedEnv';
import { rememberSecret } from '../../shared/text/secretMask';
import { expandEnv, MAX_EXPANDED_CHARS } from './envExpand';
import { MAX_FLOW_NESTING, tooDeepFlowNesting } from './flowNesting';

/** How many alias expansions a document may make (yaml's `maxAliasCount`): enough for any config, not for an alias bomb. */
const MAX_ALIAS_COUNT = 100;

/** How many characters `${VAR}` expansion may add to one document in all (each string: MAX_EXPANDED_CHARS). */
const MAX_EXPANDED_DOCUMENT_CHARS = 16 * 1024 * 1024;

/**
 * Whether a text may contain a YAML alias: an alias (`*name`) starts a node, so its `*` comes first in
 * the text or after white space, `[`, `{`, `,` or (in flow, after a quoted key) `:`. Most configs have
 * none, or a `*` only inside a pattern (`(\w+)*`).
 */
const MAY_HAVE_ALIAS = /(?:^|[\s[{,:])\*/;

/** EvalBench's `!ENV` tag: the value is a string whose `${VAR}`s expand (as every string here does). */
const envTag = { tag: '!ENV', resolve: (value: string) => value };

// logLevel 'error': yaml would print its warnings (a collection as a key) to the process's stderr.
const PARSE_OPTIONS: YamlParseOptions = {
  prettyErrors: false,
  customTags: [envTag],
  uniqueKeys: true,
  logLevel: 'error',
};

/**
 * A parsed YAML file that keeps positions: the document, its line counter, and helpers that turn a
 * path into the range of its key or value. Nothing of `yaml` leaves `core/config`.
 */
export class YamlSource {
  readonly doc: Document.Parsed;
  private readonly lines: LineIndex;
  /** Where flow collections nest too deep to be parsed, if they do. */
  private readonly tooDeep: SourceRange | undefined;
  /**
   * The nodes `${VAR}` expansion must visit: all of them after a whole parse; after a piece-wise
   * parse (chunkedParse.ts), only the pieces whose strings contain `${`.
   */
  private readonly expanding: readonly Node[] | undefined;

  /**
   * `chunks`: a host that parses new versions of the same texts again and again (the language server)
   * passes its cache of parsed pieces, and an edit re-parses only the pieces it touched. The document
   * is then valid until the next YamlSource made with the same cache.
   */
  constructor(
    readonly text: string,
    readonly file: string,
    chunks?: YamlChunkCache,
  ) {
    this.lines = new LineIndex(text);
    // Flow collections nested past MAX_FLOW_NESTING: only the lines before that one reach yaml.
    const tooDeep = tooDeepFlowNesting(text);
    this.tooDeep = tooDeep === undefined ? undefined : this.range(tooDeep, tooDeep + 1);
    const composed = tooDeep === undefined ? chunks?.compose(text, PARSE_OPTIONS) : undefined;
    if (composed !== undefined) {
      this.doc = composed.doc;
      this.expanding = composed.expanding;
      return;
    }
    const parsed = tooDeep === undefined ? text : text.slice(0, text.lastIndexOf('\n', tooDeep) + 1);
    this.doc = parseDocument(parsed, PARSE_OPTIONS);
    this.expanding = undefined;
  }

  /** YAML syntax errors and warnings as problems. */
  syntaxProblems(): Problem[] {
    const problems = [...this.doc.errors, ...this.doc.warnings].map((e): Problem => ({
      code: 'yaml-syntax',
      severity: this.doc.errors.includes(e as never) ? 'error' : 'warning',
      message: `YAML: ${e.message.split('\n')[0] ?? e.message}`,
      range: this.range(e.pos[0], Math.max(e.pos[1], e.pos[0] + 1)),
    }));
    if (this.tooDeep === undefined) return problems;
    const message = `YAML: brackets nested more than ${MAX_FLOW_NESTING} levels deep here; expected at most ${MAX_FLOW_NESTING} (the rest of the file is not read)`;
    return [{ code: 'yaml-syntax', severity: 'error', message, range: this.tooDeep }, ...problems];
  }

  /** Every value `${VAR}` expansion put into the document: no message may quote one. */
  readonly expandedValues = new Set<string>();

  /** Expands `${VAR}` in every string scalar in place; unresolved ones become problems on their text. */
  expandEnvironment(env: Readonly<Record<string, string | undefined>>): Problem[] {
    const problems: Problem[] = [];
    // Without trust nothing is read: each `${VAR}` is said to be unread, not unset.
    const untrusted = isUntrustedEnv(env);
    // What expansion may add to the whole document: each string has its own cap, and so do all of them together.
    let budget = MAX_EXPANDED_DOCUMENT_CHARS;
    let stopped = false;
    const visitor = {
      Scalar: (_key: unknown, node: Scalar) => {
        if (typeof node.value !== 'string') return;
        const limit = Math.min(MAX_EXPANDED_CHARS, node.value.length + budget);
        const { value, unresolved, used, tooLong } = expandEnv(node.value, env, limit);
        if (tooLong !== undefined) {
          const start = (node.range?.[0] ?? 0) + (node.type === Scalar.PLAIN ? tooLong : 0);
          const message =
            limit === MAX_EXPANDED_CHARS
              ? `expanding the \`\${…}\` variables here makes a string of more than ${MAX_EXPANDED_CHARS} characters; expected at most ${MAX_EXPANDED_CHARS} (the value is not used)`
              : `expanding the \`\${…}\` variables of this file makes more than ${MAX_EXPANDED_DOCUMENT_CHARS} characters in all; expected at most ${MAX_EXPANDED_DOCUMENT_CHARS} (the value is not used)`;
          problems.push({
            code: 'expansion-too-long',
            severity: 'error',
            message,
            range: this.range(start, start + 2),
          });
          stopped = true;
          return visit.BREAK;
        }
        budget -= Math.max(0, value.length - node.value.length);
        node.value = value;
        for (const u of used) {
          this.expandedValues.add(u);
          rememberSecret(u);
        }
        for (const u of unresolved) {
          const start = node.range?.[0] ?? 0;
          const plain = node.type === Scalar.PLAIN;
          problems.push({
            code: 'unresolved-variable',
            severity: 'error',
            message: untrusted
              ? notReadReason(u.name)
              : `the environment variable ${u.name} is not set (expected a value for \`\${${u.name}}\`; set it, or give a fallback with \`\${${u.name}:-value}\`)`,
            range: plain ? this.range(start + u.index, start + u.index + u.length) : this.nodeRange(node),
          });
        }
        return undefined;
      },
    };
    if (this.expanding === undefined) visit(this.doc, visitor);
    else for (const node of this.expanding) if (!stopped) visit(node, visitor);
    return problems;
  }

  /**
   * The document as plain data, or the problems that keep it from being data: an alias that names no
   * anchor, an alias inside the node it names (its value would contain itself), and aliases that expand
   * past MAX_ALIAS_COUNT nodes (a "billion laughs" document). yaml's toJS throws for the first and the
   * last and builds a circular value for the second; this never throws.
   */
  toData(): { readonly value: unknown; readonly problems: Problem[] } {
    const problems: Problem[] = [];
    // yaml turns a mapping or list used as a key into a string key by printing it, which is slow past
    // a few levels of nesting (seconds on an 80 KB document the fuzz test made): refuse it first.
    const complexKey = this.firstComplexKey();
    if (complexKey !== undefined) {
      const message = 'YAML: a key must be plain text or a number, not a mapping or a list (a config names its keys)';
      return {
        value: undefined,
        problems: [{ code: 'yaml-complex-key', severity: 'error', message, range: this.nodeRange(complexKey) }],
      };
    }
    // A piece-wise parse has no anchors or aliases (chunkedParse.ts falls back to a whole parse).
    if (this.expanding !== undefined) return { value: this.doc.toJS(), problems };
    let firstAlias: Alias | undefined;
    // Anchors in document order, as yaml resolves them (an alias names the last anchor before it); one
    // walk, where Alias.resolve walks the whole document for every alias.
    const anchors = new Map<string, Node>();
    // A text that cannot hold an alias has nothing to check here: skip the walk (~5 ms on 5,000 lines).
    const walk = MAY_HAVE_ALIAS.test(this.text) ? visit : () => undefined;
    walk(this.doc, {
      Node: (_key, node) => {
        if (!isAlias(node)) {
          if (node.anchor !== undefined) anchors.set(node.anchor, node);
          return;
        }
        firstAlias ??= node;
        const target = anchors.get(node.source);
        const at = node.range?.[0] ?? 0;
        if (target === undefined) {
          problems.push({
            code: 'yaml-alias',
            severity: 'error',
            message: `YAML: the alias *${node.source} names no anchor (expected \`&${node.source}\` on a value before it)`,
            range: this.nodeRange(node),
          });
        } else if (target.range && at >= target.range[0] && at < target.range[2]) {
          problems.push({
            code: 'yaml-alias',
            severity: 'error',
            message: `YAML: the alias *${node.source} is inside the value it names, so that value would contain itself`,
            range: this.nodeRange(node),
          });
        }
      },
    });
    if (problems.length > 0) return { value: undefined, problems };
    try {
      return { value: this.doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }), problems };
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      const range = firstAlias === undefined ? this.range(0, 0) : this.nodeRange(firstAlias);
      return {
        value: undefined,
        problems: [
          {
            code: 'yaml-alias',
            severity: 'error',
            message: `YAML: the aliases expand to too much data (at most ${MAX_ALIAS_COUNT} alias expansions are read; ${why})`,
            range,
          },
        ],
      };
    }
  }

  /** The first key that is a mapping or a list (`? {a: 1}`, `[a]: b`), if any. */
  private firstComplexKey(): Node | undefined {
    let found: Node | undefined;
    const visitor = {
      Pair: (_key: unknown, pair: Pair) => {
        const key = pair.key;
        if (key === null || isScalar(key) || isAlias(key) || !(isMap(key) || isSeq(key))) return undefined;
        found = key;
        return visit.BREAK;
      },
    };
    if (this.expanding === undefined) visit(this.doc, visitor);
    else for (const node of this.expanding) if (found === undefined) visit(node, visitor);
    return found;
  }

  /** The keys of a top-level mapping, as written (before `${VAR}` expansion when asked first); none for anything else. */
  topLevelKeys(): string[] {
    const contents = this.doc.contents;
    return isMap(contents)
      ? contents.items.flatMap((pair) => (isScalar(pair.key) ? [String(pair.key.value)] : []))
      : [];
  }

  /** The node at a path (string keys, number indexes), or undefined. */
  nodeAt(path: readonly (string | number)[]): Node | undefined {
    if (path.length === 0) return this.doc.contents ?? undefined;
    const found: unknown = this.doc.getIn(path, true);
    return isNode(found) ? found : undefined;
  }

  /** The key/value pair whose key is the last segment of `path`, when its parent is a mapping. */
  pairAt(path: readonly (string | number)[]): Pair | undefined {
    const parent = this.nodeAt(path.slice(0, -1));
    const last = path[path.length - 1];
    if (!isMap(parent) || last === undefined) return undefined;
    return parent.items.find((p) => isScalar(p.key) && String(p.key.value) === String(last));
  }

  /** Range of the key of `path` (falls back to markRange: its value, or its first line, or the nearest ancestor). */
  keyRange(path: readonly (string | number)[]): SourceRange {
    const pair = this.pairAt(path);
    if (pair !== undefined && isNode(pair.key)) return this.nodeRange(pair.key);
    return this.markRange(path);
  }

  /**
   * Where a problem about the value at `path` is marked: the smallest span that names it. The value
   * when it fits on one line; else its key; else (a list item, the document itself) its first line. A
   * problem about a whole block must not paint every line of it red.
   */
  markRange(path: readonly (string | number)[]): SourceRange {
    if (path.length === 0) return this.headRange();
    const value = this.valueRange(path);
    if (lastCoveredLine(value) === value.start.line) return value;
    const pair = this.pairAt(path);
    return pair !== undefined && isNode(pair.key) ? this.nodeRange(pair.key) : this.firstLineOf(value);
  }

  /**
   * Where a problem about the whole file is marked: its first top-level key, else the first line of
   * its content, else its start.
   */
  headRange(): SourceRange {
    const contents = this.doc.contents;
    const first = isMap(contents) ? contents.items[0]?.key : undefined;
    if (isNode(first) && first.range) return this.nodeRange(first);
    return contents?.range ? this.firstLineOf(this.nodeRange(contents)) : this.range(0, 0);
  }

  /** `range` cut at the end of its first line (trailing blanks left out). */
  private firstLineOf(range: SourceRange): SourceRange {
    const start = range.start.offset;
    const lineEnd = this.text.slice(start, range.end.offset).search(/[\r\n]/);
    const end = lineEnd < 0 ? range.end.offset : start + this.text.slice(start, start + lineEnd).trimEnd().length;
    return this.range(start, Math.max(end, start));
  }

  /** Range of the value at `path`; for a missing value, the nearest ancestor that exists. */
  valueRange(path: readonly (string | number)[]): SourceRange {
    for (let n = path.length; n >= 0; n--) {
      const prefix = path.slice(0, n);
      const node = this.nodeAt(prefix);
      if (node !== undefined && node.range)
        return n === path.length || n === 0 ? this.nodeRange(node) : this.keyRangeOrNode(prefix, node);
      const pair = this.pairAt(prefix);
      if (pair !== undefined && isNode(pair.key)) return this.nodeRange(pair.key);
    }
    return this.range(0, 0);
  }

  nodeRange(node: Node): SourceRange {
    const [start, end] = node.range ?? [0, 0, 0];
    return this.range(start, Math.max(end, start));
  }

  range(start: number, end: number): SourceRange {
    return { file: this.file, start: this.position(start), end: this.position(end) };
  }

  private keyRangeOrNode(path: readonly (string | number)[], node: Node): SourceRange {
    const pair = this.pairAt(path);
    return pair !== undefined && isNode(pair.key) ? this.nodeRange(pair.key) : this.nodeRange(node);
  }

  private position(offset: number) {
    return this.lines.position(offset);
  }
}

/** The last line a range covers a character of (a block ends at the start of the line after it). */
function lastCoveredLine(range: SourceRange): number {
  return range.end.column === 0 && range.end.line > range.start.line ? range.end.line - 1 : range.end.line;
}

function isNode(value: unknown): value is Node {
  return (
    isScalar(value) || isMap(value) || isSeq(value) || (typeof value === 'object' && value !== null && 'range' in value)
  );
}
