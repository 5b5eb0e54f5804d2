import type { EvalCase, Json } from '../case';
import { error, fail, type ScorerVerdict } from '../result';
import type { ScoringInput } from './scorer';
import { parseFieldPath, valueAt } from './support/path';

/**
 * Applies the common `output_path` / `expected_path` options. An output without the field fails
 * (the candidate is wrong); an expected value without it is an error (the dataset is wrong).
 */
export function applyFieldPaths(
  evalCase: EvalCase,
  options: { readonly [key: string]: Json },
): { ok: true; input: ScoringInput } | { ok: false; verdict: ScorerVerdict } {
  let output = evalCase.output;
  let expected = evalCase.expected;
  const outputPath = options['output_path'];
  if (typeof outputPath === 'string') {
    const parsed = parseFieldPath(outputPath);
    if (!parsed.ok) return { ok: false, verdict: error(`output_path: ${parsed.message}`) };
    output = valueAt(output, parsed.segments);
    if (output === undefined)
      return { ok: false, verdict: fail(`the output has no field at output_path "${outputPath}"`) };
  }
  const expectedPath = options['expected_path'];
  if (typeof expectedPath === 'string') {
    const parsed = parseFieldPath(expectedPath);
    if (!parsed.ok) return { ok: false, verdict: error(`expected_path: ${parsed.message}`) };
    expected = valueAt(expected, parsed.segments);
    if (expected === undefined)
      return { ok: false, verdict: error(`the expected value has no field at expected_path "${expectedPath}"`) };
  }
  return { ok: true, input: { case: evalCase, output, expected } };
}
