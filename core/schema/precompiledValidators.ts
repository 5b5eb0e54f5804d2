import type { ValidateFunction } from 'ajv';

/**
 * EvalLens's own validators compiled at build time, by spec name (core/schema/ownValidators.ts). In the
 * sources there are none: esbuild.mjs replaces this module in the bundles with an index of ajv's
 * standalone code for every spec, kept in dist/own-validators.js and read per validator on first use
 * (scripts/ownValidatorsCode.ts). Each function makes a fresh validator, or answers undefined when that
 * file is not the one the bundle was built with (the validator is then compiled at run time).
 */
export const precompiledValidators: Readonly<Record<string, () => ValidateFunction | undefined>> | undefined =
  undefined;
