import { parseArgs } from 'node:util';
import { MAX_CONCURRENCY, MAX_TRIALS } from '../core/config/runConfig';
import { isReporterName, REPORTER_NAMES, type ReporterName } from './reporters/index';

export interface ReporterRequest {
  readonly name: ReporterName;
  readonly out?: string;
}

export type Command =
  | { readonly kind: 'help' }
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
    }
  | { readonly kind: 'version' }
  /** What a run would do: cases, trials and LLM judge calls (`--json` for the extension). */
  | { readonly kind: 'plan'; readonly config: string; readonly caseIds: readonly string[]; readonly filter?: string; readonly trials?: number; readonly json: boolean }
  /** `listCases` (--cases): print the cases of `config` and of `moreConfigs`, one JSON line per config. */
  | { readonly kind: 'validate'; readonly config: string; readonly listCases?: boolean; readonly moreConfigs?: readonly string[] }
  | {
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
    };

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const USAGE = `Usage:
  evallens run <config.eval.yaml> [options]   run an eval; exit 0 all passed, 1 some failed, 2 config or usage error,
                                              3 nothing scored (every case skipped, or no case)
  evallens validate <config.eval.yaml>        check a config and report its problems
  evallens validate <config.eval.yaml>… --cases  print each config's cases (ids, lines) as a JSON line
  evallens plan <config.eval.yaml> [--case <id>]… [--filter <glob>] [--trials <n>] [--json]
                                              count the cases, trials and LLM judge calls a run would make
  evallens report <results folder | report.json> [options]
                                              show results made elsewhere: an EvalBench results folder
                                              (reporting: csv — a <job_id>/ folder with configs.csv, evals.csv,
                                              scores.csv, summary.csv, or a folder of them, or one of those
                                              files), an EvalLens run folder or a report.json; exit 0 all
                                              passed, 1 some failed or a row could not be read, 2 unreadable
                                              (\`evallens run\` on an EvalBench results folder does the same)
  evallens --help | --version

Options for run:
  --reporter <name>    console (default), json, jsonl, junit, csv; repeatable
  --out <path>         write the reporter just before it to this file (else standard output)
  --case <id>          run only this case; repeatable
  --filter <glob>      run only cases whose id matches (* and ?)
  --concurrency <n>    cases scored at once, 1 to 256 (default: number of cores)
  --trials <n>         score each case n times, 1 to 100 (overrides num_trials)
  --runs-dir <dir>     where run folders go (default: .evallens/runs)
  --no-color           plain console output
  --untrusted          run as in an untrusted workspace: subprocess and Python scorers, targets and
                       LLM judges are skipped ("workspace is not trusted"); no process, no network

Options for report:
  --reporter <name>, --out <path>, --no-color   as for run
  --runs-dir <dir>     where the report.json of EvalBench results goes: <dir>/<run id>/ (default: .evallens/runs)
  --report-file <path> write that report.json here instead`;

/** Parses argv (without node and the script). `--out` binds to the `--reporter` before it. */
export function parseCommand(argv: readonly string[]): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      tokens: true,
      options: {
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
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message.split('\n')[0] ?? 'bad arguments');
  }
  const { values, positionals, tokens } = parsed;
  if (values.help === true) return { kind: 'help' };
  if (values.version === true) return { kind: 'version' };
  const [verb, config, ...rest] = positionals;
  if (verb === undefined) throw new UsageError('no command given');
  if (verb !== 'run' && verb !== 'validate' && verb !== 'plan' && verb !== 'report') throw new UsageError(`unknown command "${verb}" (expected run, validate, plan or report)`);
  if (verb === 'report' && config === undefined) throw new UsageError('`evallens report` needs the path of a results folder (EvalBench\'s <job_id>/ folder, a folder of them, an EvalLens run folder) or a report.json');
  if (config === undefined) throw new UsageError(`\`evallens ${verb}\` needs the path of a run config`);
  if (verb === 'validate' && values.cases === true) return { kind: 'validate', config, listCases: true, moreConfigs: rest };
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0] ?? ''}"`);
  if (verb === 'validate') return { kind: 'validate', config };
  if (verb === 'plan') {
    const trials = positiveInteger(values.trials, '--trials', MAX_TRIALS);
    return { kind: 'plan', config, caseIds: values.case ?? [], ...(values.filter === undefined ? {} : { filter: values.filter }), ...(trials === undefined ? {} : { trials }), json: values.json === true };
  }

  const reporters: { name: ReporterName; out?: string }[] = [];
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    if (token.name === 'reporter') {
      const name = token.value ?? '';
      if (!isReporterName(name)) throw new UsageError(`unknown reporter "${name}" (expected one of ${REPORTER_NAMES.join(', ')})`);
      reporters.push({ name });
    } else if (token.name === 'out') {
      const last = reporters[reporters.length - 1];
      if (last === undefined) throw new UsageError('--out must follow the --reporter it is for, e.g. `--reporter json --out report.json`');
      if (last.out !== undefined) throw new UsageError(`--out given twice for the ${last.name} reporter`);
      last.out = token.value ?? '';
    }
  }
  const color = values['no-color'] === true ? false : values.color;
  if (verb === 'report') {
    const unused = (['case', 'filter', 'concurrency', 'trials', 'untrusted', 'json', 'cases'] as const).find((name) => values[name] !== undefined);
    if (unused !== undefined) throw new UsageError(`--${unused} is for running an eval; \`evallens report\` shows results already made`);
    return {
      kind: 'report',
      path: config,
      reporters,
      ...(values['runs-dir'] === undefined ? {} : { runsDir: values['runs-dir'] }),
      ...(values['report-file'] === undefined ? {} : { reportFile: values['report-file'] }),
      ...(color === undefined ? {} : { color }),
    };
  }
  const concurrency = positiveInteger(values.concurrency, '--concurrency', MAX_CONCURRENCY);
  const trials = positiveInteger(values.trials, '--trials', MAX_TRIALS);
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
  };
}

function positiveInteger(value: string | undefined, flag: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(`${flag} must be a whole number from 1 to ${max}; got "${value}"`);
  return n;
}
