import { parseArgs } from 'node:util';
import { MAX_CONCURRENCY, MAX_TRIALS } from '../core/config/runConfig';
import { COMMAND_NAMES, isCommandName, type CommandName } from './help';
import { isReporterName, REPORTER_NAMES, type ReporterName } from './reporterNames';
import type { CompareCommand } from './compare';
import { CompareUsageError, parseCompareArgs } from './compareArgs';
import { parseBaselineArgs, type BaselineCommand } from './baselineArgs';
import { CompareInputError } from './compareInputError';
import { BudgetUsageError, parseBudget } from './budgetArgs';
import type { BudgetLimits } from '../core/judge/budget';
import { CacheUsageError, parseCacheArgs, type CacheCommand } from './cacheArgs';
import { RUN_BASELINE_OPTIONS, runBaselineFlags, type RunBaselineFlags } from './runBaselineArgs';
import type { Shard } from '../core/runner/shard';
import { shardFromFlags } from './shardArgs';
import type { MergeCommand } from './merge';

export interface ReporterRequest {
  readonly name: ReporterName;
  readonly out?: string;
}

export type Command =
  /** General help, or one command's options. */
  | { readonly kind: 'help'; readonly command?: CommandName }
  /**
   * Show results made elsewhere: an EvalBench results folder (a job folder or a folder of them, or one
   * of its CSV files), an EvalLens run folder or a report.json. `reportFile`: where the report.json
   * goes (default `<runsDir>/<run id>/report.json`).
   */
  | {
      readonly kind: 'report';
      readonly path: string;
      readonly reporters: readonly ReporterRequest[];
      readonly runsDir?: string;
      readonly reportFile?: string;
      readonly color?: boolean;
      /** The report's parts one JSON line each as they are checked, for the results view (cli/reportStream.ts). */
      readonly stream?: boolean;
      /** `--details-of <case id>`: that case's results' details as one JSON line, for the results view (cli/reportDetails.ts). */
      readonly detailsOf?: string;
    }
  | { readonly kind: 'version' }
  /** What a run would do: cases, trials and LLM judge calls (`--json` for the extension). */
  | {
      readonly kind: 'plan';
      readonly config: string;
      readonly caseIds: readonly string[];
      readonly filter?: string;
      readonly trials?: number;
      readonly json: boolean;
      readonly untrusted?: boolean;
      /** `--shard i/n` (or `--shard-index k --shard-count n`): plan only that shard's cases, as `run --shard` runs them. */
      readonly shard?: Shard;
    }
  /**
   * `listCases` (--cases): print the cases of `config` and of `moreConfigs`, one JSON line per config.
   * `caseData` (--case-data <id>): print that case's fields as one JSON line (protocol/caseData.ts).
   * `untrusted`: read the configs as an untrusted run does (no environment variable is read).
   */
  | {
      readonly kind: 'validate';
      readonly config: string;
      readonly listCases?: boolean;
      readonly moreConfigs?: readonly string[];
      readonly caseData?: string;
      readonly untrusted?: boolean;
    }
  | ({
      readonly kind: 'run';
      readonly config: string;
      readonly reporters: readonly ReporterRequest[];
      readonly caseIds: readonly string[];
      readonly filter?: string;
      readonly concurrency?: number;
      readonly trials?: number;
      readonly runsDir?: string;
      readonly color?: boolean;
      /** Run as in an untrusted workspace: no workspace code, no network (those scorers are skipped). */
      readonly untrusted: boolean;
      /** `--max-judge-calls`, `--max-cost` (cli/budgetArgs.ts). */
      readonly budget?: BudgetLimits;
      /** The result cache (docs/cache.md): `--no-cache` neither reads nor writes it; `--cache-dir` moves it. */
      readonly noCache?: boolean;
      readonly cacheDir?: string;
      /** `--shard i/n` or `--shard-index k --shard-count n`: only the cases of that shard (cli/shardArgs.ts). */
      readonly shard?: Shard;
      /** `--resume <run-id|latest>`: finish that run in its folder (cli/resume.ts). */
      readonly resume?: string;
      /** `--rerun failed|errored [--from <run-id|latest>]`: a new run re-running those cases of that run. */
      readonly rerun?: { readonly which: 'failed' | 'errored'; readonly from: string };
    } & RunBaselineFlags)
  /** Shards' run folders merged into one report (cli/merge.ts). */
  | MergeCommand
  /** Two runs compared (cli/compare.ts). */
  | CompareCommand
  /** A run saved as a baseline file (cli/baseline.ts). */
  | BaselineCommand
  /** The result cache's size, or emptied (cli/cacheCommand.ts). */
  | CacheCommand;

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The options each command accepts (their long names); any other is refused naming the command. */
const COMMAND_OPTIONS: Readonly<Record<CommandName, readonly string[]>> = {
  run: [
    'help',
    'reporter',
    'out',
    'case',
    'filter',
    'concurrency',
    'trials',
    'runs-dir',
    'color',
    'no-color',
    'untrusted',
    'max-cost',
    'max-judge-calls',
    'no-cache',
    'cache-dir',
    ...RUN_BASELINE_OPTIONS,
    'shard',
    'shard-index',
    'shard-count',
    'resume',
    'rerun',
    'from',
  ],
  validate: ['help', 'cases', 'case-data', 'untrusted'],
  plan: ['help', 'case', 'filter', 'trials', 'json', 'untrusted', 'shard', 'shard-index', 'shard-count'],
  report: ['help', 'reporter', 'out', 'runs-dir', 'report-file', 'color', 'no-color', 'stream', 'details-of'],
  compare: ['help', 'reporter', 'out', 'fail-on'],
  baseline: ['help', 'runs-dir'],
  cache: ['help', 'cache-dir', 'runs-dir', 'json'],
  merge: ['help', 'reporter', 'out', 'runs-dir', 'color', 'no-color'],
};

