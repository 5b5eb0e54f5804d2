import { isMap, isScalar, isSeq, type Node, type Pair } from 'yaml';
import type { YamlSource } from './yamlSource';

/**
 * A YAML document as plain data with offsets: every mapping, list and scalar with its span, every
 * key with its own span. Hosts (the language server's hover, outline, code actions) walk this instead
 * of the `yaml` package's node types, which stay inside core/config. Built from the text as written,
 * so it must be taken before `${VAR}`s are expanded (parseRunConfig expands in place).
 */
export interface Span {
  readonly start: number;
  /** Exclusive; trailing blanks and line breaks are not part of a node. */
  readonly end: number;
}

export type OutlineNode = OutlineMap | OutlineSeq | OutlineScalar;

export interface OutlineMap {
  readonly kind: 'map';
  readonly span: Span;
  /** `{a: 1}` rather than a block of `key: value` lines. */
  readonly flow: boolean;
  readonly entries: readonly OutlineEntry[];
}

export interface OutlineSeq {
  readonly kind: 'seq';
  readonly span: Span;
  readonly flow: boolean;
  readonly items: readonly OutlineNode[];
}

export interface OutlineScalar {
  readonly kind: 'scalar';
  readonly span: Span;
  readonly value: string | number | boolean | null;
}

export interface OutlineEntry {
  readonly key: string;
  readonly keySpan: Span;
  /** Absent for `key:` with nothing after it (an empty value). */
  readonly value?: OutlineNode;
  /** From the key's start to the value's end (the key's end when there is no value). */
  readonly span: Span;
}

/** The outline of a parsed source; undefined for an empty document. */
export function outlineOf(source: YamlSource): OutlineNode | undefined {
  const contents = source.doc.contents;
  return contents === null ? undefined : nodeOutline(contents, source.text);
}

function nodeOutline(node: Node, text: string): OutlineNode | undefined {
  if (isMap(node)) {
    const entries = node.items
      .map((pair) => entryOutline(pair, text))
      .filter((e): e is OutlineEntry => e !== undefined);
    return { kind: 'map', span: spanOf(node, text), flow: node.flow === true, entries };
  }
  if (isSeq(node)) {
    const items = node.items
      .map((item) => (isNodeLike(item) ? nodeOutline(item, text) : undefined))
      .filter((n): n is OutlineNode => n !== undefined);
    return { kind: 'seq', span: spanOf(node, text), flow: node.flow === true, items };
  }
  if (isScalar(node)) {
    const value = node.value;
    const plain =
      typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
        ? value
        : value === null || value === undefined
          ? null
          : String(value);
    return { kind: 'scalar', span: spanOf(node, text), value: plain };
  }
  // An alias: its own text, as a scalar.
  return {
    kind: 'scalar',
    span: spanOf(node, text),
    value: text.slice(spanOf(node, text).start, spanOf(node, text).end),
  };
}

function entryOutline(pair: Pair, text: string): OutlineEntry | undefined {
  if (!isScalar(pair.key) || pair.key.range === undefined || pair.key.range === null) return undefined;
  const keySpan = spanOf(pair.key, text);
  const valueNode = isNodeLike(pair.value) ? pair.value : undefined;
  // `key:` with nothing after it parses as a null scalar of zero width; treat it as no value.
  const empty =
    valueNode !== undefined &&
    isScalar(valueNode) &&
    valueNode.value === null &&
    spanOf(valueNode, text).end <= spanOf(valueNode, text).start;
  const value = valueNode === undefined || empty ? undefined : nodeOutline(valueNode, text);
  return {
    key: String(pair.key.value),
    keySpan,
    ...(value === undefined ? {} : { value }),
    span: { start: keySpan.start, end: Math.max(keySpan.end, value?.span.end ?? keySpan.end) },
  };
}

function spanOf(node: Node, text: string): Span {
  const [start, end] = node.range ?? [0, 0];
  let trimmed = Math.max(start, end);
  while (trimmed > start && /\s/.test(text.charAt(trimmed - 1))) trimmed -= 1;
  return { start, end: trimmed };
}

function isNodeLike(value: unknown): value is Node {
  return (
    isMap(value) || isSeq(value) || isScalar(value) || (typeof value === 'object' && value !== null && 'range' in value)
  );
}
