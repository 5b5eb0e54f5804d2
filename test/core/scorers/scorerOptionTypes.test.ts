import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import ts from 'typescript';
// @ts-expect-error -- a build script in plain JavaScript; its exports are typed here by use
import { generate, typeOf } from '../../../scripts/build-scorer-types.mjs';

const typeOfSchema = typeOf as (schema: unknown, depth?: number) => string;
const containsSchema = JSON.parse(readFileSync('schemas/scorers/contains.schema.json', 'utf8')) as {
  properties: Record<string, unknown>;
};

/** The diagnostics of `code` type-checked alone (no lib: the snippets need none), as their messages. */
function typeErrors(code: string): string[] {
  const file = 'snippet.ts';
  const host = ts.createCompilerHost({});
  const original = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version) =>
    name === file ? ts.createSourceFile(file, code, version) : original(name, version);
  const program = ts.createProgram([file], { noLib: true, strict: true, noEmit: true, types: [] }, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file?.fileName === file)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

/** A scorer's use of `case_sensitive` checked against the options type generated from `schema`. */
function useOfCaseSensitive(schema: unknown): string[] {
  return typeErrors(
    `type Json = unknown;\ntype Options = ${typeOfSchema(schema, 0)};\ndeclare const options: Options;\nexport const sensitive: boolean = options.case_sensitive;\n`,
  );
}

describe('scorer options typed from their schemas', () => {
  it("a scorer reading contains' case_sensitive compiles against the schema as it is", () => {
    assert.deepEqual(useOfCaseSensitive(containsSchema), []);
  });

  it('renaming the option in the schema fails the type check where the scorer reads the old name', () => {
    const { case_sensitive: option, ...others } = containsSchema.properties;
    const renamed = { ...containsSchema, properties: { ...others, ignore_case: option } };
    const errors = useOfCaseSensitive(renamed);
    assert.equal(errors.length, 1);
    assert.match(errors[0] ?? '', /Property 'case_sensitive' does not exist/);
  });

  it('retyping the option in the schema fails the type check too', () => {
    const retyped = {
      ...containsSchema,
      properties: { ...containsSchema.properties, case_sensitive: { enum: ['yes', 'no'], default: 'yes' } },
    };
    assert.match(useOfCaseSensitive(retyped).join('\n'), /not assignable to type 'boolean'/);
  });

  it('an option with a default is always present (ajv fills it in); one without is optional', () => {
    const type = typeOfSchema(containsSchema, 0);
    assert.match(type, /readonly case_sensitive: boolean;/);
    assert.match(type, /readonly match: 'all' \| 'any';/);
    assert.match(type, /readonly value\?: string;/);
    assert.match(type, /readonly values\?: readonly string\[\];/);
  });

  it('the committed core/scorers/options.generated.ts is what the schemas generate', () => {
    assert.equal(readFileSync('core/scorers/options.generated.ts', 'utf8'), (generate as () => string)());
  });
});
