import table from './evalbenchKeys.json';

/**
 * The EvalBench run-config keys as data (`evalbenchKeys.json`): the engine reads them here, the
 * language server through the engine's problems, and `scripts/build-schemas.mjs` writes the same
 * table into the published schema, so the three never disagree about a key.
 *
 * - `read`: EvalLens reads the key and honours it.
 * - `not-run`: what the key configures is not run by EvalLens (generation, orchestration, scripts,
 *   reporters); it gets one information notice naming it.
 * - `differs`: in EvalBench the key changes what is scored, and EvalLens cannot honour it; it gets a
 *   warning that says what differs.
 */
export type KeyHandling = 'read' | 'not-run' | 'differs';

export interface EvalbenchKey {
  readonly handling: KeyHandling;
  /** What the key configures, in a few words ("prompt generator"). */
  readonly what?: string;
  /** For `differs`: how EvalBench's result and EvalLens's differ. */
  readonly differs?: string;
}

const keys: Readonly<Record<string, EvalbenchKey>> = table.keys as Readonly<Record<string, EvalbenchKey>>;

/** The top-level keys of the table, in its order. */
export const EVALBENCH_KEYS: readonly string[] = Object.keys(keys);

export function evalbenchKey(key: string): EvalbenchKey | undefined {
  return Object.hasOwn(keys, key) ? keys[key] : undefined;
}

/** Keys whose presence makes a config EvalBench's (the schema's `if` uses the same list). */
export const FAMILY_KEYS: readonly string[] = table.familyKeys;

/** `reporting` keys EvalLens reads. */
export const REPORTING_READ: ReadonlySet<string> = new Set(table.reportingRead);

/** `reporting` keys EvalBench runs as reporters and EvalLens does not, with what they do. */
export const REPORTERS_NOT_RUN: Readonly<Record<string, string>> = table.reportersNotRun;

/** EvalBench scorers EvalLens does not run, each with what it does. */
export const SCORERS_NOT_RUN: Readonly<Record<string, string>> = table.scorersNotRun;

/** Scorer key prefixes of EvalBench scorer families EvalLens does not run (`dataform_`, `dbt_`, `mcp_`). */
export const SCORER_PREFIXES_NOT_RUN: readonly string[] = table.scorerPrefixesNotRun;

/** EvalBench's `dataset_format` values (the schema's enum). */
export const EVALBENCH_DATASET_FORMATS: readonly string[] = table.keys.dataset_format.schema.enum;
