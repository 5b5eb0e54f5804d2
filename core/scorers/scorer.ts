import { resolve } from 'node:path';
import type { EvalCase, Json } from '../case';
import type { ScorerVerdict } from '../result';
import type { EngineContext } from '../engineContext';
import type { JudgeGate } from '../judge/budget';
import type { ScorerOptionsBySchema } from './options.generated';

/** What one scorer sees of one case, after `output_path` / `expected_path` have been applied. */
export interface ScoringInput {
  readonly case: EvalCase;
  /** The (selected) output; `undefined` when the case has none. */
  readonly output: Json | undefined;
  /** The (selected) expected value; `undefined` when the case has none. */
  readonly expected: Json | undefined;
}

/** A prepared scorer: options checked and compiled once, then called per case. */
export interface Scorer {
  score(input: ScoringInput, signal: AbortSignal): ScorerVerdict | Promise<ScorerVerdict>;
  /**
   * Ends what the scorer started lazily for a run (a pool of persistent processes). The runner calls
   * it once the run's cases are done, cancelled or not; a later run may score with it again.
   */
  close?(): Promise<void>;
}

/** One trial of a case as an across-trials scorer sees it. */
export interface TrialInput extends ScoringInput {
  readonly trial: number;
  /** The error the trial's recording carries (EvalBench: the generation or execution error). */
  readonly error?: string;
}

/**
 * A scorer that compares the trials of one case with each other (EvalBench's consistency scorers):
 * it runs once per case, after every trial, and its result has trial 0.
 */
export interface AcrossTrialsScorer {
  scoreTrials(trials: readonly TrialInput[], signal: AbortSignal): ScorerVerdict | Promise<ScorerVerdict>;
}

/** A problem with one option, found when the config loads; `path` is relative to the scorer's options. */
export interface OptionIssue {
  readonly path: readonly (string | number)[];
  readonly message: string;
  /** Set when the option at `path` may not be combined with this other option: a quick fix removes one. */
  readonly conflictsWith?: string;
}

export type Prepared =
  | {
      readonly ok: true;
      readonly scorer: Scorer;
      readonly acrossTrials?: AcrossTrialsScorer;
      /** Things a person should know about how the scorer will run (e.g. python3 stands in for uv); shown as information at the entry. */
      readonly notices?: readonly OptionIssue[];
    }
  | { readonly ok: false; readonly issues: readonly OptionIssue[] };

/** What checking a scorer's options found: nothing, notices to show at the entry, or issues that refuse it. */
export type Checked =
  | { readonly ok: true; readonly notices?: readonly OptionIssue[] }
  | { readonly ok: false; readonly issues: readonly OptionIssue[] };

/** What `check` and `create` may use besides the options. */
export interface ScorerContext {
  /** The host's kept validators, verdicts and compiled schemas (core/engineContext.ts). */
  readonly engine: EngineContext;
  /** Absolute folder of the run config, for path-valued options. */
  readonly configDir: string;
  /**
   * The instance's time limit per evaluation (its `timeout_ms`, else the config's), past which the
   * runner answers `timeout`. A scorer with a limit of its own keeps under it.
   */
  readonly timeoutMs: number;
  /** The environment `${VAR}`s and key variables resolve against, read once by the host. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Whether a file exists, when the host has a file system to ask (the server counts open documents too). */
  readonly fileExists?: (absolutePath: string) => boolean;
  /**
   * Where a path option points: from the config's folder, and in an EvalBench config also from the
   * nearest folder above that has it (EvalBench runs from its repository root). Absent: the config's folder.
   */
  readonly resolvePath?: (path: string) => string;
  /** For a run: what its judges ask before each call (the run's spend meter, or a plan's prompt recorder). */
  readonly judgeGate?: JudgeGate;
}

/** An option's path as the config means it (see `ScorerContext.resolvePath`). */
export function resolveOptionPath(context: ScorerContext, path: string): string {
  return context.resolvePath?.(path) ?? resolve(context.configDir, path);
}

/**
 * What a scorer reaches beyond the case it scores. A run that may not execute workspace code or use
 * the network (an untrusted workspace) answers `skipped` for such a scorer and never calls it.
 */
export type ScorerReach = 'workspace-code' | 'network';

/**
 * The native scale of a scorer's score. Bounded scores are normalized to 0–1 (score / max) before
 * they enter the job score; counts have no normalization and stay out of it.
 */
export type ScoreScale =
  { readonly kind: 'bounded'; readonly max: number } | { readonly kind: 'count'; readonly unit: string };

