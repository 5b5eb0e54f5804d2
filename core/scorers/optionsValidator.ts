import type { ErrorObject, ValidateFunction } from 'ajv';
import type Ajv2020 from 'ajv/dist/2020';
import { createAjv } from '../schema/ajv';
import { precompiledValidators } from '../schema/precompiledValidators';
import { scorerOptionsSpec, type OwnSchemaSpec } from '../schema/ownValidators';
import type { ScorerDefinition } from './scorer';

/**
 * Makes, once per scorer definition, the validator of its options (scorerOptionsSpec: the common
 * options plus its own, nothing else). Validation fills in schema defaults. The bundles carry every
 * built-in scorer's compiled; a scorer they do not (a `not-` negation, or any scorer when run from the
 * sources) is compiled here, with one ajv that holds the common options' schema for all of them.
 */
export class OptionsValidators {
  private ajv: Ajv2020 | undefined;
  private readonly compiled = new Map<string, ValidateFunction>();

  /** Validates (and fills defaults into) `options`; returns ajv's errors, empty when valid. */
  validate(definition: ScorerDefinition, options: { [key: string]: unknown }): ErrorObject[] {
    const validate = this.validatorFor(definition);
    return validate(options) ? [] : [...(validate.errors ?? [])];
  }

  private validatorFor(definition: ScorerDefinition): ValidateFunction {
    let validate = this.compiled.get(definition.key);
    if (validate === undefined) {
      const spec = scorerOptionsSpec(definition);
      validate = precompiledValidators?.[spec.name]?.() ?? this.compiler(spec).compile(spec.schema);
      this.compiled.set(definition.key, validate);
    }
    return validate;
  }

  /** The ajv of every scorer's options (their specs share options and references). */
  private compiler(spec: OwnSchemaSpec): Ajv2020 {
    if (this.ajv === undefined) {
      this.ajv = createAjv(spec.options);
      for (const reference of spec.references ?? []) this.ajv.addSchema(reference);
    }
    return this.ajv;
  }
}
