import { isAbsolute, parse } from 'node:path';
import type { Json } from '../../case';
import { fail, pass, type ScorerVerdict } from '../../result';
import schema from '../../../schemas/scorers/python_scorer.schema.json';
import { answerMetrics, metricsOnly, withMetrics } from '../../evalhub/answerMetrics';
import { endedHow, type ProcessCommand } from '../../process/processGroup';
import { findOnPath } from '../support/processPath';
import { runOnce, type RunLimit } from '../support/processRun';
import { QUOTE_CHARS, stderrDetails, truncate } from '../support/processText';
import type { RowDict } from '../support/pythonEquality';
import { evalRows, executionRows, runError } from '../support/sqlRows';
import commonSchema from '../../../schemas/scorer-common.schema.json';
import {
  checked,
  defineScorer,
  type OptionIssue,
  refused,
  resolveOptionPath,
  type ScorerContext,
  type ScoringInput,
} from '../scorer';
import { parseJson } from '../../text/jsonDepth';
import { isObject } from '../../../shared/isObject';

/** The failure prefix of EvalBench's python_scorer: every failure is score 0 with a `FAIL: …` reason. */
const FAIL = 'FAIL: ';
const NOUN = 'the script';
/** EvalLens's common options (and the list form's `type`): not EvalBench's, so not sent to the script. */
const ENGINE_KEYS: ReadonlySet<string> = new Set([...Object.keys(commonSchema.properties), 'type']);

/**
 * EvalBench's `python_scorer` (scorers/pythonscorer.py): runs `uv run --isolated <script_path>`
 * (or `python3 <script_path>` when uv is not on PATH, said once at the config entry) from the
 * config's folder, the evaluation context as one JSON object on stdin (`evaluationContext`), and
 * reads `{"score", "reason"}` from its stdout. The score is on EvalBench's 0–100 scale and passes
 * at exactly 100 (EvalBench counts only 100 as correct) unless a `threshold` is set. Every failure
 * is score 0 with a reason starting `FAIL: `, as EvalBench gives it.
 */
export const pythonScorer = defineScorer('python_scorer', {
  origin: 'EvalBench',
  scale: { kind: 'bounded', max: 100 },
  reaches: 'workspace-code',
  schema,
  reportsAs: (options) => scorerName(options),
  check(options, context) {
    const found = scriptCommand(options, context);
    return found.ok ? checked([], found.notices) : checked([found.issue]);
  },
  create(options, context) {
    const found = scriptCommand(options, context);
    if (!found.ok) return refused(found.issue);
    const { command, notices } = found;
    // EvalBench has no limit; here the script is stopped a little before the runner would stop waiting.
    const limit: RunLimit = {
      ms: Math.max(1, context.timeoutMs - Math.min(1000, Math.floor(context.timeoutMs / 10))),
      from: "just under the scorer's time limit",
    };
    const config = scriptConfig(options);
    return {
      ok: true,
      notices,
      scorer: {
        async score(input, signal) {
          const stdin = JSON.stringify(evaluationContext(input, config));
          const outcome = await runOnce(command, context.configDir, stdin, limit, signal, NOUN);
          const details = stderrDetails(outcome.stderr);
          if (outcome.kind === 'stopped') return failed(outcome.reason, details);
          if (outcome.signal !== null || outcome.code !== 0) {
            const stderr = outcome.stderr.trim();
            return failed(
              `the script ${endedHow(outcome.code, outcome.signal)}. Stderr: ${stderr === '' ? '(empty)' : truncate(stderr, QUOTE_CHARS)}`,
              details,
            );
          }
          return answerVerdict(outcome.stdout, details);
        },
      },
    };
  },
});

/** EvalBench's name rule: `scorer_name` (trimmed), else the script's base name without its extension. */
export function scorerName(options: { readonly [key: string]: Json }): string | undefined {
  const given = options['scorer_name'];
  if (typeof given === 'string' && given.trim() !== '') return given.trim();
  const script = options['script_path'];
  if (typeof script === 'string' && script.trim() !== '') {
    const base = parse(script.trim()).name.trim();
    if (base !== '') return base;
  }
  return undefined;
}

/** The scorer's options as EvalBench's `config`: what the person wrote for the script, without EvalLens's common options. */
function scriptConfig(options: { readonly [key: string]: Json }): { readonly [key: string]: Json } {
  return Object.fromEntries(Object.entries(options).filter(([key]) => !ENGINE_KEYS.has(key)));
}

/**
 * The JSON object on the script's stdin, EvalBench's fields in its order: the ten compare arguments,
 * `database`, `sqlite_db_dir`, `config`, `kwargs`, then EvalLens's `case`, then every other option
 * of the scorer (besides `script_path`) at the top level, unless a field of that name came first.
 */
