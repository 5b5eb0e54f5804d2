import type { ValidateFunction } from 'ajv';

/**
 * EvalLens's own validators compiled at build time, by spec name (core/schema/ownValidators.ts). In the
 * sources there are none: esbuild.mjs replaces this module in the bundles with ajv's standalone code
 * for every spec (scripts/ownValidatorsCode.ts). Each function makes a fresh validator.
 */
export const precompiledValidators: Readonly<Record<string, () => ValidateFunction>> | undefined = undefined;
