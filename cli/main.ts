import { randomBytes } from 'node:crypto';
import { join, relative, resolve } from 'node:path';
import { checkDataset, datasetErrorProblem } from '../core/config/checkInputs';
import { loadRunConfig } from '../core/config/loadRunConfig';
import { untrustedEnv } from '../core/config/untrustedEnv';
import { hasErrors } from '../core/problem';
import type { RunConfig } from '../core/config/runConfig';
import { DatasetError } from '../core/dataset/datasetError';
import type { Report } from '../core/report/report';
import type { RunEvent } from '../core/runner/events';
import { caseRecords } from '../core/runner/records';
import { runEval } from '../core/runner/run';
import { cliEngine } from './engine';
import { releasePatternChecker } from '../core/scorers/support/boundedRegex';
import packageJson from '../package.json';
import { parseCommand, UsageError, type Command } from './args';
import { commandHelp, GENERAL_HELP } from './help';
import { byPosition, formatProblem } from './problems';
import { createReporter, runVerdict, type Reporter } from './reporters/index';
import { checkDatabaseConfigs, checkSetupFolders, openPreparers } from './preparers';
import { RunStore } from './runStore';
import { describeRun, shardRecords } from './shard';
import { continuationOf, folderInDatasetOrder, foldFolder, remaining, reorderFolder, replayFolder } from './resume';
import { mergeCommand } from './merge';
import { printPlan } from './plan';
import { describePlan, hasJudges, planJudgeCalls } from '../core/judge/judgeCallPlan';
import { printCaseLists } from './caseList';
import { printCaseData } from './caseData';
import { streamReportCommand } from './reportStream';
import { reportCommand, runAsReport } from './report';
import { compareCommand } from './compare';
import { baselineCommand } from './baseline';
import { cacheCommand } from './cacheCommand';
import { openRunCache } from './runCache';
import { endRunBaseline, finishRunBaseline, openRunBaseline } from './runBaseline';
import { checkSelection } from './selectionCheck';
import { handOverReport } from './reportHandover';
import { printable } from '../shared/text/printable';
import { watchRunSignals } from './exitCleanup';
import { maskStderr } from './maskedStderr';
import { rememberCredentialEnvironment } from '../shared/text/secretMask';
import { startScoringPool } from './runParallel';
import { configureReadLimits } from '../core/text/boundedRead';
import { unpricedUnderMaxCost } from './budgetCheck';
import { consoleProgress } from './progressSetup';

/**
 * Exit codes (as cli/help.ts and the README say): 0 all passed, 1 some failed, 2 a config or usage
 * error — nothing ran; an unknown `--case` id and a `--filter` no case matches are usage errors —,
 * 3 nothing was scored (every case skipped, or a dataset with no case), 130 cancelled (Ctrl-C).
 */
export const EXIT = { passed: 0, failed: 1, usage: 2, nothingScored: 3, cancelled: 130 } as const;