export interface ScorerDefinition {
  /** The key that selects the scorer in `scorers:`; also the schema's file name. */
  readonly key: string;
  /** Where its semantics come from (shown in docs and hovers). */
  readonly origin: 'EvalBook' | 'EvalBench' | 'EvalCore' | 'judgeval' | 'EvalLens';
  readonly scale: ScoreScale;
  /** The scorer's options schema (`schemas/scorers/<key>.schema.json`). */
  readonly schema: { readonly [key: string]: unknown };
  /**
   * The pass mark used when the config gives no `threshold` (EvalHub's provider default), on the
   * native scale. Binary scorers have none: their verdict is the pass decision.
   */
  readonly defaultThreshold?: number;
  /** Compares trials with each other (needs `num_trials` of at least 2); its scorer is an AcrossTrialsScorer. */
  readonly acrossTrials?: true;
  /** Set for scorers that run workspace code (subprocess, python_scorer) or call a service (LLM judges). */
  readonly reaches?: ScorerReach;
  /** The name results report under when the entry gives no `name` (python_scorer's `scorer_name`); default: the key. */
  readonly reportsAs?: (options: { readonly [key: string]: Json }) => string | undefined;
  /**
   * Judge calls one evaluation makes with these options, at most (a scorer that decides without its
   * judge makes fewer); given the case when its count depends on the case (one call per rubric item
   * or per activated skill). A run announces the total before it starts.
   */
  readonly judgeCalls?: (options: { readonly [key: string]: Json }, evalCase?: EvalCase) => number;
  /** Its verdicts may carry `parts`: one result per item, named `<instance>_<index>` (binary_rubric_scorer). */
  readonly itemized?: true;
  /**
   * Each case is a benchmark with its own weight and direction (evalhub_benchmark): the job score adds
   * each result that has a test by the weight and `lower_is_better` in its details, not this scorer's mean.
   */
  readonly jobScoreByCase?: true;
  /**
   * Checks what the schema cannot express (a regex that can blow up, an unsupported JSON Schema
   * keyword, a model config that does not load), when the config loads: every keystroke in the
   * language server, and `evallens validate`. Builds nothing that runs. Absent: the schema says all.
   */
  check?(options: { readonly [key: string]: Json }, context: ScorerContext): Checked;
  /**
   * Builds the scorer from options that the schema and `check` have passed (defaults filled in), when
   * a run starts; never when a config is only checked. Refuses with the same issues as `check` when
   * something changed in between (a file deleted).
   */
  create(options: { readonly [key: string]: Json }, context: ScorerContext): Prepared;
}

/** A scorer's options as its schema types them (core/scorers/options.generated.ts), by schema name. */
export type OptionsOf<S extends keyof ScorerOptionsBySchema> = ScorerOptionsBySchema[S];

/** The key a schema name selects: its file name (`evalbench/exact_match` is EvalBench's `exact_match`). */
type KeyOf<S extends string> = S extends `${string}/${infer Key}` ? KeyOf<Key> : S;

/** A scorer definition written against its options' type; `defineScorer` makes it a ScorerDefinition. */
export interface TypedScorerDefinition<Options> extends Omit<
  ScorerDefinition,
  'key' | 'check' | 'create' | 'reportsAs' | 'judgeCalls'
> {
  readonly reportsAs?: (options: Options) => string | undefined;
  readonly judgeCalls?: (options: Options, evalCase?: EvalCase) => number;
  check?(options: Options, context: ScorerContext): Checked;
  create(options: Options, context: ScorerContext): Prepared;
}

/**
 * A scorer whose options are typed from its schema (`schemas/scorers/<schemaName>.schema.json`): an
 * option renamed or retyped in the schema fails the type check wherever the scorer reads the old one.
 * Its key is the schema's file name. The one cast is here: the validator has checked the options
 * against that schema, defaults filled in, before `create` sees them.
 */
export function defineScorer<S extends keyof ScorerOptionsBySchema>(
  schemaName: S,
  definition: TypedScorerDefinition<OptionsOf<S>>,
): ScorerDefinition & { readonly key: KeyOf<S> } {
  type Options = OptionsOf<S>;
  const typed = (options: { readonly [key: string]: Json }): Options => options as unknown as Options;
  const { reportsAs, judgeCalls, check, create, ...rest } = definition;
  return {
    ...rest,
    key: (schemaName.split('/').pop() ?? schemaName) as KeyOf<S>,
    ...(reportsAs === undefined ? {} : { reportsAs: (options) => reportsAs(typed(options)) }),
    ...(judgeCalls === undefined ? {} : { judgeCalls: (options, evalCase) => judgeCalls(typed(options), evalCase) }),
    ...(check === undefined ? {} : { check: (options, context) => check(typed(options), context) }),
    create: (options, context) => create(typed(options), context),
  };
}

export function prepared(scorer: Scorer): Prepared {
  return { ok: true, scorer };
}

/** An across-trials scorer; scoring a single trial with it is an error the runner never makes. */
export function preparedAcrossTrials(acrossTrials: AcrossTrialsScorer): Prepared {
  return {
    ok: true,
    acrossTrials,
    scorer: {
      score: () => ({
        status: 'error',
        reason: 'this scorer compares trials with each other; it scores no single trial',
      }),
    },
  };
}

export function refused(...issues: OptionIssue[]): Prepared {
  return { ok: false, issues };
}

/** A check's outcome from a list of issues (none: passed) and notices. */
export function checked(issues: readonly OptionIssue[], notices: readonly OptionIssue[] = []): Checked {
  if (issues.length > 0) return { ok: false, issues };
  return notices.length > 0 ? { ok: true, notices } : { ok: true };
}
