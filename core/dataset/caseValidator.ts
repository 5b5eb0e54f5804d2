import type { ErrorObject, ValidateFunction } from 'ajv';
import { caseSpec, ownValidator } from '../schema/ownValidators';
import { describeKind, type Vocabulary } from './valueKinds';

/**
 * Compiled once per process, at the first case checked: not when this module loads, as every command
 * (even `--version`) loads it. An own schema (schemas/, checked against the meta-schema by
 * test/core/schema/ownSchemas.test.ts), so ajv need not compile the meta-schema first.
 */
let compiled: ValidateFunction | undefined;
const validator = (): ValidateFunction => (compiled ??= ownValidator(caseSpec()));

/**
 * Checks a parsed case object against `schemas/case.schema.json`. Returns one sentence per violation,
 * naming the field and what was expected and seen (the kind of value, never the value); empty when valid.
 */
export function caseSchemaViolations(value: unknown, vocabulary: Vocabulary = 'json'): string[] {
  const validate = validator();
  if (validate(value)) return [];
  // `if` only reports that a `then` failed; the failing `then` keyword says what is wrong.
  return (validate.errors ?? [])
    .filter((error) => error.keyword !== 'if')
    .map((error) => describeViolation(error, value, vocabulary));
}

function describeViolation(error: ErrorObject, root: unknown, vocabulary: Vocabulary): string {
  const segments = error.instancePath.split('/').slice(1).map(unescapePointer);
  const field = segments.length === 0 ? 'the case' : `field "${segments.join('.')}"`;
  if (error.keyword === 'type') {
    const expected = ([] as unknown[])
      .concat(error.params['type'])
      .map((t) => articleFor(String(t), vocabulary))
      .join(' or ');
    return `${field} must be ${expected}, not ${describeKind(valueAt(root, segments), vocabulary)}`;
  }
  return `${field} ${error.message ?? `breaks the "${error.keyword}" rule`}`;
}

function articleFor(type: string, vocabulary: Vocabulary): string {
  switch (type) {
    case 'object':
      return vocabulary === 'yaml' ? 'a mapping' : 'an object';
    case 'array':
      return vocabulary === 'yaml' ? 'a list' : 'an array';
    case 'integer':
      return 'an integer';
    case 'null':
      return 'null';
    default:
      return `a ${type}`;
  }
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function valueAt(root: unknown, segments: readonly string[]): unknown {
  let current = root;
  for (const segment of segments) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = Object.hasOwn(current, segment) ? (Reflect.get(current, segment) as unknown) : undefined;
  }
  return current;
}
