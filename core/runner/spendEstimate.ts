import type { DatasetRecord } from '../case';
import type { RunConfig, ScorerInstance } from '../config/runConfig';
import { caseSelector, type CaseSelection } from '../dataset/caseSelection';
import { costOf, roundCost, type JudgeGate } from '../judge/budget';
import { checkModelConfig } from '../scorers/builtin/llm/judgeSupport';
import type { JudgePrompt } from '../judge/client';
import { judgeCallsPerEvaluation } from '../judge/judgeCallPlan';
import type { ModelConfig } from '../judge/modelConfig';
import { userText } from '../judge/providers/provider';
import { prepareScorers } from './prepareScorers';
import { scoreCase } from './scoreCase';

/**
 * The documented token estimate: a quarter of a prompt's characters (Unicode code points), rounded
 * up per prompt. Providers tokenize differently (and Anthropic's and Google's tokenizers are not
 * published), so one rule for all, which OpenAI gives for English text, rather than one exact count
 * for one provider and false precision for the others.
 */
export const CHARACTERS_PER_TOKEN = 4;

export function estimatedTokens(text: string): number {
  let codePoints = 0;
  for (const _ of text) codePoints++;
  return Math.ceil(codePoints / CHARACTERS_PER_TOKEN);
}

/** One judge scorer's estimate (an entry of `evallens plan --json`'s `estimate.scorers`). */
export interface ScorerSpendEstimate {
  readonly name: string;
  readonly key: string;
  /** The judge's model and its model config file, when it loaded. */
  readonly model?: string;
  readonly modelConfig?: string;
  /** Judge calls at most (as `evallens plan` counts them). */
  readonly judgeCalls: number;
  /** Calls whose prompt was rendered from the case; the others need what only the run computes (SQL results). */
  readonly renderedCalls: number;
  /** The rendered prompts' tokens (CHARACTERS_PER_TOKEN). */
  readonly inputTokens: number;
  /** `judgeCalls` × the model config's `max_tokens`: an upper bound. */
  readonly outputTokens: number;
  /** At the model config's prices; absent when it has not both. */
  readonly cost?: number;
}

export interface SpendEstimate {
  readonly scorers: readonly ScorerSpendEstimate[];
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Absent when a judge scorer's model config has no prices (`unpriced` names them). */
  readonly cost?: number;
  readonly unpriced: readonly string[];
}

/** Records what a judge would be asked and refuses the call: nothing is sent. */
class PromptRecorder implements JudgeGate {
  config: ModelConfig | undefined;
  calls = 0;
  inputTokens = 0;

  admit(config: ModelConfig, prompt: JudgePrompt): string {
    this.config ??= config;
    this.calls++;
    this.inputTokens += estimatedTokens((prompt.system ?? '') + userText(config, prompt));
    return 'not called: evallens plan only renders the prompt';
  }

  release(): void {}

  addUsage(): void {}
}

/**
 * Renders every prompt each judge scorer would send for the selected cases (their recorded
 * outputs, every trial, across-trials scorers once per case) through the scorers' own code, with a
 * recorder in place of the judge, and adds up the estimate. Nothing else runs: no other scorer, no
 * SQL, no target (a case whose prompt needs those is counted in `judgeCalls` but not rendered).
 */
export async function estimateSpend(
  config: RunConfig,
  records: AsyncIterable<DatasetRecord>,
  options: { readonly selection?: CaseSelection; readonly trials?: number } = {},
): Promise<SpendEstimate> {
  const trials = options.trials ?? config.numTrials;
  const selected = caseSelector(options.selection ?? {});
  const judges = config.scorers.flatMap((instance, index) =>
    instance.definition.judgeCalls === undefined ? [] : [{ instance, index, recorder: new PromptRecorder() }],
  );
  const live = judges.flatMap(({ instance, recorder }) => prepareScorers([instance], { judgeGate: recorder }));
  const planned = judges.map(() => 0);
  const now = () => performance.now();
  for await (const record of records) {
    if (judges.length === 0) break;
    if (!record.ok || !selected(record.value.case.id)) continue;
    const perEvaluation = judgeCallsPerEvaluation(config, record.value.case);
    judges.forEach(({ instance, index }, i) => {
      planned[i] = (planned[i] ?? 0) + (perEvaluation[index] ?? 0) * (acrossTrials(instance) ? 1 : trials);
    });
    await scoreCase(record.value.case, live, trials, { now, trusted: true });
  }
  const scorers = judges.map(({ instance, recorder }, i): ScorerSpendEstimate => {
    const judgeCalls = planned[i] ?? 0;
    const model = recorder.config ?? modelConfigOf(instance);
    const outputTokens = model === undefined ? 0 : judgeCalls * model.maxTokens;
    const priced = model === undefined ? undefined : costOf(model, recorder.inputTokens, outputTokens);
    const cost = priced === undefined ? undefined : roundCost(priced);
    return {
      name: instance.name,
      key: instance.definition.key,
      ...(model === undefined ? {} : { model: model.model, modelConfig: model.file }),
      judgeCalls,
      renderedCalls: Math.min(recorder.calls, judgeCalls),
      inputTokens: recorder.inputTokens,
      outputTokens,
      ...(cost === undefined ? {} : { cost }),
    };
  });
  const unpriced = scorers.filter((s) => s.cost === undefined).map((s) => s.name);
  const allPriced = unpriced.length === 0;
  return {
    scorers,
    inputTokens: scorers.reduce((sum, s) => sum + s.inputTokens, 0),
    outputTokens: scorers.reduce((sum, s) => sum + s.outputTokens, 0),
    ...(allPriced ? { cost: roundCost(scorers.reduce((sum, s) => sum + (s.cost ?? 0), 0)) } : {}),
    unpriced,
  };
}

/** The model config a judge scorer's `model_config` names, as the run would load it. */
export function modelConfigOf(instance: ScorerInstance): ModelConfig | undefined {
  const path = instance.options['model_config'];
  if (typeof path !== 'string') return undefined;
  const checked = checkModelConfig({ model_config: path }, instance.context);
  return checked.ok ? checked.config : undefined;
}

function acrossTrials(instance: ScorerInstance): boolean {
  return instance.definition.acrossTrials === true;
}
