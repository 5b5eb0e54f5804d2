import type { SqlCleanUp } from '../sql/sanitizeSql';
import type { Json } from '../case';
import type { ScorerContext, ScorerDefinition } from '../scorers/scorer';
import type { DatasetSource } from '../dataset/source';
import type { SourceRange } from '../text/position';
import type { TargetConfig } from '../target/targetConfig';
import type { EvalhubSection } from '../evalhub/configSection';
import type { BaselineRef } from './baselineKey';

export type { DatasetSource } from '../dataset/source';

/** One `scorers:` entry, validated and checked (a run prepares its scorer). */
export interface ScorerInstance {
  /** What results report under: `name`, else the key. Unique within a config. */
  readonly name: string;
  readonly definition: ScorerDefinition;
  /** Options after validation, with defaults filled in (common options included). */
  readonly options: { readonly [key: string]: Json };
  /** What the scorer's `create` is given when a run prepares it (core/runner/prepareScorers.ts); a checked config holds no live scorer. */
  readonly context: ScorerContext;
  /** The config's threshold, else the scorer's default; undefined when neither has one. */
  readonly threshold?: number;
  readonly weight: number;
  readonly lowerIsBetter: boolean;
  /** `primary_score.metric`: the metric of a result's `metrics` that becomes its score. */
  readonly primaryMetric?: string;
  readonly timeoutMs: number;
  /** The entry's key (mapping form) or `type` value (list form). */
  readonly range: SourceRange;
}

/** An inline case as written in the config (`cases:`), not yet checked against the case schema. */
export interface InlineCase {
  readonly value: unknown;
  readonly index: number;
  readonly range: SourceRange;
}

/** An EvalBench `database_configs` entry: a database config file the NL2SQL scorers run queries on. */
export interface DatabaseConfigRef {
  /** Absolute path of the database config (YAML). */
  readonly configFile: string;
  /** The list item naming it. */
  readonly range: SourceRange;
}

/** A run config that loaded without errors: everything the runner needs, no YAML nodes. */
export interface RunConfig {
  /** Absolute path of the config file. */
  readonly file: string;
  /** Values `${VAR}` expansion brought in: no result's reason or details may show one. */
  readonly secretValues?: readonly string[];
  /** Its folder: relative paths resolve from here. */
  readonly dir: string;
  readonly dataset?: DatasetSource & { readonly range: SourceRange };
  readonly inlineCases: readonly InlineCase[];
  readonly scorers: readonly ScorerInstance[];
  readonly numTrials: number;
  /** `pass_criteria.threshold`, default 0.5 (EvalHub). */
  readonly jobThreshold: number;
  /**
   * `pass_criteria.min_pass_rate` (0 < r ≤ 1): with several trials, a case passes when at least this
   * share of its trials pass. Absent: every trial must pass.
   */
  readonly minPassRate?: number;
  readonly concurrency?: number;
  readonly timeoutMs: number;
  /**
   * `evalbench` when the config has `dataset_config` or `database_configs` (an EvalBench run
   * config): its scorer keys mean EvalBench's scorers (`exact_match` compares SQL results) and keys
   * EvalLens does not run are notices, not errors. `evallens` otherwise.
   */
  readonly family: 'evalbench' | 'evallens';
  /** EvalBench `database_configs`, in order. */
  readonly databases?: readonly DatabaseConfigRef[];
  /** EvalBench `db_name_overrides` (dialect → item database → database) and `db_name_mappings` (dialect → `…{db_id}…`). */
  readonly databaseNames?: {
    readonly overrides?: Readonly<Record<string, Readonly<Record<string, string>>>>;
    readonly mappings?: Readonly<Record<string, string>>;
  };
  /** EvalBench `dialect` and `prompt_generator`: how generated SQL is cleaned up before it runs (sanitizeSql.ts). */
  readonly sqlCleanUp?: SqlCleanUp;
  /** EvalBench `setup_directory`, absolute: `<dir>/<database>/<dialect>/{pre_setup,setup,post_setup}.sql`, `<dir>/<database>/data/*.csv`. */
  readonly setupDirectory?: string;
  /** EvalBench `reporting.truncate_execution_outputs`: rows of each execution result a report keeps (default 250). */
  readonly truncateExecutionOutputs: number;
  /** EvalBench `reporting.csv.output_directory`, absolute (default `results`), when the config asks for CSV reports. */
  readonly csvOutputDirectory?: string;
  /** `target:`: the system under test, called for cases without a recorded output. */
  readonly target?: TargetConfig;
  /** `evalhub:`: the collection, overrides and provider defaults benchmark results are judged by (core/evalhub). */
  readonly evalhub?: EvalhubSection;
  /** `baseline:`: what every run is compared with (core/config/baselineKey.ts). */
  readonly baseline?: BaselineRef;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
/**
 * The most cases scored at once (`concurrency`, `--concurrency`): each is a worker with its own
 * state, and past a few hundred nothing runs faster (the engine is one thread); a larger value is
 * refused rather than building millions of workers.
 */
export const MAX_CONCURRENCY = 256;
/**
 * The most trials per case (`num_trials`, `--trials`): consistency scorers compare every pair of
 * trials and report each pair, and pass@k is reported for every k, so the work and the report grow
 * with its square.
 */
export const MAX_TRIALS = 100;
export const DEFAULT_JOB_THRESHOLD = 0.5;
/** EvalBench's default `reporting.truncate_execution_outputs`. */
export const DEFAULT_TRUNCATE_EXECUTION_OUTPUTS = 250;