async function main(argv: readonly string[]): Promise<number> {
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      say(`evallens: ${e.message}`);
      return EXIT.usage;
    }
    throw e;
  }
  // Values of variables named like credentials (`*_API_KEY`, `*PASSWORD*`, …) are masked whether or not
  // the run reads them, since a scorer, a target or a library may print one. An untrusted run starts
  // nothing that could, and reads no variable a workspace may name, so it leaves them unread.
  if (!('untrusted' in command && command.untrusted === true)) rememberCredentialEnvironment(process.env);
  // The file caps a user may raise (docs/limits.md): the user's own environment, never the workspace's.
  for (const problem of configureReadLimits(process.env)) process.stderr.write(`evallens: warning: ${problem}\n`);
  switch (command.kind) {
    case 'help':
      process.stdout.write(`${command.command === undefined ? GENERAL_HELP : commandHelp(command.command)}\n`);
      return EXIT.passed;
    case 'version':
      process.stdout.write(`${packageJson.version}\n`);
      return EXIT.passed;
    case 'validate': {
      const env = environmentOf(command);
      if (command.listCases === true) return printCaseLists([command.config, ...(command.moreConfigs ?? [])], env);
      if (command.caseData !== undefined) return printCaseData(command.config, command.caseData, env);
      const config = loadConfig(command.config, env);
      if (config === undefined || !(await inputsLoad(config, env, { readCases: true }))) return EXIT.usage;
      process.stdout.write(
        `${printable(command.config)}: valid (${config.scorers.length} scorer${config.scorers.length === 1 ? '' : 's'})\n`,
      );
      return EXIT.passed;
    }
    case 'run': {
      const results = await runAsReport(command, process.stderr);
      return results === undefined ? run(command) : reportCommand(results, process.stdout, process.stderr);
    }
    case 'report':
      if (command.stream === true) return streamReportCommand(command.path, process.stdout);
      return reportCommand(command, process.stdout, process.stderr);
    case 'compare':
      return compareCommand(command, process.stdout, process.stderr);
    case 'baseline':
      return baselineCommand(command, process.stdout, process.stderr);
    case 'cache':
      return cacheCommand(command, process.stdout, process.stderr);
    case 'merge':
      return mergeCommand(command, process.stdout, process.stderr);
    case 'plan': {
      const env = environmentOf(command);
      const config = loadConfig(command.config, env);
      if (config === undefined || !(await inputsLoad(config, env, { readCases: false }))) return EXIT.usage;
      try {
        if (!(await selectionExists(config, command))) return EXIT.usage;
        await printPlan(config, command, process.stdout);
      } catch (e) {
        if (e instanceof DatasetError) return printDatasetError(e, config);
        throw e;
      }
      return EXIT.passed;
    }
  }
}

/**
 * Loads what a config names as a run would, without running anything, and prints the problems:
 * every database config (parsed and checked, never connected to) and, with `readCases`, every case
 * (streamed). False when a run would refuse to start: `validate` and `plan` then refuse as `run` does.
 */
async function inputsLoad(config: RunConfig, env: Env, options: { readonly readCases: boolean }): Promise<boolean> {
  const problems = checkDatabaseConfigs(config, env);
  if (options.readCases && !hasErrors(problems)) {
    const dataset = await checkDataset(config);
    problems.push(...dataset.problems, ...checkSetupFolders(config, env, dataset.sqlTargets));
  }
  for (const problem of byPosition(problems)) process.stderr.write(`${formatProblem(problem, process.cwd())}\n`);
  return !hasErrors(problems);
}

/** Whether every `--case` id is in the dataset and the selection matches a case; else says why (a usage error). */
async function selectionExists(
  config: RunConfig,
  command: { readonly config: string; readonly caseIds: readonly string[]; readonly filter?: string },
): Promise<boolean> {
  const problems = await checkSelection(caseRecords(config), command.config, {
    ids: command.caseIds,
    ...(command.filter === undefined ? {} : { filter: command.filter }),
  });
  for (const problem of problems) say(`evallens: ${problem}`);
  return problems.length === 0;
}

