/** Questions about a config's outline: what is at an offset, and where the scorer entries are. */
import type { OutlineEntry, OutlineMap, OutlineNode, Span } from '../../core/config/yamlOutline';

export type PathSegment = string | number;

export interface Located {
  /** Keys and list indexes from the root to what is at the offset. */
  readonly path: readonly PathSegment[];
  readonly on: 'key' | 'value';
  /** The entry whose key (or scalar value) is at the offset. */
  readonly entry?: OutlineEntry;
  /** The scalar at the offset (a value, or a list item). */
  readonly node?: OutlineNode;
}

const within = (span: Span, offset: number) => span.start <= offset && offset <= span.end;

/** The deepest key or scalar at `offset`; undefined between nodes. */
export function locate(root: OutlineNode | undefined, offset: number): Located | undefined {
  let node = root;
  const path: PathSegment[] = [];
  while (node !== undefined) {
    if (node.kind === 'map') {
      const entry = node.entries.find((e) => within(e.span, offset));
      if (entry === undefined) return undefined;
      path.push(entry.key);
      if (within(entry.keySpan, offset)) return { path, on: 'key', entry };
      if (entry.value === undefined) return undefined;
      if (entry.value.kind === 'scalar')
        return within(entry.value.span, offset) ? { path, on: 'value', entry, node: entry.value } : undefined;
      node = entry.value;
    } else if (node.kind === 'seq') {
      const index = node.items.findIndex((item) => within(item.span, offset));
      const item = node.items[index];
      if (item === undefined) return undefined;
      path.push(index);
      if (item.kind === 'scalar') return { path, on: 'value', node: item };
      node = item;
    } else {
      return { path, on: 'value', node };
    }
  }
  return undefined;
}

export function entryOf(map: OutlineNode | undefined, key: string): OutlineEntry | undefined {
  return map?.kind === 'map' ? map.entries.find((e) => e.key === key) : undefined;
}

/** The node at a path of keys and indexes. */
export function nodeAt(root: OutlineNode | undefined, path: readonly PathSegment[]): OutlineNode | undefined {
  let node = root;
  for (const segment of path) {
    if (node === undefined) return undefined;
    node =
      typeof segment === 'number'
        ? node.kind === 'seq'
          ? node.items[segment]
          : undefined
        : entryOf(node, segment)?.value;
  }
  return node;
}

/** One `scorers:` entry as written: mapping form (`key: options`) or list form (`- type: key`). */
export interface ScorerEntryOutline {
  readonly key: string;
  /** Where the key is written: the mapping key, or the `type` value. */
  readonly keySpan: Span;
  /** The options mapping (list form: the item itself, `type` included); undefined when empty. */
  readonly options: OutlineMap | undefined;
  readonly listForm: boolean;
  /** All of the entry: the key and its options, or the list item. */
  readonly span: Span;
  /** Path of the options (mapping form: scorers.<key>; list form: scorers.<index>). */
  readonly path: readonly PathSegment[];
}

export function scorerEntries(root: OutlineNode | undefined): ScorerEntryOutline[] {
  const scorers = entryOf(root, 'scorers')?.value;
  if (scorers?.kind === 'map') {
    return scorers.entries.map((e) => ({
      key: e.key,
      keySpan: e.keySpan,
      options: e.value?.kind === 'map' ? e.value : undefined,
      listForm: false,
      span: e.span,
      path: ['scorers', e.key],
    }));
  }
  if (scorers?.kind === 'seq') {
    return scorers.items.flatMap((item, index): ScorerEntryOutline[] => {
      if (item.kind !== 'map') return [];
      const type = entryOf(item, 'type')?.value;
      const key = type?.kind === 'scalar' && typeof type.value === 'string' ? type.value : '';
      return [
        {
          key,
          keySpan: type?.span ?? item.span,
          options: item,
          listForm: true,
          span: item.span,
          path: ['scorers', index],
        },
      ];
    });
  }
  return [];
}

/** The scorer entry that contains `offset`. */
export function scorerEntryAt(root: OutlineNode | undefined, offset: number): ScorerEntryOutline | undefined {
  return scorerEntries(root).find((e) => within(e.span, offset));
}
