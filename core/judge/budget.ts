import type { JudgePrompt } from './client';
import type { ModelConfig } from './modelConfig';
import type { TokenUsage } from './usage';

/**
 * What a judge asks before each call and tells after it. A run's spend meter is one (it counts and
 * can refuse: `--max-judge-calls`, `--max-cost`); `evallens plan`'s prompt recorder is another (it
 * records the rendered prompt and refuses every call, so nothing is sent).
 */
export interface JudgeGate {
  /** Before a judge call: undefined lets it go (and counts it), else the reason it is not made. */
  admit(config: ModelConfig, prompt: JudgePrompt): string | undefined;
  /** An admitted call sent no request (its credentials were missing): it does not count. */
  release(config: ModelConfig): void;
  /** The tokens a response of an admitted call said its request used. */
  addUsage(config: ModelConfig, usage: TokenUsage): void;
}

export interface BudgetLimits {
  /** Judge calls the run may start; never exceeded (a call is counted when it starts). */
  readonly maxJudgeCalls?: number;
  /** Cost after which no new judge call starts; calls already under way finish and may pass it. */
  readonly maxCost?: number;
}

/** What a run spent on judges, as reports carry it (`spend` in schemas/report.schema.json). */
export interface Spend {
  readonly judge_calls: number;
  readonly input_tokens: number;
  readonly output_tokens: number;
  /** Present when every call made was priced (its model config has both prices). */
  readonly cost?: number;
  /** Model configs (files) of calls made without prices: why `cost` is absent. */
  readonly unpriced_model_configs?: readonly string[];
  /** Judge results skipped because the budget was reached. */
  readonly skipped_for_budget: number;
  readonly max_judge_calls?: number;
  readonly max_cost?: number;
}

/** The reason a judge result skipped for the budget starts with (details also carry `budget_reached: true`). */
export const BUDGET_REACHED = 'budget reached';

/** Both prices of a model config, or undefined when either is unset (a cost from half a price would be wrong). */
export function pricesOf(
  config: Pick<ModelConfig, 'pricePerMillionInputTokens' | 'pricePerMillionOutputTokens'>,
): { readonly input: number; readonly output: number } | undefined {
  const input = config.pricePerMillionInputTokens;
  const output = config.pricePerMillionOutputTokens;
  return input === undefined || output === undefined ? undefined : { input, output };
}

/** What `inputTokens` and `outputTokens` cost at a model config's prices; undefined when it has none. */
export function costOf(
  config: Pick<ModelConfig, 'pricePerMillionInputTokens' | 'pricePerMillionOutputTokens'>,
  inputTokens: number,
  outputTokens: number,
): number | undefined {
  const prices = pricesOf(config);
  return prices === undefined ? undefined : (inputTokens * prices.input + outputTokens * prices.output) / 1_000_000;
}

/**
 * A run's judge spend: calls started, tokens the providers reported, their cost at the model
 * configs' prices, and the limits. With `maxCost`, a call to a model config without prices is
 * refused (its cost could not be kept under the limit); the CLI refuses such a run before it starts.
 */
export class SpendMeter implements JudgeGate {
  private calls = 0;
  private inputTokens = 0;
  private outputTokens = 0;
  private cost = 0;
  private readonly unpriced = new Set<string>();

  constructor(private readonly limits: BudgetLimits = {}) {}

  admit(config: ModelConfig): string | undefined {
    const { maxJudgeCalls, maxCost } = this.limits;
    if (maxJudgeCalls !== undefined && this.calls >= maxJudgeCalls)
      return `${BUDGET_REACHED}: ${this.calls} judge call${this.calls === 1 ? '' : 's'} made (--max-judge-calls ${maxJudgeCalls}); the judge was not called`;
    if (maxCost !== undefined) {
      if (pricesOf(config) === undefined)
        return `${BUDGET_REACHED}: --max-cost is set but the model config ${config.file} has no price_per_million_input_tokens and price_per_million_output_tokens; the judge was not called`;
      if (this.cost >= maxCost)
        return `${BUDGET_REACHED}: ${formatCost(this.cost)} spent (--max-cost ${maxCost}); the judge was not called`;
    }
    this.calls++;
    if (pricesOf(config) === undefined) this.unpriced.add(config.file);
    return undefined;
  }

  release(): void {
    this.calls = Math.max(0, this.calls - 1);
  }

  addUsage(config: ModelConfig, usage: TokenUsage): void {
    this.inputTokens += usage.inputTokens;
    this.outputTokens += usage.outputTokens;
    this.cost += costOf(config, usage.inputTokens, usage.outputTokens) ?? 0;
  }

  /** The figures so far, with the results the run skipped for the budget (the runner counts those). */
  spend(skippedForBudget: number): Spend {
    const { maxJudgeCalls, maxCost } = this.limits;
    return {
      judge_calls: this.calls,
      input_tokens: this.inputTokens,
      output_tokens: this.outputTokens,
      ...(this.unpriced.size === 0 ? { cost: roundCost(this.cost) } : { unpriced_model_configs: [...this.unpriced] }),
      skipped_for_budget: skippedForBudget,
      ...(maxJudgeCalls === undefined ? {} : { max_judge_calls: maxJudgeCalls }),
      ...(maxCost === undefined ? {} : { max_cost: maxCost }),
    };
  }
}

/** Costs kept to 1e-9 of the currency: sums of per-token prices otherwise show float noise. */
export function roundCost(cost: number): number {
  return Math.round(cost * 1e9) / 1e9;
}

/** A cost as people read it: up to 4 decimals, no currency (the prices' currency is the user's). */
export function formatCost(cost: number): string {
  return cost >= 100 ? cost.toFixed(2) : String(Number(cost.toFixed(4)));
}
