import { availableParallelism } from 'node:os';
import { fail, type ScorerVerdict } from '../../result';
import schema from '../../../schemas/scorers/subprocess.schema.json';
import { runOnce, type RunLimit } from '../support/processRun';
import { quoteStderr, stderrDetails } from '../support/processText';
import { endedHow } from '../../process/processGroup';
import { checked, defineScorer, type OptionIssue, type OptionsOf, prepared, refused } from '../scorer';
import { scorerError, stdoutVerdict } from './subprocessAnswer';
import { persistentScorer } from './subprocessPersistent';
import { payload } from './subprocessPayload';

export { STREAM_CAP_BYTES } from '../support/processRun';
export { QUOTE_CHARS } from '../support/processText';
export { payload } from './subprocessPayload';

/** Persistent processes when `processes` is not given: one per core, at most 4. */
export function defaultProcesses(): number {
  return Math.min(availableParallelism(), 4);
}

/**
 * EvalCore's `subprocess` scorer: `sh -c <cmd>` from the config's folder, the case as compact JSON
 * on stdin, `{"score", "passed"?, "reason"?}` on stdout. Every failure of the command (spawn error,
 * non-zero exit, bad JSON, a score outside [0, 1], its time limit) is a failing score 0 whose reason
 * starts with "scorer error: ", as EvalCore's protocol defines it; never an `error`, never a crash.
 *
 * `mode: persistent` (EvalLens's, not EvalCore's) keeps a pool of processes that each serve many
 * cases over JSON lines (subprocessPersistent.ts); the answer rules are the same.
 */
export const subprocess = defineScorer('subprocess', {
  origin: 'EvalCore',
  scale: { kind: 'bounded', max: 1 },
  reaches: 'workspace-code',
  schema,
  check(options) {
    return checked(poolIssues(options));
  },
  create(options, context) {
    const issues = poolIssues(options);
    if (issues.length > 0) return refused(...issues);
    // EvalCore's rule is a failing score for a command that hangs; the runner's own limit answers
    // `timeout`. So by default the command is stopped a little before the runner would stop waiting.
    const limit: RunLimit =
      options.cmd_timeout_ms === undefined
        ? {
            ms: Math.max(1, context.timeoutMs - Math.min(1000, Math.floor(context.timeoutMs / 10))),
            from: "just under the scorer's time limit",
          }
        : { ms: options.cmd_timeout_ms, from: 'cmd_timeout_ms' };
    if (options.mode === 'persistent')
      return prepared(persistentScorer(options.cmd, context.configDir, options.processes ?? defaultProcesses(), limit));
    return prepared({
      score(input, signal) {
        if (input.output === undefined) return fail('the case has no output');
        return runCommand(options.cmd, context.configDir, payload(input), limit, signal);
      },
    });
  },
});

/** `processes` without `mode: persistent` has no effect: said rather than ignored. */
function poolIssues(options: OptionsOf<'subprocess'>): OptionIssue[] {
  if (!(options.mode === 'per_case' && options.processes !== undefined)) return [];
  return [
    {
      path: ['processes'],
      message:
        '`processes` sizes the pool of `mode: persistent`; with one process per case (`mode: per_case`, the default) it has no effect. Add `mode: persistent` or remove it',
    },
  ];
}

async function runCommand(
  cmd: string,
  cwd: string,
  stdin: string,
  limit: RunLimit,
  signal: AbortSignal,
): Promise<ScorerVerdict> {
  const outcome = await runOnce({ shell: cmd }, cwd, stdin, limit, signal, 'the command');
  const details = stderrDetails(outcome.stderr);
  if (outcome.kind === 'stopped') return scorerError(outcome.reason, details);
  if (outcome.signal !== null || outcome.code !== 0)
    return scorerError(`the command ${endedHow(outcome.code, outcome.signal)}${quoteStderr(outcome.stderr)}`, details);
  return stdoutVerdict(outcome.stdout, 'the command', details);
}
