import { formatCost } from '../core/judge/budget';
import { CHARACTERS_PER_TOKEN, type SpendEstimate } from '../core/runner/spendEstimate';
import { printable } from '../shared/text/printable';
import { displayPath } from './reporters/paths';

/**
 * `evallens plan`'s estimate lines, under the judge-call counts: per judge scorer, the prompt tokens
 * of its rendered prompts, the answer tokens at most, and the cost at its model config's prices or
 * why there is none; then the totals.
 */
export function estimateLines(estimate: SpendEstimate, cwd: string): string[] {
  if (estimate.scorers.length === 0) return [];
  const lines = ['', `Estimate (prompt tokens: ${CHARACTERS_PER_TOKEN} characters a token; answers: max_tokens each):`];
  for (const s of estimate.scorers) {
    const unrendered = s.judgeCalls - s.renderedCalls;
    const rendered =
      unrendered > 0
        ? ` (${s.renderedCalls} of ${s.judgeCalls} prompts rendered; ${unrendered} need what only the run computes, such as SQL results, and are not counted)`
        : '';
    const cost =
      s.cost !== undefined
        ? `, cost up to ~${formatCost(s.cost)}`
        : s.modelConfig === undefined
          ? ', no cost figure (the model config did not load)'
          : `, no cost figure: ${printable(displayPath(cwd, s.modelConfig))} sets no price_per_million_input_tokens and price_per_million_output_tokens`;
    lines.push(
      `  ${printable(s.name)}${s.model === undefined ? '' : ` (${printable(s.model)})`}: ~${count(s.inputTokens)} prompt tokens${rendered}, ≤ ${count(s.outputTokens)} answer tokens${cost}`,
    );
  }
  const total = `  total: ~${count(estimate.inputTokens)} prompt tokens, ≤ ${count(estimate.outputTokens)} answer tokens`;
  lines.push(
    estimate.cost !== undefined
      ? `${total}, cost up to ~${formatCost(estimate.cost)}`
      : `${total}; no total cost: ${estimate.unpriced.map((n) => printable(n)).join(', ')} ${estimate.unpriced.length === 1 ? 'has' : 'have'} no prices`,
  );
  return lines;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}
