import { spawn } from 'node:child_process';
import type { Json } from '../../case';
import { fail, pass, type ScorerVerdict } from '../../result';
import schema from '../../../schemas/scorers/subprocess.schema.json';
import { prepared, type ScorerDefinition, type ScoringInput } from '../scorer';

interface SubprocessOptions {
  readonly cmd: string;
  readonly cmd_timeout_ms?: number;
}

/** Most bytes read from stdout or from stderr; more is a scorer error (and the command is stopped). */
export const STREAM_CAP_BYTES = 1024 * 1024;
/** Most characters of stderr or of the script's reason that a verdict quotes. */
export const QUOTE_CHARS = 500;
const PREFIX = 'scorer error: ';

/**
 * EvalCore's `subprocess` scorer: `sh -c <cmd>` from the config's folder, the case as compact JSON
 * on stdin, `{"score", "passed"?, "reason"?}` on stdout. Every failure of the command (spawn error,
 * non-zero exit, bad JSON, a score outside [0, 1], its time limit) is a failing score 0 whose reason
 * starts with "scorer error: ", as EvalCore's protocol defines it; never an `error`, never a crash.
 */
export const subprocess: ScorerDefinition = {
  key: 'subprocess',
  origin: 'EvalCore',
  scale: { kind: 'bounded', max: 1 },
  needs: ['output'],
  reaches: 'workspace-code',
  schema,
  create(raw, context) {
    const options = raw as unknown as SubprocessOptions;
    // EvalCore's rule is a failing score for a command that hangs; the runner's own limit answers
    // `timeout`. So by default the command is stopped a little before the runner would stop waiting.
    const limit =
      options.cmd_timeout_ms === undefined
        ? { ms: Math.max(1, context.timeoutMs - Math.min(1000, Math.floor(context.timeoutMs / 10))), from: "just under the scorer's time limit" }
        : { ms: options.cmd_timeout_ms, from: 'cmd_timeout_ms' };
    return prepared({
      score(input, signal) {
        if (input.output === undefined) return fail('the case has no output');
        return runCommand(options.cmd, context.configDir, payload(input), limit, signal);
      },
    });
  },
};

/**
 * The stdin text: compact JSON with keys in alphabetical order at every level (EvalCore serialises
 * serde_json values, whose maps are sorted). `input` and `output` are strings in EvalCore; any other
 * value is sent as its compact JSON text (a missing input as ""). `expected` is the JSON value, or
 * null. `context` is present only when the case has one (not null): a list whose strings are kept
 * and whose other items become compact JSON text; a single value becomes a one-item list.
 */
export function payload(input: ScoringInput): string {
  const body: { [key: string]: Json } = {};
  const context = input.case.context;
  if (context !== undefined && context !== null) body['context'] = (Array.isArray(context) ? (context as readonly Json[]) : [context]).map(asText);
  body['expected'] = input.expected === undefined ? null : input.expected;
  body['input'] = input.case.input === undefined ? '' : asText(input.case.input);
  body['output'] = input.output === undefined ? '' : asText(input.output);
  return JSON.stringify(sortKeys(body));
}

function asText(value: Json): string {
  return typeof value === 'string' ? value : JSON.stringify(sortKeys(value));
}

function sortKeys(value: Json): Json {
  if (Array.isArray(value)) return (value as readonly Json[]).map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const object = value as { readonly [key: string]: Json };
  const sorted: { [key: string]: Json } = {};
  // Byte order of the UTF-8 keys, as Rust's BTreeMap<String, _> sorts them.
  for (const key of Object.keys(object).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))) sorted[key] = sortKeys(object[key] as Json);
  return sorted;
}

