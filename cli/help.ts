/**
 * What `evallens --help`, `evallens help [command]` and `evallens <command> --help` print. The exit
 * codes here, in cli/main.ts (EXIT) and in the README's CLI section say the same thing.
 */

export type CommandName = 'run' | 'validate' | 'plan' | 'report' | 'compare' | 'baseline' | 'cache' | 'merge';
export const COMMAND_NAMES: readonly CommandName[] = [
  'run',
  'validate',
  'plan',
  'report',
  'compare',
  'baseline',
  'cache',
  'merge',
];

export function isCommandName(name: string): name is CommandName {
  return (COMMAND_NAMES as readonly string[]).includes(name);
}

export const EXIT_CODES = `Exit codes:
  0    every case passed
  1    a case failed or errored, or a scorer or job test failed, or (run with a baseline) a
       significant regression (--fail-on)
  2    config or usage error, nothing ran: an unknown option, a config with errors, a --case id the
       dataset does not have, a --filter no case id matches, a baseline that cannot be compared
  3    nothing scored: every case was skipped, or the dataset has no case
  130  cancelled (Ctrl-C)`;

export const GENERAL_HELP = `Usage: evallens <command> [options]

Commands:
  run <config.eval.yaml>        run an eval and report each case
  validate <config.eval.yaml>   check a config, its dataset and database configs, without running
  plan <config.eval.yaml>       count the cases, trials and LLM judge calls a run would make
  report <results folder | report.json>
                                show results made elsewhere (an EvalBench results folder, an EvalLens
                                run folder or a report.json)
  compare <baseline> <candidate>
                                compare two runs case by case: per scorer the change with its 95%
                                interval, a paired test and a verdict; the cases that regressed
  baseline save <config.eval.yaml>
                                write the config's latest run as <name>.baseline.json beside it
                                (sorted, no timings), to commit and compare against
  cache stats|clear             the result cache's entries and size, or empty it
  merge <run folder>…           merge the run folders of a sharded run (--shard) into one report,
                                the same as the unsharded run's
  help [command]                this text, or a command's options
  version                       the version of EvalLens (also --version)

Run \`evallens <command> --help\` (or \`evallens help <command>\`) for its options.

${EXIT_CODES}`;

const RUN_HELP = `Usage: evallens run <config.eval.yaml> [options]

Runs an eval and reports each case. Given an EvalBench results folder or a report.json instead of a
config, shows it as \`evallens report\` does.

Options:
  --case <id>          run only this case; repeatable; an id the dataset does not have is an error
  --filter <glob>      run only cases whose id matches (* any text, ? one character, [a-z]); a glob
                       that matches no case is an error
  --reporter <name>    console (default), json, jsonl, junit, csv, evalhub; repeatable
  --out <path>         write the reporter just before it to this file (else standard output)
  --concurrency <n>    cases scored at once, 1 to 256 (default: number of cores)
  --trials <n>         score each case n times, 1 to 100 (overrides num_trials)
  --runs-dir <dir>     where run folders go (default: .evallens/runs)
  --no-cache           neither read nor write the result cache: call every judge, subprocess and
                       Python scorer again (docs/cache.md)
  --cache-dir <dir>    where the result cache is (default: cache beside the runs folder,
                       .evallens/cache)
  --baseline <file>    compare the run with a baseline (a baseline file, report.json or run folder;
                       overrides \`baseline:\` in the config): regressed and fixed cases, each scorer's
                       change with its 95% interval and verdict; checked before the run starts
  --fail-on <what>     with a baseline, what fails the run (exit 1): regression (default: a scorer's
                       significant regression), any-change, never
  --save-baseline      write the config's baseline file from this run (\`baseline:\`, else
                       <name>.baseline.json beside the config), as \`evallens baseline save\` does
  --no-color           plain console output
  --untrusted          run as in an untrusted workspace: subprocess and Python scorers, targets,
                       LLM judges and cases on server databases are skipped ("workspace is not
                       trusted"); no process, no network, no environment variable the workspace
                       names is read, nothing the config chooses is written outside the current folder;
                       the result cache is neither read nor written
  --max-judge-calls <n>
                       start at most n LLM judge calls; later judge results are skipped
                       ("budget reached"), every other scorer still runs
  --max-cost <amount>  start no judge call once the judges' cost (tokens the providers report, at
                       the model configs' price_per_million_* prices) reaches amount; calls under
                       way finish (see docs/spend.md)
  --shard <i/n>        run only shard i of n (one-based: 1/3, 2/3, 3/3); a case's shard is a
                       stable hash of its id, the same on every machine; see docs/ci.md
  --shard-index <k>    the same, zero-based, with --shard-count <n> (k from 0 to n-1), for
  --shard-count <n>    Kubernetes' JOB_COMPLETION_INDEX: --shard-index 1 --shard-count 3 is --shard 2/3
  -h, --help           this text

Progress: with the console reporter on standard output, a progress line (cases done/total, rate,
ETA, failures) is redrawn in place on a terminal, and printed as a plain line every 10 seconds
otherwise (EVALLENS_PROGRESS_SECONDS=<n> changes the interval, =off turns it off).

${EXIT_CODES}`;