/** What each option's value is, for "needs a value" messages. */
const OPTION_VALUES: Readonly<Record<string, string>> = {
  reporter: 'a reporter name',
  out: 'a file path',
  case: 'a case id',
  filter: 'a glob',
  concurrency: 'a number',
  trials: 'a number',
  'runs-dir': 'a folder',
  'report-file': 'a file path',
  'case-data': 'a case id',
  'details-of': 'a case id',
  'max-cost': 'an amount',
  'max-judge-calls': 'a number',
  'cache-dir': 'a folder',
  baseline: 'a baseline file, report.json or run folder',
  'fail-on': 'regression, any-change or never',
  shard: 'i/n, one-based (e.g. 2/3)',
  'shard-index': 'a zero-based shard index',
  'shard-count': 'a number of shards',
  resume: 'a run id or latest',
  rerun: 'failed or errored',
  from: 'a run id or latest',
};

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  reporter: { type: 'string', short: 'r', multiple: true },
  out: { type: 'string', short: 'o', multiple: true },
  case: { type: 'string', multiple: true },
  filter: { type: 'string' },
  concurrency: { type: 'string' },
  trials: { type: 'string' },
  'runs-dir': { type: 'string' },
  color: { type: 'boolean' },
  'no-color': { type: 'boolean' },
  untrusted: { type: 'boolean' },
  json: { type: 'boolean' },
  cases: { type: 'boolean' },
  'report-file': { type: 'string' },
  stream: { type: 'boolean' },
  'case-data': { type: 'string' },
  'details-of': { type: 'string' },
  'max-cost': { type: 'string' },
  'max-judge-calls': { type: 'string' },
  'no-cache': { type: 'boolean' },
  'cache-dir': { type: 'string' },
  baseline: { type: 'string' },
  'save-baseline': { type: 'boolean' },
  'fail-on': { type: 'string' },
  shard: { type: 'string' },
  'shard-index': { type: 'string' },
  'shard-count': { type: 'string' },
  resume: { type: 'string' },
  rerun: { type: 'string' },
  from: { type: 'string' },
} as const;

