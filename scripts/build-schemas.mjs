// Composes schemas/run-config.schema.json from the scorer schemas and the EvalBench key table
// (core/config/evalbenchKeys.json): rewrites its `$defs` (one entry per scorer, the common options, the
// case, and the two forms of `scorers:` for each config family), the EvalBench keys of its top level
// and the family rule, and leaves the hand-written EvalLens keys alone. The result is self-contained, so other YAML tooling can validate with it offline.
// `--check` fails when the committed file is stale. Run with tsx: which scorers can be negated
// (`not-<key>`) is the engine's own rule (core/scorers/negation.ts), read from the registry.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { evalbenchScorers } from '../core/config/evalbenchCompat.ts';
import { isBooleanVerdict } from '../core/scorers/negation.ts';
import { BUILTIN_SCORERS } from '../core/scorers/builtinScorers.ts';

const root = new URL('..', import.meta.url).pathname;
const schemasDir = join(root, 'schemas');
const target = join(schemasDir, 'run-config.schema.json');
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

const scorerFiles = readdirSync(join(schemasDir, 'scorers'))
  .filter((f) => f.endsWith('.schema.json'))
  .sort();
const common = readJson(join(schemasDir, 'scorer-common.schema.json'));
const caseSchema = readJson(join(schemasDir, 'case.schema.json'));

const strip = ({ $schema, $id, ...rest }) => rest;
// The EvalHub collection shape, one file for a collection file and for `evalhub:` in a config.
const evalhubCollection = readJson(join(schemasDir, 'evalhub-collection.schema.json'));
const defs = { case: strip(caseSchema), scorer_common: strip(common), evalhub_collection: strip(evalhubCollection) };
const keys = [];
for (const file of scorerFiles) {
  const schema = readJson(join(schemasDir, 'scorers', file));
  const key = file.replace(/\.schema\.json$/, '');
  keys.push(key);
  defs[`scorer_${key}`] = strip(schema);
}

// The scorers an EvalBench config means by the same key (its `exact_match` compares SQL results):
// their options replace the EvalLens scorer's in that family, as the engine's registry does.
const variantsDir = join(schemasDir, 'scorers', 'evalbench');
const evalbenchVariants = readdirSync(variantsDir)
  .filter((f) => f.endsWith('.schema.json'))
  .sort()
  .map((f) => f.replace(/\.schema\.json$/, ''));
for (const key of evalbenchVariants)
  defs[`scorer_evalbench_${key}`] = strip(readJson(join(variantsDir, `${key}.schema.json`)));
const evalbenchKeys = [...keys, ...evalbenchVariants.filter((k) => !keys.includes(k))];
const evalbenchDef = (key) => (evalbenchVariants.includes(key) ? `scorer_evalbench_${key}` : `scorer_${key}`);

// `not-<key>` / `not_<key>` of each yes/no scorer of a family, unless that spelling is a scorer of its own.
const negations = (definitions) => {
  const registered = new Set(definitions.map((d) => d.key));
  return definitions
    .filter(isBooleanVerdict)
    .flatMap((d) => [`not-${d.key}`, `not_${d.key}`].filter((k) => !registered.has(k)).map((k) => [k, d.key]));
};
const negationDescription = (base) =>
  `The negation of \`${base}\`, with its options: passes where it fails and fails where it passes (score 1 − score); an error or a skip stays as it is.`;
const nativeNegations = negations(BUILTIN_SCORERS);
const evalbenchNegations = negations(evalbenchScorers());

const options = (key, extra = {}, def = `scorer_${key}`) => ({
  type: 'object',
  allOf: [{ $ref: '#/$defs/scorer_common' }, { $ref: `#/$defs/${def}` }],
  ...extra,
  unevaluatedProperties: false,
});
defs.scorers = {
  description:
    'The scorers to run: a mapping from scorer key to its options (`null` or `{}` when it needs none), or a list of `{type: <key>, name?, ...options}` for several instances of one scorer.',
  anyOf: [{ $ref: '#/$defs/scorer_map' }, { $ref: '#/$defs/scorer_list' }],
};
defs.scorer_map = {
  type: 'object',
  minProperties: 1,
  properties: {
    ...Object.fromEntries(
      keys.map((k) => [k, { description: defs[`scorer_${k}`].description, anyOf: [{ type: 'null' }, options(k)] }]),
    ),
    ...Object.fromEntries(
      nativeNegations.map(([k, base]) => [
        k,
        { description: negationDescription(base), anyOf: [{ type: 'null' }, options(base)] },
      ]),
    ),
  },
  additionalProperties: false,
};
defs.scorer_list = {
  type: 'array',
  minItems: 1,
  items: {
    type: 'object',
    required: ['type'],
    properties: { type: { enum: [...keys, ...nativeNegations.map(([k]) => k)], description: 'The scorer key.' } },
    allOf: [...keys.map((k) => [k, k]), ...nativeNegations].map(([k, base]) => ({
      if: { properties: { type: { const: k } }, required: ['type'] },
      then: options(base, { properties: { type: { const: k } } }),
    })),
  },
};

// EvalBench's table: its keys, the keys that make a config EvalBench's, the scorers EvalLens does not run.
const evalbench = readJson(join(root, 'core', 'config', 'evalbenchKeys.json'));
// A scorer EvalLens implements by now (it has a schema) is not one it leaves out.
const notRunScorers = Object.entries(evalbench.scorersNotRun).filter(([key]) => !keys.includes(key));
const notRunPattern = `^(${evalbench.scorerPrefixesNotRun.join('|')})`;
const notRunDescription = (what) =>
  `EvalBench's scorer: it ${what}. EvalLens does not run it: in an EvalBench config the key is accepted with an information notice and left out of the run.`;
