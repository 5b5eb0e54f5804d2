/**
 * The published run-config schema (schemas/run-config.schema.json) is the engine's truth: for every
 * run config EvalLens ships or tests with, the schema's verdict (what an editor validating with the
 * published schema shows as errors) and the engine's verdict (parseRunConfig's schema-shaped errors)
 * agree. A config both accept, or both refuse.
 *
 * Which engine errors are schema-shaped, i.e. what a JSON Schema over the config's data can say:
 * - `schema`, `unknown-key`, `missing-required`, `unknown-scorer`: a value of the wrong type, range,
 *   pattern or enum, a key not allowed, a required key absent, a scorer key that does not exist;
 * - `missing-dataset`: an EvalLens config names neither `dataset` nor `cases` (a `required` choice);
 * - `conflicting-options` when it comes from the schema (two options of one `oneOf` given together:
 *   "… takes "a" or "b", not both"), not from a scorer's `create`.
 *
 * Not schema-shaped, so left out of the engine's side: whatever depends on more than the data —
 * files (`missing-file`, `not-regular`), the environment (`unresolved-variable`, `${VAR}` values),
 * YAML syntax and aliases, what a scorer's `create` finds in an option's content (a regex that does
 * not compile, a JSON Schema that is not one: `invalid-option`, and its `conflicting-options`), and
 * rules across keys the schema does not model: a threshold outside its scorer's scale
 * (`threshold-off-scale`), a scorer that needs `num_trials` ≥ 2 (`needs-trials`), duplicate scorer
 * names or case ids, pass criteria that cannot apply, and the target's request checks (`target`).
 * A pair of options a schema forbids together with `not: {required: [a, b], …}` (skills_trajectory's
 * `enforce_order: true` with `allow_extra_skills: true`) is a schema conflict too: "… takes … , not both".
 * Warnings and notices are no verdict on either side.
 *
 * The configs: every `*.eval.yaml` and every YAML document the language server takes for a run config
 * (server/analysis/documentKind.ts) under examples/ and test/, and EvalBench's own run configs where
 * its checkouts are present (/work/evalbench, /work/evalbench-current; skipped when absent).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { stringify } from 'yaml';
import type { ConfigFamily } from '../core/config/configFamily';
import { scorerSetFor } from '../core/config/evalbenchCompat';
import { parseRunConfig } from '../core/config/parseRunConfig';
import type { Problem } from '../core/problem';
import { YamlSource } from '../core/config/yamlSource';
import { documentKind } from '../server/analysis/documentKind';

const ROOT = join(__dirname, '..');
const SCHEMA_SHAPED = new Set(['schema', 'unknown-key', 'missing-required', 'unknown-scorer', 'missing-dataset']);

/** The published schema as an editor's validator takes it: unknown keywords (markdownDescription) are annotations. */
function publishedValidator() {
  const ajv = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true });
  addFormats(ajv);
  return ajv.compile(JSON.parse(readFileSync(join(ROOT, 'schemas', 'run-config.schema.json'), 'utf8')) as object);
}

function yamlFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (name === 'node_modules' || name.startsWith('.')) continue;
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.ya?ml$/i.test(name)) found.push(path);
    }
  };
  walk(dir);
  return found;
}

/** A run config as the language server tells them: by its name, or a YAML document with a config's top-level keys. */
function runConfigs(dir: string): string[] {
  return yamlFiles(dir).filter(
    (file) => documentKind(`file://${file}`, 'yaml', readFileSync(file, 'utf8'), false) === 'config',
  );
}

/** A conflict the options' schema found (schemaMessages words a `oneOf` so), not one a scorer's `create` found. */
function isSchemaConflict(problem: Problem): boolean {
  return problem.code === 'conflicting-options' && / takes .+, not both$/.test(problem.message);
}

export interface Verdicts {
  readonly schema: string[];
  readonly engine: string[];
}

const validate = publishedValidator();

/** Both verdicts on one config text: each side's errors (empty: accepted). */
export function verdicts(text: string, file: string): Verdicts {
  const data = new YamlSource(text, file).toData().value;
  const schema = validate(data)
    ? []
    : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
  // Every file exists and every variable is set: neither is the schema's business.
  const parsed = parseRunConfig(text, file, new Proxy({}, { get: () => 'x' }), { fileExists: () => true });
  const engine = parsed.problems
    .filter((p) => p.severity === 'error' && (SCHEMA_SHAPED.has(p.code) || isSchemaConflict(p)))
    .map((p) => `${p.code}: ${p.message}`);
  return { schema, engine };
}

function assertAgree(file: string, text = readFileSync(file, 'utf8')): void {
  const { schema, engine } = verdicts(text, file);
  assert.equal(
    schema.length === 0,
    engine.length === 0,
    `${relative(ROOT, file)}: the schema ${schema.length === 0 ? 'accepts' : `refuses (${schema.slice(0, 5).join('; ')})`}, the engine ${engine.length === 0 ? 'accepts' : `refuses (${engine.join('; ')})`}`,
  );
}

