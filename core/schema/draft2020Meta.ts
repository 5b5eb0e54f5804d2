import type { ErrorObject } from 'ajv';
import { validate as generatedValidate } from './draft2020MetaValidator.generated';

/** ajv's calling convention for a compiled validator: errors of the last call on the function. */
interface CompiledValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

const validateMeta = generatedValidate as unknown as CompiledValidator;

/**
 * The errors of a schema against the JSON Schema draft 2020-12 meta-schema, as ajv's own
 * `validateSchema` would give them with the json_schema scorer's options (none when it is valid).
 * The validator is ajv's standalone code, generated at build time (scripts/build-meta-validator.mjs):
 * compiling the meta-schema at run time cost 50–115 ms on the first check of a config.
 */
export function draft2020MetaErrors(schema: unknown): readonly ErrorObject[] {
  return validateMeta(schema) ? [] : (validateMeta.errors ?? []);
}