// In an EvalBench config, its scorers EvalLens does not run are accepted (with any options) as well.
// In an EvalBench config, its scorers EvalLens does not run are accepted (with any options) as well,
// and `scorers` may be empty (EvalBench runs such configs for other work, e.g. seeding databases).
const evalbenchScorerEntry = (k) => ({
  description: defs[evalbenchDef(k)].description,
  anyOf: [{ type: 'null' }, options(k, {}, evalbenchDef(k))],
});
defs.scorer_map_evalbench = {
  type: 'object',
  properties: {
    ...Object.fromEntries(evalbenchKeys.map((k) => [k, evalbenchScorerEntry(k)])),
    ...Object.fromEntries(
      evalbenchNegations.map(([k, base]) => [
        k,
        { ...evalbenchScorerEntry(base), description: negationDescription(base) },
      ]),
    ),
    ...Object.fromEntries(notRunScorers.map(([k, what]) => [k, { description: notRunDescription(what) }])),
  },
  patternProperties: {
    [notRunPattern]: {
      description: `EvalBench's ${evalbench.scorerPrefixesNotRun.join(', ')} scorers: EvalLens does not run them; in an EvalBench config each key is accepted with an information notice and left out of the run.`,
    },
  },
  additionalProperties: false,
};
defs.scorer_list_evalbench = {
  type: 'array',
  items: {
    type: 'object',
    required: ['type'],
    properties: {
      type: {
        anyOf: [
          { enum: [...evalbenchKeys, ...evalbenchNegations.map(([k]) => k)] },
          { enum: notRunScorers.map(([k]) => k) },
          { type: 'string', pattern: notRunPattern },
        ],
        description: 'The scorer key.',
      },
    },
    allOf: [...evalbenchKeys.map((k) => [k, k]), ...evalbenchNegations].map(([k, base]) => ({
      if: { properties: { type: { const: k } }, required: ['type'] },
      then: options(base, { properties: { type: { const: k } } }, evalbenchDef(base)),
    })),
  },
};
defs.scorers_evalbench = {
  description: `${defs.scorers.description} In an EvalBench config, the keys mean EvalBench's scorers (its \`exact_match\` compares SQL execution results), EvalBench's scorers that EvalLens does not run are accepted too (an information notice each), and \`scorers\` may be empty or left out (a warning: nothing is scored).`,
  anyOf: [{ type: 'null' }, { $ref: '#/$defs/scorer_map_evalbench' }, { $ref: '#/$defs/scorer_list_evalbench' }],
};

/** The published schema of an EvalBench key: its own, or one made from its entry of the table. */
function evalbenchKeySchema(entry) {
  if (entry.schema !== undefined) return entry.schema;
  const what = entry.detail ?? entry.what;
  const handling =
    entry.handling === 'differs'
      ? `EvalLens cannot honour it: ${entry.differs} (a warning says so).`
      : 'EvalLens scores recorded outputs and does not run it; the key is accepted with an information notice.';
  return {
    type: entry.type,
    ...(entry.examples === undefined ? {} : { examples: entry.examples }),
    description: `EvalBench: ${what}. ${handling}`,
  };
}

const composed = readJson(target);
composed.$defs = defs;
const native = Object.fromEntries(
  Object.entries(composed.properties).filter(([key]) => evalbench.keys[key] === undefined),
);
native.scorers = {
  description:
    'The scorers to run (see `$defs/scorers`; an EvalBench config also accepts the EvalBench scorers EvalLens does not run, `$defs/scorers_evalbench`).',
  type: ['object', 'array', 'null'],
};
composed.properties = {
  ...native,
  ...Object.fromEntries(Object.entries(evalbench.keys).map(([key, entry]) => [key, evalbenchKeySchema(entry)])),
};
// EvalLens configs are strict; in an EvalBench config (one of the family keys) a key EvalBench has
// and this schema does not list is accepted, as EvalBench ignores keys it does not know.
const isEvalbench = { anyOf: evalbench.familyKeys.map((key) => ({ properties: { [key]: true }, required: [key] })) };
delete composed.additionalProperties;
composed.if = isEvalbench;
composed.then = { additionalProperties: true };
// An EvalLens config needs its scorers and its cases (`dataset` or inline `cases`), as the engine says.
const evallensRequired = {
  required: ['scorers'],
  anyOf: ['dataset', 'cases'].map((key) => ({ properties: { [key]: true }, required: [key] })),
};
composed.allOf = [
  {
    if: isEvalbench,
    then: { properties: { scorers: { $ref: '#/$defs/scorers_evalbench' } } },
    else: { properties: { scorers: { $ref: '#/$defs/scorers' } }, ...evallensRequired },
  },
];
composed.unevaluatedProperties = false;
const text = `${JSON.stringify(composed, null, 2)}\n`;
// The config's top-level keys alone, for the engine (core/config/parseRunConfig.ts): the bundles then carry
// this short list instead of the whole schema, which only a validator compiled at run time needs.
const keysTarget = join(root, 'core', 'config', 'runConfigKeys.generated.json');
const keysText = `${JSON.stringify(Object.keys(composed.properties))}\n`;
if (process.argv.includes('--check')) {
  for (const [file, expected] of [
    [target, text],
    [keysTarget, keysText],
  ]) {
    if (readFileSync(file, 'utf8') !== expected) {
      console.error(`${file.slice(root.length)} is stale: run \`npm run schemas\`.`);
      process.exit(1);
    }
  }
} else {
  writeFileSync(target, text);
  writeFileSync(keysTarget, keysText);
}
