import { isMap, isScalar, isSeq, LineCounter, parseDocument, Scalar, visit, type Document, type Node, type Pair } from 'yaml';
import type { Problem } from '../problem';
import type { SourceRange } from '../text/position';
import { expandEnv } from './envExpand';

/** EvalBench's `!ENV` tag: the value is a string whose `${VAR}`s expand (as every string here does). */
const envTag = { tag: '!ENV', resolve: (value: string) => value };

/**
 * A parsed YAML file that keeps positions: the document, its line counter, and helpers that turn a
 * path into the range of its key or value. Nothing of `yaml` leaves `core/config`.
 */
export class YamlSource {
  readonly doc: Document.Parsed;
  private readonly lineCounter = new LineCounter();

  constructor(
    readonly text: string,
    readonly file: string,
  ) {
    this.doc = parseDocument(text, { lineCounter: this.lineCounter, prettyErrors: false, customTags: [envTag], uniqueKeys: true });
  }

  /** YAML syntax errors and warnings as problems. */
  syntaxProblems(): Problem[] {
    return [...this.doc.errors, ...this.doc.warnings].map((e) => ({
      code: 'yaml-syntax',
      severity: this.doc.errors.includes(e as never) ? 'error' : 'warning',
      message: `YAML: ${e.message.split('\n')[0] ?? e.message}`,
      range: this.range(e.pos[0], Math.max(e.pos[1], e.pos[0] + 1)),
    }));
  }

  /** Expands `${VAR}` in every string scalar in place; unresolved ones become problems on their text. */
  expandEnvironment(env: Readonly<Record<string, string | undefined>>): Problem[] {
    const problems: Problem[] = [];
    visit(this.doc, {
      Scalar: (_key, node) => {
        if (typeof node.value !== 'string') return;
        const { value, unresolved } = expandEnv(node.value, env);
        node.value = value;
        for (const u of unresolved) {
          const start = node.range?.[0] ?? 0;
          const plain = node.type === Scalar.PLAIN;
          problems.push({
            code: 'unresolved-variable',
            severity: 'error',
            message: `the environment variable ${u.name} is not set (expected a value for \`\${${u.name}}\`; set it, or give a fallback with \`\${${u.name}:-value}\`)`,
            range: plain ? this.range(start + u.index, start + u.index + u.length) : this.nodeRange(node),
          });
        }
      },
    });
    return problems;
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

  /** Range of the key of `path` (falls back to its value, then to the nearest ancestor). */
  keyRange(path: readonly (string | number)[]): SourceRange {
    const pair = this.pairAt(path);
    if (pair !== undefined && isNode(pair.key)) return this.nodeRange(pair.key);
    return this.valueRange(path);
  }

  /** Range of the value at `path`; for a missing value, the nearest ancestor that exists. */
  valueRange(path: readonly (string | number)[]): SourceRange {
    for (let n = path.length; n >= 0; n--) {
      const prefix = path.slice(0, n);
      const node = this.nodeAt(prefix);
      if (node !== undefined && node.range) return n === path.length || n === 0 ? this.nodeRange(node) : this.keyRangeOrNode(prefix, node);
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
    const { line, col } = this.lineCounter.linePos(offset);
    return { offset, line: line - 1, column: col - 1 };
  }
}

function isNode(value: unknown): value is Node {
  return isScalar(value) || isMap(value) || isSeq(value) || (typeof value === 'object' && value !== null && 'range' in value);
}
