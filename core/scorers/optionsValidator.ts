import type { ErrorObject, ValidateFunction } from 'ajv';
import commonSchema from '../../schemas/scorer-common.schema.json';
import { createAjv } from '../schema/ajv';
import type { ScorerDefinition } from './scorer';

/**
 * Compiles, once per scorer definition, the validator of its options: the common options plus its
 * own, nothing else (`unevaluatedProperties: false`). Validation fills in schema defaults.
 */
export class OptionsValidators {
  private readonly ajv = createAjv({ useDefaults: true, verbose: true, ownSchemas: true });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor() {
    this.ajv.addSchema(commonSchema);
  }

  /** Validates (and fills defaults into) `options`; returns ajv's errors, empty when valid. */
  validate(definition: ScorerDefinition, options: { [key: string]: unknown }): ErrorObject[] {
    const validate = this.validatorFor(definition);
    return validate(options) ? [] : [...(validate.errors ?? [])];
  }

  private validatorFor(definition: ScorerDefinition): ValidateFunction {
    let validate = this.compiled.get(definition.key);
    if (validate === undefined) {
      const { $id: _id, $schema: _schema, ...own } = definition.schema;
      validate = this.ajv.compile({
        type: 'object',
        allOf: [{ $ref: String(commonSchema.$id) }, own],
        properties: { type: { const: definition.key } },
        unevaluatedProperties: false,
      });
      this.compiled.set(definition.key, validate);
    }
    return validate;
  }
}
