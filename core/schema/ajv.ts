import type { Options } from 'ajv';
import type Ajv2020 from 'ajv/dist/2020';
import type addFormats from 'ajv-formats';
import userSchemaOptions from './userSchemaAjvOptions.json';

/**
 * ajv and its formats, loaded when a schema is first compiled, not at start-up: the bundles carry EvalLens's
 * own validators precompiled (core/schema/ownValidators.ts), so `evallens validate` of a config without a
 * json_schema scorer never compiles one, and loading ajv's ~170 KB was a twentieth of its CPU time. The
 * bundles read it from a file of its own (core/schema/ajvLibrary.ts, dist/vendor-ajv.js).
 */
function ajvLibrary(): { readonly Ajv: typeof Ajv2020; readonly formats: typeof addFormats } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const library = require('./ajvLibrary') as typeof import('./ajvLibrary');
  return { Ajv: library.Ajv2020, formats: library.addFormats };
}

/** How EvalLens's own schemas are compiled (core/schema/ownValidators.ts). */
export interface OwnAjvOptions {
  readonly useDefaults: boolean;
  readonly verbose?: boolean;
  readonly ownSchemas?: boolean;
}

/**
 * One ajv instance per purpose, made once. `useDefaults` fills option defaults in so scorers never
 * re-check what their schema says; `strict` refuses schema keywords ajv does not know; `verbose` keeps
 * the failing data and schema on each error so messages can name what was seen.
 *
 * `ownSchemas`: the instance compiles only EvalLens's own schemas (schemas/), which
 * test/core/schema/ownSchemas.test.ts checks against the JSON Schema meta-schema. It then skips that
 * check and ajv's code optimization pass at compile time: together they were three quarters of the
 * cost of compiling the run-config schema, paid on the language server's first diagnostics.
 */
export function createAjv(options: OwnAjvOptions & { readonly source?: boolean }): Ajv2020 {
  const own = options.ownSchemas === true ? { validateSchema: false } : {};
  // `source`: keep the generated code, for standalone validators made at build time
  // (scripts/ownValidatorsCode.ts), where the optimization pass is paid once and makes the code smaller.
  const code = {
    ...(options.ownSchemas === true && options.source !== true ? { optimize: false } : {}),
    ...(options.source === true ? { source: true } : {}),
  };
  const { Ajv, formats } = ajvLibrary();
  const ajv = new Ajv({
    allErrors: true,
    strict: true,
    useDefaults: options.useDefaults,
    allowUnionTypes: true,
    verbose: options.verbose ?? false,
    ...own,
    ...(Object.keys(code).length > 0 ? { code } : {}),
  });
  formats(ajv);
  ajv.addKeyword({ keyword: 'markdownDescription', schemaType: 'string' });
  ajv.addKeyword({ keyword: 'x-evallens', schemaType: 'object' });
  return ajv;
}

/**
 * The ajv that compiles users' schemas (the json_schema scorer). Its options are in
 * userSchemaAjvOptions.json, which scripts/build-meta-validator.mjs reads too, so the meta-schema
 * validator generated at build time answers as this one would. `strict` refuses unknown keywords; the
 * strict style checks stay off, as `{"required": ["a"]}` without `"type": "object"`, `required` in an
 * `anyOf` branch and overlapping `properties` / `patternProperties` are all valid schemas.
 */
export function createUserSchemaAjv(extra: Options): Ajv2020 {
  const { Ajv, formats } = ajvLibrary();
  const ajv = new Ajv({ ...userSchemaOptions, ...extra });
  formats(ajv);
  ajv.addKeyword({ keyword: 'markdownDescription', schemaType: 'string' });
  return ajv;
}
