import { formatCost, type Spend } from '../core/judge/budget';
import { printable } from '../shared/text/printable';

/**
 * The console's spend lines after the counts: what the judges used (calls, the tokens the providers
 * reported, the cost when every call was priced) and what the budget skipped.
 */
export function spendLines(spend: Spend | undefined): string[] {
  if (spend === undefined || (spend.judge_calls === 0 && spend.skipped_for_budget === 0)) return [];
  const calls = `${spend.judge_calls} judge call${spend.judge_calls === 1 ? '' : 's'}`;
  const tokens = `${count(spend.input_tokens)} input + ${count(spend.output_tokens)} output tokens`;
  const cost =
    spend.cost !== undefined
      ? `, cost ${formatCost(spend.cost)}`
      : `, no cost (no prices in ${(spend.unpriced_model_configs ?? []).map((f) => printable(f)).join(', ')})`;
  const limits = [
    spend.max_judge_calls === undefined ? undefined : `--max-judge-calls ${spend.max_judge_calls}`,
    spend.max_cost === undefined ? undefined : `--max-cost ${spend.max_cost}`,
  ].filter((l) => l !== undefined);
  const lines = [`judges: ${calls}, ${tokens}${cost}${limits.length === 0 ? '' : ` (budget: ${limits.join(', ')})`}`];
  if (spend.skipped_for_budget > 0)
    lines.push(
      `${spend.skipped_for_budget} judge result${spend.skipped_for_budget === 1 ? ' was' : 's were'} skipped: budget reached`,
    );
  return lines;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}