/** Text from the command line as it can be printed: control characters (terminal escapes) written as \\uXXXX. */
function printable(text: string): string {
  return text.replace(
    /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Where a usage error sends the person: the command's help when the command is known, else the general one. */
function seeHelp(command: string | undefined): string {
  return command !== undefined && isCommandName(command)
    ? `see \`evallens ${command} --help\``
    : 'see `evallens --help`';
}

/** A parser error in our words: the option it is about and what was expected, one line. */
function parserError(error: Error & { code?: string }, command: string | undefined): UsageError {
  const quoted = /'(-[^' ]*)/.exec(error.message)?.[1];
  const option = quoted?.replace(/^-[a-z], /, '');
  const name = option?.replace(/^-+/, '');
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option !== undefined) {
    const where = command !== undefined && isCommandName(command) ? ` of \`evallens ${command}\`` : '';
    return new UsageError(`${printable(option)} is not an option${where}; ${seeHelp(command)}`);
  }
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && name !== undefined) {
    if (OPTION_VALUES[name] !== undefined) {
      const hint = /ambiguous/.test(error.message)
        ? ` (to give a value that starts with "-", write --${name}=<value>)`
        : '';
      return new UsageError(`--${name} needs ${OPTION_VALUES[name]}${hint}; ${seeHelp(command)}`);
    }
    return new UsageError(`--${name} takes no value; ${seeHelp(command)}`);
  }
  return new UsageError(`the arguments could not be read; ${seeHelp(command)}`);
}

