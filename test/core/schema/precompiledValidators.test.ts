/**
 * The bundles carry EvalLens's own validators compiled at build time (ajv's standalone code,
 * scripts/ownValidatorsCode.ts), the sources compile them at first use (core/schema/ownValidators.ts).
 * Both must answer alike: the same verdict, the same errors (every field: messages and positions are
 * made from them) and the same defaults filled in, on the examples and on a spread of wrong values.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { ValidateFunction } from 'ajv';
import { parse } from 'yaml';
import { compileOwn, type OwnSchemaSpec } from '../../../core/schema/ownValidators';
import { BUILTIN_SCORERS } from '../../../core/scorers/builtinScorers';
import { OWN_VALIDATORS_FILE, ownValidatorSpecs, ownValidatorsBuild } from '../../../scripts/ownValidatorsCode';

const ROOT = join(__dirname, '..', '..', '..');
const specs = ownValidatorSpecs();

/** The generated module, run as the bundles run it, beside the file of the validators' code. */
function loadPrecompiled(
  file = ownValidatorsBuild(specs).file,
): Readonly<Record<string, () => ValidateFunction | undefined>> {
  const { module: code } = ownValidatorsBuild(specs);
  const dir = mkdtempSync(join(tmpdir(), 'evallens-validators-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, OWN_VALIDATORS_FILE), file);
  const module = { exports: {} as { precompiledValidators?: Record<string, () => ValidateFunction | undefined> } };
  // The module esbuild.mjs puts in the bundles, run here on its own (its __dirname: where the file is).
  new Function('require', 'module', 'exports', '__dirname', code)(
    createRequire(__filename),
    module,
    module.exports,
    dir,
  );
  assert.ok(module.exports.precompiledValidators !== undefined);
  return module.exports.precompiledValidators;
}

const WRONG_VALUES: readonly unknown[] = [null, true, 0, -1, 1.5, 1e9, '', 'x', [], [1, 'a'], {}, { a: 1 }];

/** Top-level keys a schema names (its own and those of `allOf` branches), for the spread of wrong values. */
function keysOf(schema: unknown): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const record = schema as { properties?: object; allOf?: unknown[] };
  return [...Object.keys(record.properties ?? {}), ...(record.allOf ?? []).flatMap(keysOf)];
}

function corpus(spec: OwnSchemaSpec, base: Record<string, unknown>, realistic: readonly unknown[]): unknown[] {
  const common = JSON.parse(readFileSync(join(ROOT, 'schemas', 'scorer-common.schema.json'), 'utf8')) as object;
  const keys = new Set([...keysOf(spec.schema), ...(spec.references === undefined ? [] : keysOf(common)), 'unknown']);
  const spread = [...keys].flatMap((key) => WRONG_VALUES.map((value) => ({ ...base, [key]: value })));
  return [undefined, null, 'x', [], {}, base, ...realistic, ...spread];
}

function exampleConfigs(): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.eval\.ya?ml$/.test(entry.name))
        found.push(parse(readFileSync(path, 'utf8')) as Record<string, unknown>);
    }
  };
  walk(join(ROOT, 'examples'));
  return found;
}

function scorerEntries(configs: readonly Record<string, unknown>[]): Map<string, unknown[]> {
  const byKey = new Map<string, unknown[]>();
  for (const config of configs) {
    const scorers = config['scorers'];
    if (typeof scorers !== 'object' || scorers === null || Array.isArray(scorers)) continue;
    for (const [key, options] of Object.entries(scorers)) byKey.set(key, [...(byKey.get(key) ?? []), options]);
  }
  return byKey;
}

function exampleCases(): unknown[] {
  const text = readFileSync(join(ROOT, 'examples', 'agent', 'traces.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}

describe('precompiled validators of our own schemas', () => {
  const precompiled = loadPrecompiled();
  const configs = exampleConfigs();
  const entries = scorerEntries(configs);

  it('cover the run config, the case, the model config, the EvalHub collection and every built-in scorer', () => {
    for (const name of ['run-config-top-level', 'case', 'model-config', 'evalhub-collection'])
      assert.ok(name in precompiled, name);
    for (const definition of BUILTIN_SCORERS)
      assert.ok(
        specs.some((spec) => spec.name.startsWith(`scorer-options ${definition.key} `)),
        definition.key,
      );
    assert.equal(Object.keys(precompiled).length, specs.length);
  });

  it('make no validator from a file of another build (compiled at run time instead)', () => {
    // The same validators in another order: every offset in the index now points at other code.
    const other = loadPrecompiled(ownValidatorsBuild([...specs].reverse()).file);
    for (const spec of specs) assert.equal(other[spec.name]?.(), undefined, spec.name);
  });

  for (const spec of specs) {
    it(`${spec.name}: same verdict, errors and defaults as compiled at run time`, () => {
      const key = /^scorer-options (\S+) /.exec(spec.name)?.[1];
      const realistic =
        spec.name === 'run-config-top-level'
          ? configs.map((config) => ({ ...config, scorers: {} }))
          : spec.name === 'case'
            ? exampleCases()
            : key === undefined
              ? []
              : (entries.get(key) ?? []).map((options) => ({ ...(options as object), type: key }));
      const base = key === undefined ? {} : { type: key };
      const runtime = compileOwn(spec);
      const maker = precompiled[spec.name];
      assert.ok(maker !== undefined);
      const built = maker();
      assert.ok(built !== undefined, 'read from the file written with the index');
      for (const data of corpus(spec, base, realistic)) {
        const [a, b] = [structuredClone(data), structuredClone(data)];
        const verdict = runtime(a);
        assert.equal(built(b), verdict, JSON.stringify(data));
        assert.deepEqual(built.errors ?? null, runtime.errors ?? null, JSON.stringify(data));
        assert.deepEqual(b, a, `defaults filled in ${JSON.stringify(data)}`);
      }
    });
  }
});
