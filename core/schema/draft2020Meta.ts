import type { ErrorObject } from 'ajv';

/** ajv's calling convention for a compiled validator: errors of the last call on the function. */
interface CompiledValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

let validateMeta: CompiledValidator | undefined;

/**
 * The generated validator, loaded on first use: its module sets up the whole meta-schema as object
 * literals, which was a twentieth of `evallens validate`'s CPU time for configs that check no schema.
 */
function metaValidator(): CompiledValidator {
  if (validateMeta === undefined) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { validate } = require('./draft2020MetaValidator.generated') as { readonly validate: unknown };
    validateMeta = validate as CompiledValidator;
  }
  return validateMeta;
}

/**
 * The errors of a schema against the JSON Schema draft 2020-12 meta-schema, as ajv's own
 * `validateSchema` would give them with the json_schema scorer's options (none when it is valid).
 * The validator is ajv's standalone code, generated at build time (scripts/build-meta-validator.mjs):
 * compiling the meta-schema at run time cost 50–115 ms on the first check of a config.
 */
export function draft2020MetaErrors(schema: unknown): readonly ErrorObject[] {
  const validate = metaValidator();
  return validate(schema) ? [] : (validate.errors ?? []);
}