const PUBLISHED = JSON.parse(readFileSync(join(ROOT, 'schemas', 'run-config.schema.json'), 'utf8')) as {
  $defs: Record<string, { properties?: Record<string, unknown> }>;
};

/** The head of a config of each family: its cases. */
const HEAD: Record<ConfigFamily, string> = { evallens: 'dataset: d.jsonl\n', evalbench: 'dataset_config: d.json\n' };

/**
 * Configs on which the two once disagreed, each with the verdict both give now (`accept`: no error
 * on either side).
 */
const CASES: readonly { readonly name: string; readonly text: string; readonly verdict: 'accept' | 'refuse' }[] = [
  // The schema had only EvalLens's exact_match, which has no such option.
  {
    name: "EvalBench's exact_match takes truncate_execution_outputs",
    text: 'dataset_config: d.json\nscorers:\n  exact_match: {truncate_execution_outputs: 50}\n',
    verdict: 'accept',
  },
  {
    name: "EvalBench's exact_match in the list form",
    text: 'dataset_config: d.json\nscorers:\n  - type: exact_match\n    truncate_execution_outputs: 50\n',
    verdict: 'accept',
  },
  {
    name: "EvalLens's exact_match has no truncate_execution_outputs",
    text: 'dataset: d.jsonl\nscorers:\n  exact_match: {truncate_execution_outputs: 50}\n',
    verdict: 'refuse',
  },
  {
    name: "EvalBench's exact_match has no normalize",
    text: 'dataset_config: d.json\nscorers:\n  exact_match: {normalize: true}\n',
    verdict: 'refuse',
  },
  // The engine requires scorers and cases in an EvalLens config; the schema required nothing.
  { name: 'an EvalLens config without scorers', text: 'dataset: d.jsonl\n', verdict: 'refuse' },
  { name: 'an EvalLens config without dataset or cases', text: 'scorers:\n  exact_match: {}\n', verdict: 'refuse' },
  {
    name: 'an EvalLens config with inline cases',
    text: 'cases:\n  - {id: a, input: q, expected: a}\nscorers:\n  exact_match: {}\n',
    verdict: 'accept',
  },
  { name: 'an EvalBench config without scorers (a warning)', text: 'dataset_config: d.json\n', verdict: 'accept' },
  {
    name: 'an EvalBench config without dataset (a warning)',
    text: 'orchestrator: x\nscorers:\n  exact_match: {}\n',
    verdict: 'accept',
  },
  // The schema refused `scorers:` left empty in an EvalBench config, which the engine only warns about.
  {
    name: 'an EvalBench config with empty scorers (a warning)',
    text: 'dataset_config: d.json\nscorers:\n',
    verdict: 'accept',
  },
  {
    name: 'an EvalBench config with scorers {} (a warning)',
    text: 'dataset_config: d.json\nscorers: {}\n',
    verdict: 'accept',
  },
  // The engine accepted `scorers: {}` and `[]` in an EvalLens config, and ran nothing; the schema refused them.
  { name: 'an EvalLens config with scorers {}', text: 'dataset: d.jsonl\nscorers: {}\n', verdict: 'refuse' },
  { name: 'an EvalLens config with scorers []', text: 'dataset: d.jsonl\nscorers: []\n', verdict: 'refuse' },
  { name: 'an EvalLens config with empty scorers', text: 'dataset: d.jsonl\nscorers:\n', verdict: 'refuse' },
  { name: 'options that are not a mapping', text: 'dataset: d.jsonl\nscorers:\n  exact_match: 5\n', verdict: 'refuse' },
  {
    name: 'an unknown top-level key in an EvalLens config',
    text: 'dataset: d.jsonl\nfoo: 1\nscorers:\n  exact_match: {}\n',
    verdict: 'refuse',
  },
  {
    name: 'an unknown top-level key in an EvalBench config (a warning)',
    text: 'dataset_config: d.json\nfoo: 1\nscorers:\n  exact_match: {}\n',
    verdict: 'accept',
  },
  {
    name: 'an EvalBench scorer family EvalLens does not run',
    text: 'dataset_config: d.json\nscorers:\n  mcp_foo: {a: 1}\n',
    verdict: 'accept',
  },
  {
    name: 'an EvalBench scorer family EvalLens does not run, in the list form',
    text: 'dataset_config: d.json\nscorers:\n  - type: dbt_x\n    a: 1\n',
    verdict: 'accept',
  },
  {
    name: 'an EvalBench scorer EvalLens does not run, in an EvalLens config',
    text: 'dataset: d.jsonl\nscorers:\n  mcp_foo: {}\n',
    verdict: 'refuse',
  },
  {
    name: 'two options of one oneOf given together',
    text: 'dataset: d.jsonl\nscorers:\n  regex: {pattern: a, patterns: [b]}\n',
    verdict: 'refuse',
  },
  // The engine's scorer refused this pair only when it was prepared; the options' schema now says it.
  {
    name: 'skills_trajectory with enforce_order and allow_extra_skills',
    text: 'dataset: d.jsonl\nscorers:\n  skills_trajectory: {enforce_order: true, allow_extra_skills: true}\n',
    verdict: 'refuse',
  },
  {
    name: 'skills_trajectory with enforce_order and allow_extra_skills, in an EvalBench config',
    text: 'dataset_config: d.json\nscorers:\n  - type: skills_trajectory\n    enforce_order: true\n    allow_extra_skills: true\n',
    verdict: 'refuse',
  },
  {
    name: 'skills_trajectory with enforce_order and allow_extra_skills: false',
    text: 'dataset: d.jsonl\nscorers:\n  skills_trajectory: {enforce_order: true, allow_extra_skills: false}\n',
    verdict: 'accept',
  },
  { name: 'a list entry without type', text: 'dataset: d.jsonl\nscorers:\n  - name: a\n', verdict: 'refuse' },
  { name: 'an unknown scorer key', text: 'dataset_config: d.json\nscorers:\n  llmrater_x: {}\n', verdict: 'refuse' },
  // The engine negates any yes/no scorer written `not-<key>` or `not_<key>`; the schema listed none.
  {
    name: 'a negated scorer (not-)',
    text: 'dataset: d.jsonl\nscorers:\n  not-contains: {value: x}\n',
    verdict: 'accept',
  },
  {
    name: 'a negated scorer (not_), in the list form',
    text: 'dataset: d.jsonl\nscorers:\n  - type: not_regex\n    pattern: a\n',
    verdict: 'accept',
  },
  {
    name: 'a negated scorer takes its base options only',
    text: 'dataset: d.jsonl\nscorers:\n  not-contains: {value: x, pattern: a}\n',
    verdict: 'refuse',
  },
  {
    name: 'a scorer that is not yes/no has no negation',
    text: 'dataset: d.jsonl\nscorers:\n  not-edit_similarity: {}\n',
    verdict: 'refuse',
  },
  {
    name: 'a negated scorer in an EvalBench config',
    text: 'dataset_config: d.json\nscorers:\n  not-contains: {value: x}\n',
    verdict: 'accept',
  },
  {
    name: 'EvalBench scorers on 0–100 have no negation',
    text: 'dataset_config: d.json\nscorers:\n  not-regexp_matcher: {}\n',
    verdict: 'refuse',
  },
];

