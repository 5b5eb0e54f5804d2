import type { BudgetLimits } from '../core/judge/budget';
import { printable } from '../shared/text/printable';

/** A budget option that cannot be read, said as a usage error by the caller. */
export class BudgetUsageError extends Error {
  override readonly name = 'BudgetUsageError';
}

/**
 * `--max-judge-calls <n>` (a whole number, 0 or more) and `--max-cost <amount>` (a number, 0 or more,
 * in the currency of the model configs' prices) of `evallens run`, as the runner's budget.
 */
export function parseBudget(maxCost: string | undefined, maxJudgeCalls: string | undefined): BudgetLimits | undefined {
  if (maxCost === undefined && maxJudgeCalls === undefined) return undefined;
  const calls = maxJudgeCalls === undefined ? undefined : Number(maxJudgeCalls);
  if (calls !== undefined && (maxJudgeCalls?.trim() === '' || !Number.isSafeInteger(calls) || calls < 0))
    throw new BudgetUsageError(
      `--max-judge-calls must be a whole number, 0 or more; got "${printable(maxJudgeCalls ?? '')}"`,
    );
  const cost = maxCost === undefined ? undefined : Number(maxCost);
  if (cost !== undefined && (maxCost?.trim() === '' || !Number.isFinite(cost) || cost < 0))
    throw new BudgetUsageError(
      `--max-cost must be an amount, 0 or more (in the currency of the model configs' prices); got "${printable(maxCost ?? '')}"`,
    );
  return {
    ...(calls === undefined ? {} : { maxJudgeCalls: calls }),
    ...(cost === undefined ? {} : { maxCost: cost }),
  };
}