/** Parses argv (without node and the script). `--out` binds to the `--reporter` before it. */
export function parseCommand(argv: readonly string[]): Command {
  const first = argv.find((arg) => !arg.startsWith('-'));
  if (first === 'baseline') {
    try {
      const parsed = parseBaselineArgs(argv);
      return 'help' in parsed ? { kind: 'help', command: 'baseline' } : parsed;
    } catch (e) {
      if (e instanceof CompareInputError) throw new UsageError(e.message);
      throw e;
    }
  }
  if (first === 'cache') {
    try {
      const parsed = parseCacheArgs(argv);
      return 'help' in parsed ? { kind: 'help', command: 'cache' } : parsed;
    } catch (e) {
      if (e instanceof CacheUsageError) throw new UsageError(e.message);
      throw e;
    }
  }
  if (first === 'compare') {
    try {
      return parseCompareArgs(argv) ?? { kind: 'help', command: 'compare' };
    } catch (e) {
      if (e instanceof CompareUsageError) throw new UsageError(e.message);
      throw e;
    }
  }
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, tokens: true, options: OPTIONS });
  } catch (e) {
    throw parserError(e as Error & { code?: string }, first);
  }
  const { values, positionals, tokens } = parsed;
  const [verb, config, ...rest] = positionals;
  if (verb === 'help') {
    if (config !== undefined && !isCommandName(config))
      throw new UsageError(
        `no command "${printable(config)}" (expected ${COMMAND_NAMES.join(', ')}); see \`evallens --help\``,
      );
    if (rest.length > 0)
      throw new UsageError(
        `unexpected argument "${printable(rest[0] ?? '')}": \`evallens help\` takes one command name; see \`evallens --help\``,
      );
    return config === undefined ? { kind: 'help' } : { kind: 'help', command: config };
  }
  if (verb === 'version' || (verb === undefined && values.version === true)) return { kind: 'version' };
  if (verb === undefined) {
    if (values.help === true) return { kind: 'help' };
    throw new UsageError(
      'no command given (expected run, validate, plan, report, compare, baseline, cache or merge); see `evallens --help`',
    );
  }
  if (!isCommandName(verb))
    throw new UsageError(
      `unknown command "${printable(verb)}" (expected run, validate, plan, report, compare, baseline, cache or merge); see \`evallens --help\``,
    );
  if (values.help === true) return { kind: 'help', command: verb };
  if (verb === 'report') {
    const unused = (['case', 'filter', 'concurrency', 'trials', 'untrusted', 'json', 'cases'] as const).find(
      (name) => values[name] !== undefined,
    );
    if (unused !== undefined)
      throw new UsageError(
        `--${unused} is for running an eval; \`evallens report\` shows results already made; see \`evallens report --help\``,
      );
  }
  for (const token of tokens) {
    if (token.kind === 'option' && !COMMAND_OPTIONS[verb].includes(token.name)) {
      throw new UsageError(
        `${printable(token.rawName)} is not an option of \`evallens ${verb}\`; see \`evallens ${verb} --help\``,
      );
    }
  }
  if (verb === 'merge' && config === undefined)
    throw new UsageError(
      '`evallens merge` needs the run folders (or their report.json) of the shards of one run; see `evallens merge --help`',
    );
  if (verb === 'report' && config === undefined)
    throw new UsageError(
      "`evallens report` needs the path of a results folder (EvalBench's <job_id>/ folder, a folder of them, an EvalLens run folder) or a report.json; see `evallens report --help`",
    );
  if (config === undefined)
    throw new UsageError(`\`evallens ${verb}\` needs the path of a run config; see \`evallens ${verb} --help\``);
  const untrusted = values.untrusted === true ? { untrusted: true } : {};
  if (verb === 'validate' && values.cases === true)
    return { kind: 'validate', config, listCases: true, moreConfigs: rest, ...untrusted };
  if (rest.length > 0 && verb !== 'merge')
    throw new UsageError(
      `unexpected argument "${printable(rest[0] ?? '')}": \`evallens ${verb}\` takes one ${verb === 'report' ? 'results folder or report.json' : 'config'}; see \`evallens ${verb} --help\``,
    );
  if (verb === 'validate')
    return {
      kind: 'validate',
      config,
      ...(values['case-data'] === undefined ? {} : { caseData: values['case-data'] }),
      ...untrusted,
    };
  if (verb === 'plan') {
    const trials = positiveInteger(values.trials, '--trials', MAX_TRIALS);
    const planShard = shardFromFlags(values);
    if (typeof planShard === 'string') throw new UsageError(`${printable(planShard)}; see \`evallens plan --help\``);
    return {
      kind: 'plan',
      config,
      caseIds: values.case ?? [],
      ...(values.filter === undefined ? {} : { filter: values.filter }),
      ...(trials === undefined ? {} : { trials }),
      ...(planShard === undefined ? {} : { shard: planShard }),
      json: values.json === true,
      ...untrusted,
    };
  }

  const reporters: { name: ReporterName; out?: string }[] = [];
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    if (token.name === 'reporter') {
      const name = token.value ?? '';
      if (!isReporterName(name))
        throw new UsageError(
          `unknown reporter "${printable(name)}" (expected one of ${REPORTER_NAMES.join(', ')}); see \`evallens ${verb} --help\``,
        );
      reporters.push({ name });
    } else if (token.name === 'out') {
      const last = reporters[reporters.length - 1];
      if (last === undefined)
        throw new UsageError('--out must follow the --reporter it is for, e.g. `--reporter json --out report.json`');
      if (last.out !== undefined) throw new UsageError(`--out given twice for the ${last.name} reporter`);
      last.out = token.value ?? '';
    }
  }
  const color = values['no-color'] === true ? false : values.color;
  if (verb === 'report') {
    return {
      kind: 'report',
      path: config,
      reporters,
      ...(values['runs-dir'] === undefined ? {} : { runsDir: values['runs-dir'] }),
      ...(values['report-file'] === undefined ? {} : { reportFile: values['report-file'] }),
      ...(color === undefined ? {} : { color }),
      ...(values.stream === true ? { stream: true } : {}),
      ...(values['details-of'] === undefined ? {} : { detailsOf: values['details-of'] }),
    };
  }
  if (verb === 'merge') {
    return {
      kind: 'merge',
      inputs: [config, ...rest],
      reporters,
      ...(values['runs-dir'] === undefined ? {} : { runsDir: values['runs-dir'] }),
      ...(color === undefined ? {} : { color }),
    };
  }
  const shard = shardFromFlags(values);
  if (typeof shard === 'string') throw new UsageError(`${printable(shard)}; see \`evallens run --help\``);
  const again = continuation(values);
  // A baseline is the whole run: saved from a shard or a re-run of some cases, every other case would look removed.
  if (
    values['save-baseline'] === true &&
    (shard !== undefined || again.rerun !== undefined || again.resume !== undefined)
  )
    throw new UsageError(
      '--save-baseline saves a whole run as the baseline: not a shard, a resumed or a re-run one (save the merged or finished run with `evallens baseline save`); see `evallens run --help`',
    );
  const concurrency = positiveInteger(values.concurrency, '--concurrency', MAX_CONCURRENCY);
  const trials = positiveInteger(values.trials, '--trials', MAX_TRIALS);
  const budget = budgetOf(values['max-cost'], values['max-judge-calls']);
  return {
    kind: 'run',
    config,
    reporters,
    caseIds: values.case ?? [],
    ...(values.filter === undefined ? {} : { filter: values.filter }),
    ...(concurrency === undefined ? {} : { concurrency }),
    ...(trials === undefined ? {} : { trials }),
    ...(values['runs-dir'] === undefined ? {} : { runsDir: values['runs-dir'] }),
    ...(color === undefined ? {} : { color }),
    untrusted: values.untrusted === true,
    ...(budget === undefined ? {} : { budget }),
    ...(values['no-cache'] === true ? { noCache: true } : {}),
    ...(values['cache-dir'] === undefined ? {} : { cacheDir: values['cache-dir'] }),
    ...runBaselineFlags(values, (message) => new UsageError(message)),
    ...(shard === undefined ? {} : { shard }),
    ...again,
  };
}