/** A dataset that cannot be read, as `run`, `plan` and `validate` all say it; the config or usage exit code. */
function printDatasetError(error: DatasetError, config: RunConfig): number {
  const problem = datasetErrorProblem(error, config);
  say(problem === undefined ? error.message : formatProblem(problem, process.cwd()));
  return EXIT.usage;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The environment a command reads the workspace's variables from: the process's, or with --untrusted
 * one that reads nothing (untrustedEnv.ts). The workspace of an untrusted run is the current folder.
 */
function environmentOf(command: { readonly untrusted?: boolean }): Env {
  return command.untrusted === true ? untrustedEnv() : process.env;
}

/** Loads a config, printing its problems as `file:line:col`; undefined when it has errors. */
function loadConfig(path: string, env: Env): RunConfig | undefined {
  const parsed = loadRunConfig(path, env, { workspace: process.cwd(), engine: cliEngine });
  for (const problem of byPosition(parsed.problems)) process.stderr.write(`${formatProblem(problem, process.cwd())}\n`);
  return parsed.config;
}

async function run(given: Extract<Command, { kind: 'run' }>): Promise<number> {
  let command = given;
  const env = environmentOf(command);
  const config = loadConfig(command.config, env);
  // Every pattern is checked once the config has loaded; the checker's memory is not needed for the run.
  releasePatternChecker();
  if (config === undefined) return EXIT.usage;
  const across = config.scorers.find((s) => s.definition.acrossTrials === true);
  if (command.trials !== undefined && command.trials < 2 && across !== undefined) {
    say(
      `evallens: --trials ${command.trials}: ${across.name} compares the trials of each case with each other and needs at least 2`,
    );
    return EXIT.usage;
  }
  const unpriced = unpricedUnderMaxCost(config, command.budget);
  if (unpriced !== undefined) {
    say(`evallens: ${unpriced}`);
    return EXIT.usage;
  }
  try {
    if (!(await selectionExists(config, command))) return EXIT.usage;
  } catch (e) {
    if (e instanceof DatasetError) return printDatasetError(e, config);
    throw e;
  }
  const cwd = process.cwd();
  // Issue 16: a baseline to compare with is read and checked before anything runs (cli/runBaseline.ts).
  const baseline = await openRunBaseline(command, config, cwd);
  if (baseline === 'refused') return EXIT.usage;
  const color = command.color ?? (process.stdout.isTTY === true && process.env['NO_COLOR'] === undefined);
  const runsDir = resolve(command.runsDir ?? '.evallens/runs');
  const freshRunId = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`;
  // --resume / --rerun: the run continued, as it was (its shard, trials, selection; cli/resume.ts).
  const again = await continuationOf(config, command, runsDir, freshRunId);
  if (typeof again === 'string') {
    say(`evallens: ${again}`);
    return EXIT.usage;
  }
  if (again !== undefined) command = again.command;
  const runId = again?.resumable.runId ?? freshRunId;
  const requested = command.reporters.length > 0 ? command.reporters : [{ name: 'console' as const }];
  // The console reporter stays on beside file reporters, but not when another reporter owns stdout.
  const stdoutTaken = requested.some((r) => r.name !== 'console' && r.out === undefined);
  const withConsole =
    requested.some((r) => r.name === 'console') || stdoutTaken
      ? requested
      : [{ name: 'console' as const }, ...requested];
  // EvalBench's `reporting.csv`: a CSV report per run in its output directory, beside what was asked for.
  const csvDirectory = config.csvOutputDirectory;
  const asked =
    csvDirectory === undefined
      ? withConsole
      : [...withConsole, { name: 'csv' as const, out: join(csvDirectory, `${runId}.csv`) }];
  // Scoring threads (cli/runParallel.ts) start now, so they load while the progress line counts the cases.
  let scoringPool = startScoringPool(config, { trusted: !command.untrusted, workspace: cwd }, process.env);
  // The user's own environment (process.env), never the workspace's: EVALLENS_PROGRESS_SECONDS.
  const progress = await consoleProgress(
    config,
    {
      selection: { ids: command.caseIds, ...(command.filter === undefined ? {} : { filter: command.filter }) },
      ...(command.trials === undefined ? {} : { trials: command.trials }),
    },
    asked,
    process.stdout,
    process.env,
  );
  const reporters: Reporter[] = asked.map((r) =>
    createReporter(r.name, {
      ...(r.out === undefined ? {} : { out: resolve(r.out) }),
      stdout: process.stdout,
      cwd,
      color,
      ...(progress === undefined ? {} : { progress }),
      ...(baseline === undefined ? {} : { transitionOf: baseline.transitionOf }),
    }),
  );

  const controller = new AbortController();
  // The result cache (cli/runCache.ts): never for --untrusted or --no-cache.
  const resultCache = openRunCache(command, config, process.stderr);
  let database: Awaited<ReturnType<typeof openPreparers>>;
  try {
    database = await openPreparers(config, env, controller.signal, {
      trusted: !command.untrusted,
      ...(resultCache.targets === undefined ? {} : { targetCache: resultCache.targets }),
    });
  } catch (e) {
    await resultCache.close();
    say(`evallens: ${e instanceof Error ? e.message : String(e)}`);
    return EXIT.usage;
  }
  for (const problem of database.problems) process.stderr.write(`${formatProblem(problem, cwd)}\n`);
  if (database.problems.some((p) => p.severity === 'error')) {
    await resultCache.close();
    return EXIT.usage;
  }
  const preparer = database.preparer;
  if (scoringPool !== undefined && (preparer !== undefined || resultCache.cache !== undefined)) {
    // A database or the result cache is the main thread's: such a run scores there.
    scoringPool.close();
    scoringPool = undefined;
  }

  // Only this shard's cases, each keeping its dataset index (cli/shard.ts); run.json records what ran.
  const shard = command.shard;
  const dataset = () => (shard === undefined ? caseRecords(config) : shardRecords(caseRecords(config), shard));
  const records = () => (again === undefined ? dataset() : remaining(dataset(), again.resumable.done));
  const store = new RunStore(runsDir, runId, {
    description: again?.description ?? (await describeRun(config, command)),
    onFailure: () => controller.abort(),
  });
  // Ctrl-C / SIGTERM cancel, a second one exits now; nothing the run started outlives it (exitCleanup.ts).
  const signals = watchRunSignals(
    () => controller.abort(),
    (text) => process.stderr.write(text),
  );
  const toReporters = (event: RunEvent) => {
    // The baseline comparison collects every case the report will hold, a continued run's earlier ones too.
    baseline?.onEvent(event);
    for (const reporter of reporters) reporter.onEvent(event);
  };
  const onEvent = (event: RunEvent) => {
    store.onEvent(event);
    // A continued run's reporters were told of its start and its earlier cases already (below).
    if (again === undefined || event.type !== 'run/start') toReporters(event);
  };

  try {
    if (again !== undefined) {
      const { info } = again.resumable;
      const { scorers, numTrials, jobThreshold } = info;
      const threshold = jobThreshold === undefined ? {} : { jobThreshold };
      toReporters({
        type: 'run/start',
        runId,
        configFile: config.file,
        startedAt: info.startedAt,
        scorers,
        numTrials,
        ...threshold,
      });
      await replayFolder(again.resumable.dir, toReporters);
    }
    if (!command.untrusted && hasJudges(config)) {
      // Said before any call is made; the extension asks for confirmation from `evallens plan --json`.
      const selection = { ids: command.caseIds, ...(command.filter === undefined ? {} : { filter: command.filter }) };
      const plan = await planJudgeCalls(config, records(), {
        selection,
        ...(command.trials === undefined ? {} : { trials: command.trials }),
      });
      say(`evallens: ${describePlan(plan)}`);
    }
    // Threads that could not start (or loaded another config) leave the run to the main thread.
    if (
      scoringPool !== undefined &&
      !(await scoringPool.ready.then(
        () => true,
        () => false,
      ))
    ) {
      scoringPool.close();
      scoringPool = undefined;
    }
    const outcome = await runEval(config, records(), {
      runId,
      signal: controller.signal,
      selection: { ids: command.caseIds, ...(command.filter === undefined ? {} : { filter: command.filter }) },
      ...(command.concurrency === undefined ? {} : { concurrency: command.concurrency }),
      ...(command.trials === undefined ? {} : { trials: command.trials }),
      onEvent,
      ...(preparer === undefined ? {} : { preparer }),
      trusted: !command.untrusted,
      ...(command.budget === undefined ? {} : { budget: command.budget }),
      ...(resultCache.cache === undefined ? {} : { cache: resultCache.cache }),
      ...(scoringPool === undefined ? {} : { remote: scoringPool }),
    });
    scoringPool?.close();
    store.close();
    await resultCache.close();
    if (store.failure !== undefined) {
      // What finished before the failure stays in the run folder; nothing after it was written.
      say(`evallens: ${store.failure.message}; the run stopped; the cases that finished before are in ${store.dir}`);
      return EXIT.usage;
    }
    // The report lists cases in dataset order; they were stored as they finished (a continued run's
    // after the cases from before).
    if (!store.storedInOrder || (again !== undefined && !(await folderInDatasetOrder(store.dir))))
      await reorderFolder(store.dir);
    // A continued run's figures are those of its whole folder, the cases from before and the new ones.
    const fold = again === undefined ? undefined : await foldFolder(store.dir, again.resumable.info);
    const figures = fold === undefined ? undefined : { summary: fold.summary(), ...fold.scorers() };
    const head: Omit<Report, 'cases' | 'results'> = {
      version: 1,
      tool: { name: 'evallens', version: packageJson.version },
      runId,
      configFile: config.file,
      startedAt: outcome.startedAt,
      finishedAt: outcome.finishedAt,
      durationMs: outcome.durationMs,
      cancelled: outcome.cancelled,
      numTrials: outcome.numTrials,
      summary: figures?.summary ?? outcome.summary,
      job: jobOf(figures ?? outcome),
      scorers: figures?.scorers ?? outcome.scorers,
      ...(outcome.spend === undefined ? {} : { spend: outcome.spend }),
    };
    const compared = endRunBaseline(baseline, outcome.cancelled, runId, relative(cwd, store.reportPath));
    const source = await store.writeReport(head, compared.outcome?.writeJson);
    for (const reporter of reporters) {
      try {
        await reporter.finish(source);
      } catch (e) {
        // A report that cannot be written (disk full, no permission) is said plainly; the run folder has it.
        say(`evallens: ${e instanceof Error ? e.message : String(e)} (the report is in ${store.dir})`);
        return EXIT.usage;
      }
    }
    // The editor that forked this run shows the report without reading it with a second process.
    if (source.file !== undefined) await handOverReport(source.file);
    const verdict = runVerdict(head);
    const code = {
      PASSED: EXIT.passed,
      FAILED: EXIT.failed,
      CANCELLED: EXIT.cancelled,
      'NOTHING SCORED': EXIT.nothingScored,
    }[verdict];
    const consoleOut = asked.some((r) => r.name === 'console' && r.out === undefined) ? process.stdout : process.stderr;
    return await finishRunBaseline(compared, code, {
      flags: command,
      config,
      runDir: store.dir,
      cancelled: outcome.cancelled,
      out: consoleOut,
    });
  } catch (e) {
    // Where in the dataset, when the reader knows; else the config line that names the dataset.
    if (e instanceof DatasetError) return printDatasetError(e, config);
    throw e;
  } finally {
    scoringPool?.close();
    await resultCache.close();
    await preparer?.close();
    signals.end();
  }
}

function jobOf(figures: { readonly jobTest?: Report['job']['test'] }): Report['job'] {
  return figures.jobTest === undefined ? {} : { test: figures.jobTest };
}

/** A line to stderr with whatever it quotes from the workspace or the command line made inert (shared/text/printable.ts). */
function say(line: string): void {
  process.stderr.write(`${printable(line)}\n`);
}

maskStderr(process.stderr);
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    // A bug of ours, not a user mistake: say so plainly, with the stack for the bug report.
    process.stderr.write(
      `${printable(`evallens: internal error — please report it: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`, { lines: true })}\n`,
    );
    process.exitCode = 70;
  },
);
