// Writes core/scorers/options.generated.ts: the TypeScript type of each scorer's options, read from
// its schema (schemas/scorers/**/*.schema.json), so a scorer reads its options through a type the
// schema decides and an option renamed in a schema fails the type check where the scorer still uses
// the old name. `--check` fails when the committed file is stale (npm run check:generated).
//
// Written here rather than with json-schema-to-typescript because the scorer sees its options after
// ajv's `useDefaults`: an option with a `default` is always there, so it is required in the type
// (that library makes it optional). Rather than json-schema-to-ts's FromSchema, because the schemas are
// JSON files (published as they are) whose imports TypeScript types widened (`"type": string`), and
// because plain interfaces keep the type check fast.
//
// What the types express: type (and lists of types), enum, const, properties, required, default,
// items, additionalProperties, anyOf/oneOf. Conditions (if/then, not, allOf) narrow nothing here: the
// type is what every valid value fits, the scorer's code narrows the rest.
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const schemasDir = join(root, 'schemas', 'scorers');
const target = join(root, 'core', 'scorers', 'options.generated.ts');

/** Schema files under `dir`, by the name the generated map keys them with (`contains`, `evalbench/exact_match`). */
function schemaFiles(dir) {
  const found = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...schemaFiles(path));
    else if (name.endsWith('.schema.json'))
      found.push({
        name: relative(schemasDir, path)
          .replace(/\.schema\.json$/, '')
          .split('\\')
          .join('/'),
        path,
      });
  }
  return found;
}

const JSON_TYPES = { string: 'string', number: 'number', integer: 'number', boolean: 'boolean', null: 'null' };

/** The TypeScript type of the values `schema` accepts, indented for nesting `depth`. */
export function typeOf(schema, depth = 1) {
  if (schema === true || schema === undefined) return 'Json';
  if (schema === false) return 'never';
  if ('const' in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map(literal).join(' | ');
  // Alternatives beside `properties` only say which of them are required (json_schema: `schema` or `schema_path`).
  const alternatives = schema.properties === undefined ? (schema.anyOf ?? schema.oneOf) : undefined;
  if (Array.isArray(alternatives))
    return unique(alternatives.map((s) => typeOf({ ...s, ...typeOnly(schema) }, depth))).join(' | ');
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  if (types.length === 0) return schema.properties !== undefined ? objectType(schema, depth) : 'Json';
  return unique(types.map((t) => typeOfKind(t, schema, depth))).join(' | ');
}

/** The `type` of a schema whose alternatives inherit it (`{type: object, anyOf: [...]}`). */
function typeOnly(schema) {
  return schema.type === undefined ? {} : { type: schema.type };
}

function typeOfKind(kind, schema, depth) {
  if (kind === 'array') {
    const item = typeOf(schema.items, depth);
    return item.includes(' ') && !item.startsWith('{') ? `readonly (${item})[]` : `readonly ${item}[]`;
  }
  if (kind === 'object') return objectType(schema, depth);
  const type = JSON_TYPES[kind];
  if (type === undefined) throw new Error(`unknown JSON type ${kind}`);
  return type;
}

function objectType(schema, depth) {
  const properties = Object.entries(schema.properties ?? {});
  const extra = schema.additionalProperties;
  if (properties.length === 0)
    return `{ readonly [key: string]: ${extra === undefined || extra === true ? 'Json' : typeOf(extra, depth)} }`;
  const required = new Set(schema.required ?? []);
  const pad = '  '.repeat(depth + 1);
  const lines = properties.map(([key, property]) => {
    // ajv's useDefaults fills an absent option with its default before the scorer sees it.
    const present = required.has(key) || (typeof property === 'object' && 'default' in property);
    return `${pad}readonly ${propertyName(key)}${present ? '' : '?'}: ${typeOf(property, depth + 1)};`;
  });
  return `{\n${lines.join('\n')}\n${'  '.repeat(depth)}}`;
}

/** A JSON value as a TypeScript literal type, strings single-quoted as the repo writes them. */
function literal(value) {
  return typeof value === 'string' ? `'${value.replace(/[\\']/g, (c) => `\\${c}`)}'` : JSON.stringify(value);
}

function propertyName(key) {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : `'${key}'`;
}

function unique(list) {
  return [...new Set(list)];
}

/** The options a schema file describes, as an object type even when it declares none. */
function optionsType(path, depth) {
  const schema = JSON.parse(readFileSync(path, 'utf8'));
  return typeOf({ ...schema, type: 'object', properties: schema.properties ?? {}, additionalProperties: false }, depth);
}

export function generate() {
  const entries = schemaFiles(schemasDir).map(({ name, path }) => {
    const own = optionsType(path, 1);
    return `  ${propertyName(name)}: ScorerCommonOptions${own === '{ readonly [key: string]: never }' ? '' : ` & ${own}`};`;
  });
  return [
    '// Generated by scripts/build-scorer-types.mjs from schemas/scorers/**/*.schema.json: do not edit.',
    '// Run `npm run schemas` after changing a scorer schema.',
    "import type { Json } from '../case';",
    '',
    '/** The options every scorer takes (schemas/scorer-common.schema.json). */',
    `export type ScorerCommonOptions = ${optionsType(join(root, 'schemas', 'scorer-common.schema.json'), 0)};`,
    '',
    "/** Each scorer schema's options, as the scorer sees them (defaults filled in), by schema name. */",
    'export interface ScorerOptionsBySchema {',
    ...entries,
    '}',
    '',
  ].join('\n');
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const text = generate();
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(target, 'utf8');
    } catch {
      // missing: stale
    }
    if (current !== text) {
      console.error(`${relative(root, target)} is stale: run \`npm run schemas\``);
      process.exit(1);
    }
  } else {
    writeFileSync(target, text);
    console.log(`wrote ${relative(root, target)}`);
  }
}