const VALIDATE_HELP = `Usage: evallens validate <config.eval.yaml> [options]
       evallens validate <config.eval.yaml>… --cases
       evallens validate <config.eval.yaml> --case-data <id>

Checks a config as a run would, without running anything: its schema, its dataset (every case read)
and its database configs (never connected to). Problems are printed as file:line:col.

Options:
  --cases              print each config's cases (ids, lines) as one JSON line per config
  --case-data <id>     print that case's fields (input, output, expected, trace) as one JSON line
  --untrusted          read the config as an untrusted run does: no environment variable is read
  -h, --help           this text

Exit codes: 0 valid (warnings are printed), 2 the config has errors.`;

const PLAN_HELP = `Usage: evallens plan <config.eval.yaml> [options]

Counts the cases, trials and LLM judge calls a run would make, without making any, and estimates
each judge scorer's tokens (its prompts rendered for the actual cases, 4 characters a token; its
model config's max_tokens per answer) and cost (at the model config's price_per_million_* prices;
no prices, no cost figure). See docs/spend.md.

Options:
  --case <id>          only this case, as for run; repeatable
  --filter <glob>      only cases whose id matches, as for run
  --trials <n>         each case n times, 1 to 100 (overrides num_trials)
  --shard <i/n>        only the cases of shard i of n (one-based), as run --shard picks them
  --shard-index <k>    the same, zero-based, with --shard-count <n> (k from 0 to n-1)
  --shard-count <n>
  --json               print {cases, trials, judgeCalls, scorers, target, reaches, estimate} as JSON
  --untrusted          read the config as an untrusted run does: no environment variable is read
  -h, --help           this text

Exit codes: 0 planned, 2 a config error, a --case id the dataset does not have, or a --filter no
case id matches.`;

const REPORT_HELP = `Usage: evallens report <results folder | report.json> [options]

Shows results made elsewhere: an EvalBench results folder (reporting: csv — a <job_id>/ folder with
configs.csv, evals.csv, scores.csv, summary.csv, or a folder of them, or one of those files), an
EvalLens run folder or a report.json.

Options:
  --reporter <name>    console (default), json, jsonl, junit, csv; repeatable
  --out <path>         write the reporter just before it to this file (else standard output)
  --runs-dir <dir>     where the report.json of EvalBench results goes: <dir>/<run id>/
                       (default: .evallens/runs)
  --report-file <path> write that report.json here instead
  --stream             a report.json or run folder as checked parts, one JSON line each, as they are
                       read (for the results view: head, chunks, then end or error); the results
                       without their details, but for a report of EvalBench's results
  --details-of <id>    the details of that case's results as one JSON line (for the results view)
  --no-color           plain console output
  -h, --help           this text

Exit codes: 0 all passed, 1 some failed or a row could not be read, 2 unreadable.`;

