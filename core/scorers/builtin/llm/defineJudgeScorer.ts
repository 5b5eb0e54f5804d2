import type { Judge } from '../../../judge/judge';
import type { ScorerOptionsBySchema } from '../../options.generated';
import {
  checked,
  defineScorer,
  refused,
  type OptionIssue,
  type OptionsOf,
  type Prepared,
  type ScorerContext,
  type TypedScorerDefinition,
} from '../../scorer';
import { checkModelConfig, judgeFor, withJudgeNotices } from './judgeSupport';

/** The scorer schemas whose options name a judge's model config. */
type JudgeSchemaName = {
  [S in keyof ScorerOptionsBySchema]: ScorerOptionsBySchema[S] extends { readonly model_config: string } ? S : never;
}[keyof ScorerOptionsBySchema];

/** What a judge scorer says of itself beyond the skeleton every judge shares. */
interface JudgeScorerDefinition<Options> extends Omit<
  TypedScorerDefinition<Options>,
  'origin' | 'scale' | 'reaches' | 'create' | 'judgeCalls'
> {
  /** Judge calls per evaluation, at most (default: one). */
  readonly judgeCalls?: TypedScorerDefinition<Options>['judgeCalls'];
  /** What the scorer says at its entry besides the model config's notices (shown after them), at check and at run alike. */
  notices?(options: Options, context: ScorerContext): OptionIssue[];
  /** Builds the scorer once its judge is known (the model config read and checked), when a run starts. */
  prepare(judge: Judge, options: Options, context: ScorerContext): Prepared;
}

/**
 * An LLM-judge scorer (EvalBench's keys): scored on EvalBench's 0–100 scale, calling the service its
 * `model_config` names (so skipped in an untrusted workspace), refused at load when that model config
 * is missing or malformed, and showing the model config's notices at the option.
 */
export function defineJudgeScorer<S extends JudgeSchemaName>(
  schemaName: S,
  definition: JudgeScorerDefinition<OptionsOf<S>>,
) {
  const { prepare, judgeCalls, notices, ...rest } = definition;
  return defineScorer(schemaName, {
    ...rest,
    origin: 'EvalBench',
    scale: { kind: 'bounded', max: 100 },
    reaches: 'network',
    judgeCalls: judgeCalls ?? (() => 1),
    // Checking reads the model config and makes no judge (the language server checks on every edit).
    check(options, context) {
      const made = checkModelConfig(options, context);
      if (!made.ok) return checked([made.issue]);
      return checked([], [...made.notices, ...(notices?.(options, context) ?? [])]);
    },
    create(options, context) {
      const made = judgeFor(options, context);
      if (!made.ok) return refused(made.issue);
      return withJudgeNotices(
        { notices: [...made.notices, ...(notices?.(options, context) ?? [])] },
        prepare(made.judge, options, context),
      );
    },
  });
}