function budgetOf(maxCost: string | undefined, maxJudgeCalls: string | undefined): BudgetLimits | undefined {
  try {
    return parseBudget(maxCost, maxJudgeCalls);
  } catch (e) {
    if (e instanceof BudgetUsageError) throw new UsageError(`${e.message}; see \`evallens run --help\``);
    throw e;
  }
}

/** `--resume`, or `--rerun` with `--from` (default latest); checked here, the run found in cli/resume.ts. */
function continuation(values: { resume?: string; rerun?: string; from?: string }) {
  const { resume, rerun, from } = values;
  if (resume !== undefined && (rerun !== undefined || from !== undefined))
    throw new UsageError(
      '--resume finishes a run in its folder; --rerun (with --from) re-runs some cases of a run in a new one: give one of them',
    );
  if (from !== undefined && rerun === undefined)
    throw new UsageError('--from names the run whose cases --rerun failed|errored re-runs; give --rerun too');
  if (resume !== undefined) return { resume: runRef(resume, '--resume') };
  if (rerun === undefined) return {};
  if (rerun !== 'failed' && rerun !== 'errored')
    throw new UsageError(
      `--rerun takes failed (the cases that failed or errored) or errored (only those that errored); got "${printable(rerun)}"`,
    );
  return { rerun: { which: rerun, from: runRef(from ?? 'latest', '--from') } } as const;
}

/** A run id as the runs folder names it (no path), or `latest`. */
function runRef(value: string, flag: string): string {
  if (value === 'latest' || /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(value)) return value;
  throw new UsageError(
    `${flag} takes a run id (a folder name in the runs folder, e.g. 2026-12-01T20-48-09-553Z-bb8260) or latest; got "${printable(value)}"`,
  );
}

function positiveInteger(value: string | undefined, flag: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new UsageError(`${flag} must be a whole number from 1 to ${max}; got "${printable(value)}"`);
  return n;
}
