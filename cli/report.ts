/**
 * `evallens report <path>`: results made elsewhere, through the usual reporters. EvalBench's CSV
 * results (a job folder, a folder of jobs, or one of a job's CSV files) are read into a report,
 * written as report.json (into the runs folder, or `--report-file`) so the results view can open
 * it; an EvalLens run folder or report.json is shown again as it is. Nothing is re-scored.
 */
import { once } from 'node:events';
import { createWriteStream, mkdirSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { printable } from '../shared/text/printable';
import { storedCaseEnd } from './storedCaseEvents';
import { dirname, join, resolve } from 'node:path';
import type { Problem } from '../core/problem';
import { EvalBenchResultsError, isEvalBenchResults, readEvalBenchResults } from '../core/report/evalbenchResults';
import type { ImportedResults, Report, ReportSource } from '../core/report/report';
import type { ScorerResult } from '../core/result';
import type { RunEvent } from '../core/runner/events';
import packageJson from '../package.json';
import type { Command } from './args';
import { displayPath, formatProblem } from './problems';
import { createReporter, runVerdict, writeReportJson } from './reporters/index';
import { readReportFile, ReportFileError } from './reportJson';

const EXIT = { passed: 0, failed: 1, usage: 2 } as const;

type ReportCommand = Extract<Command, { kind: 'report' }>;

class ReportInputError extends Error {}

export async function reportCommand(
  command: ReportCommand,
  stdout: NodeJS.WritableStream,
  stderr: NodeJS.WritableStream,
): Promise<number> {
  const cwd = process.cwd();
  let loaded: { report: Report; problems: readonly Problem[]; file?: string };
  try {
    loaded = await load(resolve(command.path));
  } catch (e) {
    if (e instanceof EvalBenchResultsError || e instanceof ReportInputError) {
      say(stderr, `${e.message}`);
      return EXIT.usage;
    }
    throw e;
  }
  const { report, problems } = loaded;
  for (const problem of problems) say(stderr, `${formatProblem(problem, cwd)}`);

  // EvalBench's results become a report.json the results view can open; an EvalLens report already is one.
  let file = loaded.file;
  if (file === undefined) {
    file = resolve(command.reportFile ?? join(command.runsDir ?? '.evallens/runs', report.runId, 'report.json'));
    try {
      mkdirSync(dirname(file), { recursive: true });
      const out = createWriteStream(file);
      await writeReportJson(sourceOf(report), out);
      out.end();
      await once(out, 'finish');
    } catch (e) {
      say(stderr, `evallens: cannot write ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      return EXIT.usage;
    }
  }

  const color = command.color ?? (process.stdout.isTTY === true && process.env['NO_COLOR'] === undefined);
  const requested = command.reporters.length > 0 ? command.reporters : [{ name: 'console' as const }];
  const stdoutTaken = requested.some((r) => r.name !== 'console' && r.out === undefined);
  const asked =
    requested.some((r) => r.name === 'console') || stdoutTaken
      ? requested
      : [{ name: 'console' as const }, ...requested];
  const reporters = asked.map((r) =>
    createReporter(r.name, { ...(r.out === undefined ? {} : { out: resolve(r.out) }), stdout, cwd, color }),
  );
  if (asked.some((r) => r.name === 'console' && r.out === undefined)) {
    stdout.write(`${printable(heading(report, file, cwd), { lines: true })}\n`);
  }
  for (const event of events(report)) for (const reporter of reporters) reporter.onEvent(event);
  const source = { ...sourceOf(report), file };
  for (const reporter of reporters) {
    try {
      await reporter.finish(source);
    } catch (e) {
      say(stderr, `evallens: ${e instanceof Error ? e.message : String(e)} (the report is in ${file})`);
      return EXIT.usage;
    }
  }
  if (report.results.length === 0) {
    say(stderr, `evallens: ${displayPath(command.path, cwd)} holds no scores: nothing was scored, which is not a pass`);
    return EXIT.failed;
  }
  const unread = problems.filter((p) => p.severity === 'error').length;
  if (unread > 0) {
    say(
      stderr,
      `evallens: ${unread} row${unread === 1 ? '' : 's'} could not be read (listed above); the report has the rest`,
    );
    return EXIT.failed;
  }
  return runVerdict(report) === 'PASSED' ? EXIT.passed : EXIT.failed;
}

/**
 * `evallens run <EvalBench results folder>`: nothing to run, so the results are shown as `report`
 * shows them (said on stderr). Undefined when the path is anything else (a run config).
 */
export async function runAsReport(
  command: Extract<Command, { kind: 'run' }>,
  stderr: NodeJS.WritableStream,
): Promise<ReportCommand | undefined> {
  if (/\.ya?ml$/i.test(command.config) || !(await isEvalBenchResults(command.config))) return undefined;
  say(
    stderr,
    `evallens: ${command.config} holds EvalBench's results, not a run config: showing them as \`evallens report\` does (nothing is run or re-scored)`,
  );
  return {
    kind: 'report',
    path: command.config,
    reporters: command.reporters,
    ...(command.runsDir === undefined ? {} : { runsDir: command.runsDir }),
    ...(command.color === undefined ? {} : { color: command.color }),
  };
}

/** An EvalBench results folder or CSV file, an EvalLens run folder, or a report.json. */
async function load(path: string): Promise<{ report: Report; problems: readonly Problem[]; file?: string }> {
  const info = await stat(path).catch(() => undefined);
  // A report.json is read bounded whatever it is (a missing file, a link to /dev/zero and a FIFO are refused by name).
  if (/\.json$/i.test(path) && info?.isDirectory() !== true)
    return { report: await readReport(path), problems: [], file: path };
  if (info === undefined)
    throw new ReportInputError(`${path}:1:1: expected a results folder or a report.json, but it does not exist`);
  if (!info.isFile()) {
    const runReport = join(path, 'report.json');
    const found = await stat(runReport).then(
      (s) => s.isFile(),
      () => false,
    );
    if (found) return { report: await readReport(runReport), problems: [], file: runReport };
  }
  if (!(await isEvalBenchResults(path))) {
    throw new ReportInputError(
      `${path}:1:1: expected an EvalBench results folder (a <job_id>/ folder with scores.csv or evals.csv, as \`reporting: csv\` writes, or a folder of them), an EvalLens run folder with report.json, or a report.json; found none of these`,
    );
  }
  return readEvalBenchResults(path, { toolVersion: packageJson.version });
}

/** A report.json, checked against the report schema; its problems (file:line:col) are usage errors. */
async function readReport(file: string): Promise<Report> {
  try {
    return await readReportFile(file);
  } catch (e) {
    if (e instanceof ReportFileError) throw new ReportInputError(e.message);
    throw e;
  }
}

function sourceOf(report: Report): ReportSource {
  const { cases, results, ...head } = report;
  return {
    head,
    cases: () => iterate(cases),
    results: () => iterate(results),
  };
}

async function* iterate<T>(items: readonly T[]): AsyncIterable<T> {
  for (const item of items) yield item;
}

/** The report as the run events the reporters read: the console prints a line per case from them. */
function* events(report: Report): Generator<RunEvent> {
  const scorers = report.scorers.map(({ name, key, origin, scale, threshold, weight, lowerIsBetter }) => ({
    name,
    key,
    origin,
    scale,
    weight,
    lowerIsBetter,
    ...(threshold === undefined ? {} : { threshold }),
  }));
  yield {
    type: 'run/start',
    runId: report.runId,
    configFile: report.configFile,
    startedAt: report.startedAt,
    scorers,
    numTrials: report.numTrials,
  };
  const byCase = new Map<string, ScorerResult[]>();
  for (const r of report.results) {
    const list = byCase.get(r.caseId) ?? [];
    list.push(r);
    byCase.set(r.caseId, list);
  }
  for (const c of report.cases) yield storedCaseEnd(c, byCase.get(c.id) ?? []);
  yield {
    type: 'run/end',
    runId: report.runId,
    finishedAt: report.finishedAt,
    durationMs: report.durationMs,
    cancelled: report.cancelled,
    summary: report.summary,
  };
}

/** What was read, and EvalBench's own summary numbers as it wrote them. */
function heading(report: Report, file: string, cwd: string): string {
  const imported: ImportedResults | undefined = report.imported;
  if (imported === undefined) return `EvalLens report ${displayPath(file, cwd)}\n`;
  const lines = [
    `EvalBench results: ${displayPath(report.configFile, cwd)} (read, not re-scored; report written to ${displayPath(file, cwd)})`,
  ];
  for (const job of imported.jobs) {
    lines.push(
      `job ${job.jobId}${job.runTime === undefined ? '' : ` (run ${job.runTime})`}: EvalBench's own summary.csv:`,
    );
    if (job.summary.length === 0) lines.push('  (no summary.csv)');
    for (const row of job.summary) {
      const share =
        row.correct !== undefined && row.total !== undefined && row.total > 0
          ? ` = ${Number(((row.correct / row.total) * 100).toFixed(2))}%`
          : '';
      lines.push(`  ${row.metric}: ${row.correct ?? '-'}/${row.total ?? '-'}${share}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** A line to stderr with whatever it quotes from the workspace or the command line made inert. */
function say(stderr: NodeJS.WritableStream, line: string): void {
  stderr.write(`${printable(line)}\n`);
}
