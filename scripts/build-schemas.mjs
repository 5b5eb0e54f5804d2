// Composes schemas/run-config.schema.json from the scorer schemas: rewrites its `$defs` (one entry per
// scorer, the common options, the case, and the two forms of `scorers:`) and leaves the hand-written
// top level alone. The result is self-contained, so other YAML tooling can validate with it offline.
// `--check` fails when the committed file is stale.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const schemasDir = join(root, 'schemas');
const target = join(schemasDir, 'run-config.schema.json');
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

const scorerFiles = readdirSync(join(schemasDir, 'scorers')).filter((f) => f.endsWith('.schema.json')).sort();
const common = readJson(join(schemasDir, 'scorer-common.schema.json'));
const caseSchema = readJson(join(schemasDir, 'case.schema.json'));

const strip = ({ $schema, $id, ...rest }) => rest;
const defs = { case: strip(caseSchema), scorer_common: strip(common) };
const keys = [];
for (const file of scorerFiles) {
  const schema = readJson(join(schemasDir, 'scorers', file));
  const key = file.replace(/\.schema\.json$/, '');
  keys.push(key);
  defs[`scorer_${key}`] = strip(schema);
}

const options = (key, extra = {}) => ({
  type: 'object',
  allOf: [{ $ref: '#/$defs/scorer_common' }, { $ref: `#/$defs/scorer_${key}` }],
  ...extra,
  unevaluatedProperties: false,
});
defs.scorers = {
  description: 'The scorers to run: a mapping from scorer key to its options (`null` or `{}` when it needs none), or a list of `{type: <key>, name?, ...options}` for several instances of one scorer.',
  anyOf: [{ $ref: '#/$defs/scorer_map' }, { $ref: '#/$defs/scorer_list' }],
};
defs.scorer_map = {
  type: 'object',
  minProperties: 1,
  properties: Object.fromEntries(keys.map((k) => [k, { description: defs[`scorer_${k}`].description, anyOf: [{ type: 'null' }, options(k)] }])),
  additionalProperties: false,
};
defs.scorer_list = {
  type: 'array',
  minItems: 1,
  items: {
    type: 'object',
    required: ['type'],
    properties: { type: { enum: keys, description: 'The scorer key.' } },
    allOf: keys.map((k) => ({
      if: { properties: { type: { const: k } }, required: ['type'] },
      then: options(k, { properties: { type: { const: k } } }),
    })),
  },
};

const composed = readJson(target);
composed.$defs = defs;
const text = `${JSON.stringify(composed, null, 2)}\n`;
if (process.argv.includes('--check')) {
  if (readFileSync(target, 'utf8') !== text) {
    console.error('schemas/run-config.schema.json is stale: run `npm run schemas`.');
    process.exit(1);
  }
} else {
  writeFileSync(target, text);
}
