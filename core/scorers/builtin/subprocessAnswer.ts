import type { Json } from '../../case';
import { jsonParseError } from '../../text/jsonError';
import { fail, pass, type ScorerVerdict } from '../../result';
import { QUOTE_CHARS, truncate } from '../support/processText';
import { parseJson } from '../../text/jsonDepth';
import { answerMetrics, metricsOnly, withMetrics } from '../../evalhub/answerMetrics';

const PREFIX = 'scorer error: ';

/**
 * EvalCore's answer `{"score", "passed"?, "reason"?}` as a verdict: score required, in [0, 1], no
 * clamping; `passed` defaults to score >= 0.5; unknown keys (a persistent process's `id`) ignored.
 * Anything else is a scorer error. `noun` names the process in reasons.
 */
export function answerVerdict(
  fields: { readonly [key: string]: unknown },
  noun: string,
  details: { [key: string]: Json } | undefined,
): ScorerVerdict {
  const read = answerMetrics(fields, noun);
  if (!read.ok) return scorerError(read.message, details);
  const score = fields['score'];
  // EvalHub's way: metrics beside (or instead of) the score; the entry's primary_score picks one.
  if (score === undefined && read.metrics !== undefined) return metricsOnly(read, noun, details);
  if (score === undefined) return scorerError(`${noun}'s JSON has no "score"`, details);
  if (typeof score !== 'number')
    return scorerError(`${noun}'s "score" is ${score === null ? 'null' : typeof score}, not a number`, details);
  if (!(score >= 0 && score <= 1)) return scorerError(`${noun}'s score ${String(score)} is outside [0, 1]`, details);
  const passedField = fields['passed'];
  if (passedField !== undefined && typeof passedField !== 'boolean')
    return scorerError(
      `${noun}'s "passed" is ${passedField === null ? 'null' : typeof passedField}, not a boolean`,
      details,
    );
  const reasonField = fields['reason'];
  if (reasonField !== undefined && reasonField !== null && typeof reasonField !== 'string')
    return scorerError(`${noun}'s "reason" is ${typeof reasonField}, not a string`, details);
  const passed = passedField ?? score >= 0.5;
  const reason =
    typeof reasonField === 'string' && reasonField !== ''
      ? truncate(reasonField, QUOTE_CHARS)
      : `${noun} scored ${String(score)}${passedField === undefined ? ` (passes at score >= 0.5)` : `, passed: ${String(passedField)}`}`;
  return withMetrics(passed ? pass(reason, score, details) : fail(reason, score, details), read);
}

/** A per-case command's whole stdout (trimmed) read as its answer. */
export function stdoutVerdict(text: string, noun: string, details: { [key: string]: Json } | undefined): ScorerVerdict {
  const trimmed = text.trim();
  if (trimmed === '') return scorerError(`${noun} printed nothing on stdout; it must print {"score": <0..1>}`, details);
  let answer: unknown;
  try {
    answer = parseJson(trimmed);
  } catch (e) {
    // Said by position and kind: the parser's message quotes the stdout, which may hold anything.
    return scorerError(
      `${noun}'s stdout is not valid JSON (${trimmed.length} characters; ${jsonParseError(trimmed, e)})`,
      details,
    );
  }
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer))
    return scorerError(`${noun} printed JSON that is not an object; it must print {"score": <0..1>}`, details);
  return answerVerdict(answer as { readonly [key: string]: unknown }, noun, details);
}

/** EvalCore's rule for every failure of a scorer command: a failing score 0, "scorer error: …". */
export function scorerError(message: string, details?: { readonly [key: string]: Json }): ScorerVerdict {
  return fail(PREFIX + message, 0, details);
}