function runCommand(cmd: string, cwd: string, stdin: string, limit: { readonly ms: number; readonly from: string }, signal: AbortSignal): Promise<ScorerVerdict> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve(scorerError('the run stopped the scorer before the command started'));
      return;
    }
    let settled = false;
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let stdoutBytes = 0;
    let stderrBytes = 0;

    const child = spawn('sh', ['-c', cmd], { cwd, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });

    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        // Negative pid: the whole process group, so what `sh -c` started dies with it.
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const finish = (verdict: ScorerVerdict) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(verdict);
    };
    const stop = (reason: string) => {
      killGroup();
      child.stdout.destroy();
      child.stderr.destroy();
      finish(scorerError(reason, stderrDetails(stderr)));
    };
    const onAbort = () => stop('the run stopped the command (its time limit or a canceled run)');

    const timer = setTimeout(() => stop(`the command did not finish within ${limit.ms} ms (${limit.from}) and was stopped`), limit.ms);
    signal.addEventListener('abort', onAbort, { once: true });

    child.on('error', (e) => stop(`the command could not be started: ${e.message}`));
    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > STREAM_CAP_BYTES) stop(`the command wrote more than ${STREAM_CAP_BYTES} bytes to stdout`);
      else stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderrBytes += chunk.length;
      if (stderrBytes > STREAM_CAP_BYTES) stop(`the command wrote more than ${STREAM_CAP_BYTES} bytes to stderr`);
      else stderr.push(chunk);
    });
    // A command may exit without reading its stdin (EPIPE); its exit status and stdout still count.
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
    // When `sh` exits, processes it left behind would hold the pipes open: end them.
    child.on('exit', killGroup);
    child.on('close', (code, killedBy) => {
      if (settled) return;
      const errText = Buffer.concat(stderr).toString('utf8');
      if (killedBy !== null) {
        finish(scorerError(`the command was killed by ${killedBy}${quoteStderr(errText)}`, stderrDetails(stderr)));
        return;
      }
      if (code !== 0) {
        finish(scorerError(`the command exited with code ${String(code)}${quoteStderr(errText)}`, stderrDetails(stderr)));
        return;
      }
      finish(verdictFrom(Buffer.concat(stdout).toString('utf8'), stderrDetails(stderr)));
    });
  });
}

/** Reads the script's answer (stdout trimmed). Unknown keys are ignored, as EvalCore does. */
function verdictFrom(text: string, details: { [key: string]: Json } | undefined): ScorerVerdict {
  const trimmed = text.trim();
  if (trimmed === '') return scorerError('the command printed nothing on stdout; it must print {"score": <0..1>}', details);
  let answer: unknown;
  try {
    answer = JSON.parse(trimmed);
  } catch (e) {
    return scorerError(`the command's stdout is not valid JSON (${e instanceof Error ? e.message : String(e)})`, details);
  }
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) return scorerError('the command printed JSON that is not an object; it must print {"score": <0..1>}', details);
  const fields = answer as { [key: string]: unknown };
  const score = fields['score'];
  if (score === undefined) return scorerError('the command\'s JSON has no "score"', details);
  if (typeof score !== 'number') return scorerError(`the command's "score" is ${score === null ? 'null' : typeof score}, not a number`, details);
  if (!(score >= 0 && score <= 1)) return scorerError(`the command's score ${String(score)} is outside [0, 1]`, details);
  const passedField = fields['passed'];
  if (passedField !== undefined && typeof passedField !== 'boolean') return scorerError(`the command's "passed" is ${passedField === null ? 'null' : typeof passedField}, not a boolean`, details);
  const reasonField = fields['reason'];
  if (reasonField !== undefined && reasonField !== null && typeof reasonField !== 'string') return scorerError(`the command's "reason" is ${typeof reasonField}, not a string`, details);
  const passed = passedField ?? score >= 0.5;
  const reason =
    typeof reasonField === 'string' && reasonField !== ''
      ? truncate(reasonField, QUOTE_CHARS)
      : `the command scored ${String(score)}${passedField === undefined ? ` (passes at score >= 0.5)` : `, passed: ${String(passedField)}`}`;
  return passed ? pass(reason, score, details) : fail(reason, score, details);
}

function scorerError(message: string, details?: { [key: string]: Json }): ScorerVerdict {
  return fail(PREFIX + message, 0, details);
}

function quoteStderr(text: string): string {
  const trimmed = text.trim();
  return trimmed === '' ? ' and wrote nothing to stderr' : `; stderr: "${truncate(trimmed, QUOTE_CHARS)}"`;
}

function stderrDetails(chunks: readonly Buffer[]): { [key: string]: Json } | undefined {
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return undefined;
  const chars = Array.from(text);
  return { stderr: chars.length > QUOTE_CHARS ? `…${chars.slice(-QUOTE_CHARS).join('')}` : text };
}

function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max).join('')}… (${chars.length - max} more characters)` : text;
}
