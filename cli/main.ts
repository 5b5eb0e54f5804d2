import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { loadRunConfig } from '../core/config/loadRunConfig';
import type { RunConfig } from '../core/config/runConfig';
import { DatasetError } from '../core/dataset/datasetError';
import type { Report } from '../core/report/report';
import type { RunEvent } from '../core/runner/events';
import { caseRecords } from '../core/runner/records';
import { runEval } from '../core/runner/run';
import { releasePatternChecker } from '../core/scorers/support/boundedRegex';
import packageJson from '../package.json';
import { parseCommand, USAGE, UsageError, type Command } from './args';
import { formatProblem } from './problems';
import { createReporter, runVerdict, type Reporter } from './reporters/index';
import { checkDatabaseConfigs, openPreparers } from './preparers';
import { RunStore } from './runStore';
import { printPlan } from './plan';
import { describePlan, hasJudges, planJudgeCalls } from '../core/judge/judgeCallPlan';
import { printCaseLists } from './caseList';

/** Exit codes: 0 all passed, 1 some failed, 2 a config or usage error, 130 cancelled (Ctrl-C). */
export const EXIT = { passed: 0, failed: 1, usage: 2, cancelled: 130 } as const;

async function main(argv: readonly string[]): Promise<number> {
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`evallens: ${e.message}\n\n${USAGE}\n`);
      return EXIT.usage;
    }
    throw e;
  }
  switch (command.kind) {
    case 'help':
      process.stdout.write(`${USAGE}\n`);
      return EXIT.passed;
    case 'version':
      process.stdout.write(`${packageJson.version}\n`);
      return EXIT.passed;
    case 'validate': {
      if (command.listCases === true) return printCaseLists([command.config, ...(command.moreConfigs ?? [])]);
      const config = loadConfig(command.config);
      if (config === undefined) return EXIT.usage;
      // The database configs are read and checked as a run reads them; nothing is connected to.
      const databaseProblems = checkDatabaseConfigs(config, process.env);
      for (const problem of databaseProblems) process.stderr.write(`${formatProblem(problem, process.cwd())}\n`);
      if (databaseProblems.some((p) => p.severity === 'error')) return EXIT.usage;
      process.stdout.write(`${command.config}: valid (${config.scorers.length} scorer${config.scorers.length === 1 ? '' : 's'})\n`);
      return EXIT.passed;
    }
    case 'run':
      return run(command);
    case 'plan': {
      const config = loadConfig(command.config);
      if (config === undefined) return EXIT.usage;
      await printPlan(config, command, process.stdout);
      return EXIT.passed;
    }
  }
}

/** Loads a config, printing its problems as `file:line:col`; undefined when it has errors. */
function loadConfig(path: string): RunConfig | undefined {
  const parsed = loadRunConfig(path, process.env);
  for (const problem of parsed.problems) process.stderr.write(`${formatProblem(problem, process.cwd())}\n`);
  return parsed.config;
}

