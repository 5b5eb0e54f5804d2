/**
 * A JSON schema without its annotations (descriptions, titles, examples, comments): what a validator
 * needs. With `verbose` on, ajv's standalone code carries every schema it validates against as a literal
 * (errors point at it), and the annotations, written for hovers and the docs, were a fifth of
 * dist/own-validators.js: read and compiled by every `evallens validate`. Walks only where a schema's
 * keywords hold schemas, so a property that happens to be named `description` is kept, and data
 * (`const`, `enum`, `default`, `x-evallens`) is left as it is.
 */
export function withoutAnnotations<T>(schema: T): T {
  return strip(schema) as T;
}

const ANNOTATIONS = new Set(['description', 'markdownDescription', 'title', 'examples', '$comment']);
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Keywords whose value is a schema or, for `items` in older drafts, a list of schemas. */
const SCHEMA_VALUED = new Set([
  'not',
  'if',
  'then',
  'else',
  'items',
  'additionalItems',
  'contains',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
]);
/** Keywords whose value is a list of schemas. */
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);

function strip(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const kept: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(keyword)) continue;
    if (SCHEMA_MAPS.has(keyword) && typeof value === 'object' && value !== null && !Array.isArray(value))
      kept[keyword] = Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, strip(inner)]));
    else if (SCHEMA_LISTS.has(keyword) && Array.isArray(value)) kept[keyword] = value.map(strip);
    else if (SCHEMA_VALUED.has(keyword)) kept[keyword] = Array.isArray(value) ? value.map(strip) : strip(value);
    else kept[keyword] = value;
  }
  return kept;
}