const COMPARE_HELP = `Usage: evallens compare <baseline> <candidate> [options]

Compares two runs of the same config (report.json files, run folders or baseline files), matching cases by id. Per
scorer: each run's mean with its 95% interval, delta = candidate − baseline with its interval, the
p-value of a paired test (exact McNemar for pass/fail, paired t for scores; Holm-adjusted across the
scorers) and a verdict: regressed, improved, no significant change or not enough data. Per case: regressed,
fixed, unchanged_pass, unchanged_fail, added or removed. See docs/compare.md.

Options:
  --reporter <name>    console (default) or json (schemas/compare-report.schema.json)
  --out <path>         write the json reporter to this file (else standard output)
  --fail-on <when>     regression (default): exit 1 when a scorer regressed significantly;
                       any-change: also on a significant improvement or any case that moved;
                       never: exit 0 whatever changed
  -h, --help           this text

Exit codes: 0 no failure by --fail-on, 1 a failure by --fail-on, 2 bad input (unreadable, corrupt, an
older report format, runs of different configs, no shared case): nothing is compared.`;

const BASELINE_HELP = `Usage: evallens baseline save <config.eval.yaml> [options]

Writes the config's latest finished run (in the runs folder) as <name>.baseline.json beside the
config: per case its status and per scorer whether it passed and its mean score, cases sorted by id,
one per line, no timings, run ids or paths, so that it can be committed and a pull request's diff shows
the cases that changed. \`evallens compare\` takes it as either side.

Options:
  --runs-dir <dir>     where the runs are (default: .evallens/runs)
  -h, --help           this text

Exit codes: 0 written, 2 no finished run of the config, or it cannot be read or written.`;

const CACHE_HELP = `Usage: evallens cache stats [options]
       evallens cache clear [options]

The result cache keeps the verdicts of LLM judges, subprocess and Python scorers, keyed by the
scorer, its options and the files they name (by content), the case's fields and the trial; a run
gives a kept verdict instead of calling the scorer again (\`cached: true\` in reports). See
docs/cache.md.

  stats                the number of entries and the size on disk
  clear                remove every entry (safe while a run is using the cache)

Options:
  --cache-dir <dir>    the cache (default: cache beside the runs folder, .evallens/cache)
  --runs-dir <dir>     the runs folder whose cache is meant (default: .evallens/runs)
  --json               print {dir, entries, bytes} (stats) or {dir, removed} (clear) as JSON
  -h, --help           this text

Exit codes: 0 done, 2 the cache cannot be opened or a usage error.`;

const MERGE_HELP = `Usage: evallens merge <run folder | report.json>… [options]

Merges the run folders of the shards of one run (evallens run --shard i/n) into one report: the same
results, cases in dataset order, summaries, statistics and job score as the unsharded run, timings and
run id aside. It is written as a run folder of its own (report.json) and through the reporters.
Refuses shards of different configs, datasets, trials or selections, a shard given twice, a shard
missing or one that did not finish. See docs/ci.md.

Options:
  --reporter <name>    console (default), json, jsonl, junit, csv; repeatable
  --out <path>         write the reporter just before it to this file (else standard output)
  --runs-dir <dir>     where the merged run folder goes (default: .evallens/runs)
  --no-color           plain console output
  -h, --help           this text

Exit codes: 0 all passed, 1 some failed, 2 the shards cannot be merged (named), 3 nothing scored.`;

export function commandHelp(command: CommandName): string {
  switch (command) {
    case 'run':
      return RUN_HELP;
    case 'validate':
      return VALIDATE_HELP;
    case 'plan':
      return PLAN_HELP;
    case 'report':
      return REPORT_HELP;
    case 'compare':
      return COMPARE_HELP;
    case 'baseline':
      return BASELINE_HELP;
    case 'cache':
      return CACHE_HELP;
    case 'merge':
      return MERGE_HELP;
  }
}