export function evaluationContext(
  input: ScoringInput,
  config: { readonly [key: string]: Json },
): { [key: string]: Json } {
  const evalCase = input.case;
  const sql = evalCase.sql;
  const expected = input.expected;
  const fields = isObject(expected) ? expected : {};
  const goldenSql = fields['golden_sql'];
  const context: { [key: string]: Json } = {
    nl_prompt: evalCase.input ?? null,
    golden_query:
      sql?.goldenSql ?? (Array.isArray(goldenSql) ? ((goldenSql as readonly Json[])[0] ?? null) : (expected ?? null)),
    query_type: typeof fields['query_type'] === 'string' ? fields['query_type'] : '',
    golden_execution_result: sql === undefined ? null : rowsJson(executionRows(sql.golden)),
    golden_eval_result: sql === undefined ? '' : rowsJson(evalRows(sql.golden)),
    golden_error: sql === undefined ? null : (runError(sql.golden) ?? null),
    generated_query: sql?.generatedSql ?? input.output ?? null,
    generated_execution_result: sql === undefined ? null : rowsJson(executionRows(sql.generated)),
    generated_eval_result: sql === undefined ? (evalCase.trace ?? '') : rowsJson(evalRows(sql.generated)),
    generated_error: sql === undefined ? null : (runError(sql.generated) ?? null),
    database: typeof fields['database'] === 'string' ? fields['database'] : '',
    sqlite_db_dir: '',
    config,
    kwargs: {},
    case: caseJson(input),
  };
  for (const [key, value] of Object.entries(config))
    if (key !== 'script_path' && !(key in context)) context[key] = value;
  return context;
}

function caseJson(input: ScoringInput): Json {
  const c = input.case;
  const body: { [key: string]: Json } = { id: c.id };
  if (c.input !== undefined) body['input'] = c.input;
  if (input.output !== undefined) body['output'] = input.output;
  if (input.expected !== undefined) body['expected'] = input.expected;
  if (c.context !== undefined) body['context'] = c.context;
  if (c.trace !== undefined) body['trace'] = c.trace;
  if (c.metadata !== undefined) body['metadata'] = c.metadata;
  return body;
}

function rowsJson(rows: readonly RowDict[]): Json {
  return rows.map((row) => Object.fromEntries(row.keys.map((key, i) => [key, row.values[i] ?? null])));
}

/**
 * EvalBench's reading of the output: stdout trimmed, a JSON object, `score` a number or a numeric
 * string (missing: 0), `reason` (missing: "No reason provided"). EvalLens adds one check, since its
 * aggregates normalize by 100: a score that is not a finite number in [0, 100] is a failure.
 */
function answerVerdict(stdout: string, details: { [key: string]: Json } | undefined): ScorerVerdict {
  const text = stdout.trim();
  let answer: unknown;
  try {
    answer = parseJson(text);
  } catch {
    return failed(
      text === ''
        ? 'the script printed nothing on stdout; it must print {"score": <0..100>, "reason": "…"}'
        : 'Failed to parse JSON from script output',
      withStdout(details, text),
    );
  }
  if (!isObject(answer))
    return failed(
      'Error processing script output: the JSON is not an object; it must be {"score": <0..100>, "reason": "…"}',
      withStdout(details, text),
    );
  const read = answerMetrics(answer, 'the script');
  if (!read.ok) return failed(`Error processing script output: ${read.message}`, details);
  // Metrics and no score: the entry's primary_score (or the script's primary_metric) gives the score.
  if (answer['score'] === undefined && read.metrics !== undefined) return metricsOnly(read, 'the script', details);
  const raw = answer['score'] ?? 0;
  const score =
    typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw.trim()) : Number.NaN;
  if (Number.isNaN(score))
    return failed(`Error processing script output: "score" is ${describe(raw)}, not a number`, details);
  if (!(score >= 0 && score <= 100))
    return failed(`the script's score ${String(score)} is outside 0–100 (EvalBench's scale)`, details);
  const reasonField = answer['reason'];
  const reason =
    reasonField === undefined || reasonField === null
      ? 'No reason provided'
      : typeof reasonField === 'string'
        ? reasonField
        : JSON.stringify(reasonField);
  const shown = truncate(reason, QUOTE_CHARS);
  return withMetrics(score === 100 ? pass(shown, score, details) : fail(shown, score, details), read);
}

function failed(message: string, details?: { readonly [key: string]: Json }): ScorerVerdict {
  return fail(FAIL + message, 0, details);
}

function withStdout(details: { [key: string]: Json } | undefined, stdout: string): { [key: string]: Json } {
  return { ...details, stdout: truncate(stdout, QUOTE_CHARS) };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return 'a string that is not a number';
  return Array.isArray(value) ? 'a list' : typeof value;
}

/** How the script runs (uv, else python3, said as a notice), or why it cannot: it does not exist. */
function scriptCommand(
  options: { readonly [key: string]: Json },
  context: ScorerContext,
): { ok: true; command: ProcessCommand; notices: OptionIssue[] } | { ok: false; issue: OptionIssue } {
  const scriptPath = String(options['script_path']);
  const script = isAbsolute(scriptPath) ? scriptPath : resolveOptionPath(context, scriptPath);
  if (context.fileExists !== undefined && !context.fileExists(script)) {
    return {
      ok: false,
      issue: {
        path: ['script_path'],
        message: `the script ${script} does not exist (script_path is relative to the config's folder)`,
      },
    };
  }
  const path = context.env['PATH'];
  const uv = findOnPath('uv', path);
  const notices: OptionIssue[] = [];
  let command: ProcessCommand;
  if (uv !== undefined) {
    command = { file: uv, args: ['run', '--isolated', script] };
  } else {
    command = { file: 'python3', args: [script] };
    notices.push({
      path: ['script_path'],
      message:
        findOnPath('python3', path) === undefined
          ? 'neither uv nor python3 is on PATH: every case will fail until one is installed (EvalBench runs `uv run --isolated <script>`)'
          : 'uv is not on PATH, so the script runs with `python3 <script>` instead of `uv run --isolated <script>`; PEP 723 inline dependencies are not installed',
    });
  }
  return { ok: true, command, notices };
}
