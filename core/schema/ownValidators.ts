import type { ValidateFunction } from 'ajv';
import type Ajv2020 from 'ajv/dist/2020';
import commonSchema from '../../schemas/scorer-common.schema.json';
import type { ScorerDefinition } from '../scorers/scorer';
import { createAjv, type OwnAjvOptions } from './ajv';
import { precompiledValidators } from './precompiledValidators';
import { withoutAnnotations } from './withoutAnnotations';

/**
 * The validators of EvalLens's own schemas (schemas/): what each one checks and with which ajv options,
 * in one place, so that the bundles can carry them compiled (scripts/ownValidatorsCode.ts writes ajv's
 * standalone code for every spec here at build time; esbuild.mjs puts it in place of
 * precompiledValidators.ts) and a process starts without compiling a schema. Run from the sources (the
 * tests, tsx) they compile at first use, as before; test/core/schema/precompiledValidators.test.ts
 * checks that both answer alike, errors included.
 */
export interface OwnSchemaSpec {
  /** Unique among the specs: the precompiled validator's name. */
  readonly name: string;
  readonly options: OwnAjvOptions;
  readonly schema: object;
  /** Schemas `schema` refers to by `$id`, added to the ajv instance first. */
  readonly references?: readonly object[];
}

/* eslint-disable @typescript-eslint/no-require-imports -- each schema is read when its validator is compiled */
// A spec's schema is a getter: in the bundles a spec's validator is precompiled, so its schema (an object
// literal of up to 260 KB there: the run config's) is never set up unless a validator is compiled at run time.
// Validators get the schemas without their annotations (withoutAnnotations.ts): they check the same.
type SchemaFile<T> = () => T;
const schemas = {
  case: (() => require('../../schemas/case.schema.json')) as SchemaFile<
    typeof import('../../schemas/case.schema.json')
  >,
  collection: (() => require('../../schemas/evalhub-collection.schema.json')) as SchemaFile<
    typeof import('../../schemas/evalhub-collection.schema.json')
  >,
  compareReport: (() => require('../../schemas/compare-report.schema.json')) as SchemaFile<
    typeof import('../../schemas/compare-report.schema.json')
  >,
  modelConfig: (() => require('../../schemas/model-config.schema.json')) as SchemaFile<
    typeof import('../../schemas/model-config.schema.json')
  >,
  report: (() => require('../../schemas/report.schema.json')) as SchemaFile<
    typeof import('../../schemas/report.schema.json')
  >,
  runConfig: (() => require('../../schemas/run-config.schema.json')) as SchemaFile<
    typeof import('../../schemas/run-config.schema.json')
  >,
};
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * The published run-config schema with `scorers:` narrowed to its shape: each entry is then checked
 * against its own scorer's schema (readScorers), which words its mistakes precisely, so compiling
 * every scorer's definitions a second time here would only cost start-up time.
 */
export function runConfigTopLevelSpec(): OwnSchemaSpec {
  return {
    name: 'run-config-top-level',
    options: { useDefaults: false, verbose: true, ownSchemas: true },
    get schema() {
      // `allOf` picks the scorer forms of the config's family, which readScorers checks instead.
      const { $defs, properties, allOf: _scorersOfFamily, ...rest } = withoutAnnotations(schemas.runConfig());
      return {
        ...rest,
        properties: { ...properties, scorers: { type: ['object', 'array', 'null'] } },
        $defs: { case: $defs.case, evalhub_collection: $defs.evalhub_collection },
      };
    },
  };
}

export function caseSpec(): OwnSchemaSpec {
  return {
    name: 'case',
    options: { useDefaults: false, ownSchemas: true },
    get schema() {
      return withoutAnnotations(schemas.case());
    },
  };
}

export function modelConfigSpec(): OwnSchemaSpec {
  return {
    name: 'model-config',
    options: { useDefaults: true, verbose: true },
    get schema() {
      return withoutAnnotations(schemas.modelConfig());
    },
  };
}

export function evalhubCollectionSpec(): OwnSchemaSpec {
  return {
    name: 'evalhub-collection',
    options: { useDefaults: false, verbose: true, ownSchemas: true },
    get schema() {
      return withoutAnnotations(schemas.collection());
    },
  };
}

/** A report.json (`evallens report`, the results view's read): its `comparison` is a compare report. */
export function reportSpec(): OwnSchemaSpec {
  return {
    name: 'report',
    options: { useDefaults: false },
    get schema() {
      return withoutAnnotations(schemas.report());
    },
    get references() {
      return [withoutAnnotations(schemas.compareReport())];
    },
  };
}

/**
 * The options of one scorer: the common options plus its own, nothing else; defaults are filled in. Its
 * schema and references are getters, as the fixed specs' are: a process whose validators are precompiled
 * reads only the name, and walks no schema to drop its annotations.
 */
export function scorerOptionsSpec(definition: Pick<ScorerDefinition, 'key' | 'schema'>): OwnSchemaSpec {
  return {
    // Key and schema: EvalBench's `exact_match` has a schema of its own.
    name: `scorer-options ${definition.key} ${String(definition.schema['$id'])}`,
    options: { useDefaults: true, verbose: true, ownSchemas: true },
    get schema() {
      const { $id: _id, $schema: _schema, ...own } = withoutAnnotations(definition.schema);
      return {
        type: 'object',
        allOf: [{ $ref: String(commonSchema.$id) }, own],
        properties: { type: { const: definition.key } },
        unevaluatedProperties: false,
      };
    },
    get references() {
      return [commonOptionsSchema()];
    },
  };
}

let commonOptions: object | undefined;
/** The common options' schema as validators get it, made once (every scorer's spec refers to the same object). */
function commonOptionsSchema(): object {
  commonOptions ??= withoutAnnotations(commonSchema);
  return commonOptions;
}

/** The validator of a spec: precompiled in the bundles, else compiled now (each call: a validator of its own). */
export function ownValidator(spec: OwnSchemaSpec): ValidateFunction {
  return precompiledValidators?.[spec.name]?.() ?? compileOwn(spec);
}

/** Compiles a spec with ajv now (what the bundles were spared). */
export function compileOwn(spec: OwnSchemaSpec): ValidateFunction {
  return ajvFor(spec).compile(spec.schema);
}

/** The ajv instance a spec compiles with; `source` keeps the code, for standalone validators. */
export function ajvFor(spec: OwnSchemaSpec, extra: { readonly source?: boolean } = {}): Ajv2020 {
  const ajv = createAjv({ ...spec.options, ...(extra.source === true ? { source: true } : {}) });
  for (const reference of spec.references ?? []) ajv.addSchema(reference);
  return ajv;
}
