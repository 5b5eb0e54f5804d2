import { isAbsolute } from 'node:path';
import type { Json } from '../../../case';
import { answerDetail, parseJudgeObject, type JudgeObject } from '../../../judge/answerParser';
import { realJudge, type Judge } from '../../../judge/judge';
import { loadModelConfig, problemLine } from '../../../judge/modelConfig';
import type { ModelConfig } from '../../../judge/modelConfig';
import { renderPrompt } from '../../../judge/prompts';
import { error, type ScorerVerdict } from '../../../result';
import { resolveOptionPath, type OptionIssue, type Prepared, type ScorerContext } from '../../scorer';

/**
 * What every LLM-judge scorer shares: its `model_config` file read and checked when the config loads
 * (a missing or malformed file is a load error on the option, naming the file, line and column), and
 * one judge call that renders a prompt from `prompts/`, asks, and reads one JSON object back.
 */
/**
 * The judge a judge scorer's options name, after the checks every judge scorer makes: a model config
 * that exists and loads (a threshold off the judge's 0–100 scale is refused at load, before this).
 * No connection is made here (the language server calls this on every edit).
 */
export function judgeFor(
  options: { readonly model_config: string; readonly threshold?: number | undefined },
  context: ScorerContext,
):
  | { readonly ok: true; readonly judge: Judge; readonly notices: readonly OptionIssue[] }
  | { readonly ok: false; readonly issue: OptionIssue } {
  const checked = checkModelConfig(options, context);
  if (!checked.ok) return checked;
  return {
    ok: true,
    judge: realJudge(checked.config, context.env, context.engine, context.judgeGate),
    notices: checked.notices,
  };
}

/**
 * The checks of judgeFor without the judge: a model config that exists and loads, and what it
 * becomes said as notices. Checking a config (every keystroke in the language server) stops here.
 */
export function checkModelConfig(
  options: { readonly model_config: string },
  context: ScorerContext,
):
  | { readonly ok: true; readonly config: ModelConfig; readonly notices: readonly OptionIssue[] }
  | { readonly ok: false; readonly issue: OptionIssue } {
  const modelConfigPath = options.model_config;
  const file = isAbsolute(modelConfigPath) ? modelConfigPath : resolveOptionPath(context, modelConfigPath);
  if (context.fileExists !== undefined && !context.fileExists(file)) {
    return {
      ok: false,
      issue: {
        path: ['model_config'],
        message: `the model config ${file} does not exist (paths are relative to the config's folder)`,
      },
    };
  }
  const loaded = loadModelConfig(file, context.env, context.engine);
  if (!loaded.ok) {
    const [first, ...rest] = loaded.problems.filter((p) => p.severity === 'error');
    const more =
      rest.length === 0 ? '' : ` (and ${rest.length} more problem${rest.length === 1 ? '' : 's'} in that file)`;
    return {
      ok: false,
      issue: {
        path: ['model_config'],
        message: `the model config is not valid: ${first === undefined ? file : problemLine(first)}${more}`,
      },
    };
  }
  // What an EvalBench model config becomes (which model, where, signed in how) is said at the option.
  const notices = loaded.problems
    .filter((p) => p.severity !== 'error')
    .map((p): OptionIssue => ({ path: ['model_config'], message: p.message }));
  return { ok: true, config: loaded.config, notices };
}

/** A judge scorer made with its model config's notices, shown as information at `model_config`. */
export function withJudgeNotices(made: { readonly notices: readonly OptionIssue[] }, scorer: Prepared): Prepared {
  return scorer.ok && made.notices.length > 0
    ? { ...scorer, notices: [...made.notices, ...(scorer.notices ?? [])] }
    : scorer;
}

export type Asked =
  | { readonly ok: true; readonly object: JudgeObject; readonly details: { [key: string]: Json } }
  | { readonly ok: false; readonly verdict: ScorerVerdict };

/**
 * One judge call: the prompt `prompts/<name>.md` with `values`, the answer parsed as one JSON object.
 * A failed call or an answer without one JSON object is an `error` whose reason says why; the answer
 * itself (which may quote the case) is kept in `details.judge_answer`, never in the reason.
 */
export async function askJudge(
  judge: Judge,
  name: string,
  values: Readonly<Record<string, string>>,
  signal: AbortSignal,
): Promise<Asked> {
  const reply = await judge.ask({ user: renderPrompt(name, values, judge.prompts) }, signal);
  const details: { [key: string]: Json } = { judge_model: judge.config.model, judge_attempts: reply.attempts };
  if (!reply.ok && reply.missingCredentials === true)
    return {
      ok: false,
      verdict: {
        status: 'skipped',
        reason: `the judge was not called: ${reply.reason}`,
        details: { ...details, missing_credentials: true },
      },
    };
  if (!reply.ok && reply.budgetReached === true)
    return {
      ok: false,
      verdict: { status: 'skipped', reason: reply.reason, details: { ...details, budget_reached: true } },
    };
  if (!reply.ok) return { ok: false, verdict: error(`the judge call failed: ${reply.reason}`, details) };
  details['judge_answer'] = answerDetail(reply.text);
  const parsed = parseJudgeObject(reply.text);
  if (!parsed.ok) return { ok: false, verdict: error(parsed.reason, details) };
  return { ok: true, object: parsed.value, details };
}

/** An answer field that was not what the prompt asked for: an error, the answer kept in details. */
export function badAnswer(reason: string, details: { readonly [key: string]: Json }): ScorerVerdict {
  return error(reason, details);
}

/** A value as prompt text: strings as they are, anything else as indented JSON; missing as "(none)". */
export function promptText(value: Json | undefined): string {
  if (value === undefined || value === null) return '(none)';
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}