async function run(command: Extract<Command, { kind: 'run' }>): Promise<number> {
  const config = loadConfig(command.config);
  // Every pattern is checked once the config has loaded; the checker's memory is not needed for the run.
  releasePatternChecker();
  if (config === undefined) return EXIT.usage;
  const across = config.scorers.find((s) => s.acrossTrials !== undefined);
  if (command.trials !== undefined && command.trials < 2 && across !== undefined) {
    process.stderr.write(`evallens: --trials ${command.trials}: ${across.name} compares the trials of each case with each other and needs at least 2\n`);
    return EXIT.usage;
  }
  const cwd = process.cwd();
  const color = command.color ?? (process.stdout.isTTY === true && process.env['NO_COLOR'] === undefined);
  const runId = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`;
  const requested = command.reporters.length > 0 ? command.reporters : [{ name: 'console' as const }];
  // The console reporter stays on beside file reporters, but not when another reporter owns stdout.
  const stdoutTaken = requested.some((r) => r.name !== 'console' && r.out === undefined);
  const withConsole = requested.some((r) => r.name === 'console') || stdoutTaken ? requested : [{ name: 'console' as const }, ...requested];
  // EvalBench's `reporting.csv`: a CSV report per run in its output directory, beside what was asked for.
  const csvDirectory = config.csvOutputDirectory;
  const asked = csvDirectory === undefined ? withConsole : [...withConsole, { name: 'csv' as const, out: join(csvDirectory, `${runId}.csv`) }];
  const reporters: Reporter[] = asked.map((r) =>
    createReporter(r.name, { ...(r.out === undefined ? {} : { out: resolve(r.out) }), stdout: process.stdout, cwd, color }),
  );

  const controller = new AbortController();
  let database: Awaited<ReturnType<typeof openPreparers>>;
  try {
    database = await openPreparers(config, process.env, controller.signal, { trusted: !command.untrusted });
  } catch (e) {
    process.stderr.write(`evallens: ${e instanceof Error ? e.message : String(e)}\n`);
    return EXIT.usage;
  }
  for (const problem of database.problems) process.stderr.write(`${formatProblem(problem, cwd)}\n`);
  if (database.problems.some((p) => p.severity === 'error')) return EXIT.usage;
  const preparer = database.preparer;

  const store = new RunStore(resolve(command.runsDir ?? '.evallens/runs'), runId);
  const onInterrupt = () => {
    if (controller.signal.aborted) process.exit(EXIT.cancelled);
    process.stderr.write('\nevallens: stopping — no new cases start; running scorers finish or time out (Ctrl-C again to quit now)\n');
    controller.abort();
  };
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', onInterrupt);
  const onEvent = (event: RunEvent) => {
    store.onEvent(event);
    for (const reporter of reporters) reporter.onEvent(event);
  };

  try {
    if (!command.untrusted && hasJudges(config)) {
      // Said before any call is made; the extension asks for confirmation from `evallens plan --json`.
      const selection = { ids: command.caseIds, ...(command.filter === undefined ? {} : { filter: command.filter }) };
      const plan = await planJudgeCalls(config, caseRecords(config), { selection, ...(command.trials === undefined ? {} : { trials: command.trials }) });
      process.stderr.write(`evallens: ${describePlan(plan)}\n`);
    }
    const outcome = await runEval(config, caseRecords(config), {
      runId,
      signal: controller.signal,
      selection: { ids: command.caseIds, ...(command.filter === undefined ? {} : { filter: command.filter }) },
      ...(command.concurrency === undefined ? {} : { concurrency: command.concurrency }),
      ...(command.trials === undefined ? {} : { trials: command.trials }),
      onEvent,
      ...(preparer === undefined ? {} : { preparer }),
      trusted: !command.untrusted,
    });
    store.close();
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
      summary: outcome.summary,
      job: outcome.jobTest === undefined ? {} : { test: outcome.jobTest },
      scorers: outcome.scorers,
    };
    const source = await store.writeReport(head);
    for (const reporter of reporters) {
      try {
        await reporter.finish(source);
      } catch (e) {
        // A report that cannot be written (disk full, no permission) is said plainly; the run folder has it.
        process.stderr.write(`evallens: ${e instanceof Error ? e.message : String(e)} (the report is in ${store.dir})\n`);
        return EXIT.usage;
      }
    }
    const verdict = runVerdict(head);
    return verdict === 'PASSED' ? EXIT.passed : verdict === 'CANCELLED' ? EXIT.cancelled : EXIT.failed;
  } catch (e) {
    if (e instanceof DatasetError) {
      // Where in the dataset, when the reader knows; else the config line that names the dataset.
      const range = e.range ?? config.dataset?.range;
      const problem = range === undefined ? e.message : formatProblem({ code: 'dataset', severity: 'error', message: e.message, range }, cwd);
      process.stderr.write(`${problem}\n`);
      return EXIT.usage;
    }
    throw e;
  } finally {
    await preparer?.close();
    process.off('SIGINT', onInterrupt);
    process.off('SIGTERM', onInterrupt);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    // A bug of ours, not a user mistake: say so plainly, with the stack for the bug report.
    process.stderr.write(`evallens: internal error — please report it: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 70;
  },
);
