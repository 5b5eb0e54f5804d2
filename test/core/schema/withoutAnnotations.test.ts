/**
 * Validators get EvalLens's own schemas without their annotations (core/schema/withoutAnnotations.ts).
 * They must check exactly as the published schemas do: the same verdicts, the same errors (apart from
 * the annotations inside the schemas an error points at) and the same defaults filled in.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ErrorObject } from 'ajv';
import { createAjv } from '../../../core/schema/ajv';
import { withoutAnnotations } from '../../../core/schema/withoutAnnotations';
import { BUILTIN_SCORERS } from '../../../core/scorers/builtinScorers';

const ROOT = join(__dirname, '..', '..', '..');
const readSchema = (name: string) =>
  JSON.parse(readFileSync(join(ROOT, 'schemas', name), 'utf8')) as Record<string, unknown>;

describe('withoutAnnotations', () => {
  it('drops descriptions, titles, examples and comments wherever a schema sits', () => {
    const schema = {
      title: 'T',
      description: 'd',
      $comment: 'c',
      type: 'object',
      properties: { a: { type: 'string', markdownDescription: 'm', examples: ['x'] } },
      allOf: [{ description: 'in allOf', required: ['a'] }],
      items: { title: 'item' },
      not: { description: 'not', required: ['b'] },
      $defs: { d: { description: 'def', type: 'number' } },
    };
    assert.deepEqual(withoutAnnotations(schema), {
      type: 'object',
      properties: { a: { type: 'string' } },
      allOf: [{ required: ['a'] }],
      items: {},
      not: { required: ['b'] },
      $defs: { d: { type: 'number' } },
    });
  });

  it('keeps properties named like annotations, and data: const, enum, default, x-evallens', () => {
    const schema = {
      properties: {
        description: { type: 'string', description: 'the config description' },
        title: { const: { description: 'a value, not an annotation' } },
        examples: { enum: [{ title: 'x' }], default: { description: 'kept' } },
        file: { type: 'string', 'x-evallens': { path: 'file', description: 'kept' } },
      },
      required: ['description', 'title'],
    };
    assert.deepEqual(withoutAnnotations(schema), {
      properties: {
        description: { type: 'string' },
        title: { const: { description: 'a value, not an annotation' } },
        examples: { enum: [{ title: 'x' }], default: { description: 'kept' } },
        file: { type: 'string', 'x-evallens': { path: 'file', description: 'kept' } },
      },
      required: ['description', 'title'],
    });
  });

  it('leaves the schema it was given as it was', () => {
    const schema = readSchema('run-config.schema.json');
    const before = JSON.stringify(schema);
    withoutAnnotations(schema);
    assert.equal(JSON.stringify(schema), before);
  });

  const WRONG: readonly unknown[] = [null, true, 0, -1, 1.5, '', 'x', [], [1, 'a'], {}, { a: 1 }];
  const keysOf = (schema: unknown): string[] => {
    if (typeof schema !== 'object' || schema === null) return [];
    const s = schema as { properties?: object; allOf?: unknown[] };
    return [...Object.keys(s.properties ?? {}), ...(s.allOf ?? []).flatMap(keysOf)];
  };
  const examplesOf = (schema: unknown): unknown[] => {
    if (typeof schema !== 'object' || schema === null) return [];
    const s = schema as { examples?: unknown[]; allOf?: unknown[] };
    return [...(s.examples ?? []), ...(s.allOf ?? []).flatMap(examplesOf)];
  };
  /** What an error says, with the schema it points at compared without annotations. */
  const said = (errors: ErrorObject[] | null | undefined) =>
    (errors ?? []).map(({ parentSchema: _parent, schema, ...rest }) => ({
      ...rest,
      schema: Array.isArray(schema) ? schema.map(withoutAnnotations) : withoutAnnotations(schema),
    }));

  const cases: [string, Record<string, unknown>, Record<string, unknown>[]][] = [
    ...BUILTIN_SCORERS.map((d): [string, Record<string, unknown>, Record<string, unknown>[]] => [
      `scorer ${d.key}`,
      d.schema as Record<string, unknown>,
      [readSchema('scorer-common.schema.json')],
    ]),
    ...['case', 'model-config', 'evalhub-collection', 'scorer-common'].map(
      (name): [string, Record<string, unknown>, Record<string, unknown>[]] => [
        name,
        readSchema(`${name}.schema.json`),
        [],
      ],
    ),
    ['run-config', readSchema('run-config.schema.json'), []],
  ];
  for (const [name, schema, references] of cases) {
    it(`${name}: same verdicts, errors and defaults with and without annotations`, () => {
      // The run config's validator fills in no defaults (its scorer entries' validators do).
      const useDefaults = name !== 'run-config';
      const compile = (s: object, refs: object[]) => {
        const ajv = createAjv({ useDefaults, verbose: true, ownSchemas: true });
        for (const r of refs) ajv.addSchema(r);
        return ajv.compile(s);
      };
      const full = compile(schema, references);
      const bare = compile(withoutAnnotations(schema), references.map(withoutAnnotations));
      const data = [
        undefined,
        {},
        ...examplesOf(schema),
        ...[...new Set([...keysOf(schema), 'unknown'])].flatMap((key) => WRONG.map((value) => ({ [key]: value }))),
      ];
      assert.ok(data.length > 2);
      for (const value of data) {
        const [a, b] = [structuredClone(value), structuredClone(value)];
        assert.equal(bare(b), full(a), JSON.stringify(value));
        assert.deepEqual(said(bare.errors), said(full.errors), JSON.stringify(value));
        assert.deepEqual(b, a, `defaults filled in ${JSON.stringify(value)}`);
      }
    });
  }
});