describe('the published schema and the engine agree', () => {
  for (const c of CASES) {
    it(`${c.verdict}s ${c.name}`, () => {
      const { schema, engine } = verdicts(c.text, '/evals/c.eval.yaml');
      assert.deepEqual(
        { schema: schema.length === 0, engine: engine.length === 0 },
        { schema: c.verdict === 'accept', engine: c.verdict === 'accept' },
        `schema: ${schema.join('; ')}; engine: ${engine.join('; ')}`,
      );
    });
  }

  for (const family of ['evallens', 'evalbench'] as const) {
    const registry = scorerSetFor(family).registry;
    const map = PUBLISHED.$defs[family === 'evalbench' ? 'scorer_map_evalbench' : 'scorer_map'];
    it(`publishes every scorer the engine registers for ${family} configs, with the engine's options`, () => {
      for (const definition of registry.all()) {
        const entry = map?.properties?.[definition.key] as { anyOf?: { allOf?: { $ref: string }[] }[] } | undefined;
        const ref = entry?.anyOf?.[1]?.allOf?.[1]?.$ref;
        assert.ok(ref !== undefined, `${definition.key} is not in the published scorers of ${family} configs`);
        const { $schema: _s, $id: _i, ...own } = definition.schema as Record<string, unknown>;
        assert.deepEqual(
          PUBLISHED.$defs[ref.replace('#/$defs/', '')],
          own,
          `${family} ${definition.key}: the published options are not the engine's`,
        );
      }
    });
    it(`agrees on every example of every scorer's options in ${family} configs, both forms`, () => {
      for (const definition of registry.all()) {
        for (const example of (definition.schema as { examples?: unknown[] }).examples ?? []) {
          const options = example as Record<string, unknown>;
          for (const scorers of [{ [definition.key]: options }, [{ type: definition.key, ...options }]]) {
            const text = `${HEAD[family]}num_trials: 3\n${stringify({ scorers })}`;
            const { schema, engine } = verdicts(text, '/evals/c.eval.yaml');
            assert.equal(
              schema.length === 0,
              engine.length === 0,
              `${text}\nschema: ${schema.join('; ')}\nengine: ${engine.join('; ')}`,
            );
          }
        }
      }
    });
  }

  for (const dir of ['examples', 'test']) {
    const files = runConfigs(join(ROOT, dir));
    it(`finds the run configs of ${dir}/`, () => assert.ok(files.length >= 5, `${files.length} found`));
    for (const file of files) it(relative(ROOT, file), () => assertAgree(file));
  }
  for (const checkout of ['/work/evalbench', '/work/evalbench-current']) {
    const present = existsSync(checkout);
    describe(
      `EvalBench's run configs in ${checkout}`,
      { skip: present ? false : `${checkout} is not on this machine` },
      () => {
        for (const file of present ? runConfigs(checkout) : []) it(relative(checkout, file), () => assertAgree(file));
      },
    );
  }
});
