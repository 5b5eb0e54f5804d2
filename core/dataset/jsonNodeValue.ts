import type { Node } from 'jsonc-parser';

/**
 * The JS value of a jsonc-parser node, built with own data properties, so a `__proto__` key stays a
 * plain key (jsonc-parser's own `getNodeValue` assigns keys onto an object literal).
 */
export function jsonNodeValue(node: Node): unknown {
  switch (node.type) {
    case 'object':
      return Object.fromEntries(
        (node.children ?? []).flatMap((property) => {
          const [key, value] = property.children ?? [];
          return key === undefined || value === undefined ? [] : [[String(key.value), jsonNodeValue(value)]];
        }),
      );
    case 'array':
      return (node.children ?? []).map(jsonNodeValue);
    default:
      return node.value as unknown;
  }
}
