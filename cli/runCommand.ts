import { randomBytes } from 'node:crypto';
import { join, relative, resolve } from 'node:path';
import { DatasetError } from '../core/dataset/datasetError';
import type { Report } from '../core/report/report';
import type { RunEvent } from '../core/runner/events';
import { caseRecords } from '../core/runner/records';
import { runEval } from '../core/runner/run';
import { releasePatternChecker } from '../core/scorers/support/boundedRegex';
import { describePlan, hasJudges, planJudgeCalls } from '../core/judge/judgeCallPlan';
import packageJson from '../package.json';
import type { Command } from './args';
import { formatProblem } from './problems';
import { createReporter, runVerdict, type Reporter } from './reporters/index';
import { openPreparers } from './preparers';
import { RunStore } from './runStore';
import { describeRun, shardRecords } from './shard';
import { continuationOf, folderInDatasetOrder, foldFolder, remaining, reorderFolder, replayFolder } from './resume';
import { openRunCache } from './runCache';
import { endRunBaseline, finishRunBaseline, openRunBaseline } from './runBaseline';
import { handOverReport } from './reportHandover';
import { watchRunSignals } from './exitCleanup';
import { startScoringPool } from './runParallel';
import { unpricedUnderMaxCost } from './budgetCheck';
import { consoleProgress } from './progressSetup';
import { environmentOf, EXIT, loadConfig, printDatasetError, say, selectionExists } from './commandSupport';
import { collectSooner } from './heapGrowth';

// `evallens run` (cli/main.ts loads it when a run is asked for, so that `validate` and `--version` do not).

export async function run(given: Extract<Command, { kind: 'run' }>): Promise<number> {
  collectSooner();
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
