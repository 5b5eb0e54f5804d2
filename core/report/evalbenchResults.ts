/**
 * Reads EvalBench's own results (`reporting: csv`: `<output_directory>/<job_id>/` with configs.csv,
 * evals.csv, scores.csv and summary.csv) into an EvalLens report, so a run made by EvalBench can be
 * looked at with EvalLens's reporters and results view. Nothing is re-scored: each scores.csv row is
 * one result with EvalBench's score, decided as EvalBench's summary decides it (a score of 100 is
 * correct; latency, token and turn figures are measurements), and summary.csv is kept as it is.
 * Bad rows are problems at file:line:col; the rest still loads.
 */
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { Aggregator } from '../../shared/aggregate/aggregator';
import type { Problem } from '../problem';
import type { ScorerResult } from '../result';
import type { ScorerInfo } from '../runner/events';
import { fromDisplay } from '../../shared/text/displayPosition';
import { caseStatus } from '../runner/run';
import { ScorerStatistics } from '../runner/scorerStatistics';
import { trialStats } from '../runner/trials';
import { type CsvRow, evalBenchCsvRows } from './evalbenchCsv';
import {
  caseOf,
  resultOf,
  type ReadBudget,
  type TrialPayload,
  trialOf,
  type PairRow,
  pairsResult,
} from './evalbenchRows';
import { maskConfigValue, shownText } from './evalbenchMask';
import type { ImportedJob, ImportedSummaryRow, Report, ReportCase } from './report';

export const EVALBENCH_FILES = ['configs.csv', 'evals.csv', 'scores.csv', 'summary.csv'] as const;
/** Rows read in all (every file of every job): the evals of a job are held until its scores are joined to them. */
const MAX_ROWS = 1_000_000;
/** Payload characters (prompts, SQL, result rows, logs) kept in all; past it a result points at its row instead. */
const MAX_PAYLOAD_CHARACTERS = 64 * 1024 * 1024;
const MAX_JOBS = 1000;
/** Longest config value kept. */
const MAX_CONFIG_VALUE = 2000;

/** EvalBench's counts with no pass mark (its analyzer averages them instead of counting 100s), by unit. */
const MEASUREMENTS: { readonly [key: string]: string } = {
  turn_count: 'turns',
  agent_steps: 'steps',
  end_to_end_latency: 'ms',
  tool_call_latency: 'ms',
  token_consumption: 'tokens',
  tokens_processed: 'tokens',
  effective_billed_tokens: 'tokens',
};

/**
 * 0–100 grades EvalBench averages rather than counting 100s (newer analyzers), and LLM analyses its
 * summary leaves out (behavioral_metrics, parameter_analysis): a score with no pass mark.
 */
const GRADES: ReadonlySet<string> = new Set([
  'dataset_quality',
  'tool_activation_faithfulness',
  'discoverability_coverage',
  'error_recovery_coverage',
  'composition_coverage',
  'cuj_diversity',
  'skills_best_practices',
  'behavioral_metrics',
  'parameter_analysis',
]);

export class EvalBenchResultsError extends Error {
  override readonly name = 'EvalBenchResultsError';
}

export interface EvalBenchReadOptions {
  readonly toolVersion: string;
  /** Rows read in all, over every file (default 1,000,000). */
  readonly maxRows?: number;
  /** Payload characters kept in all (default 64 Mi). */
  readonly maxPayloadCharacters?: number;
}

export interface EvalBenchRead {
  readonly report: Report;
  /** Bad rows and missing files, each at file:line:col (0-based in the range, as core counts). */
  readonly problems: readonly Problem[];
}

/** Whether `path` is an EvalBench results folder (a job, or a folder of jobs) or one of its CSV files. */
export async function isEvalBenchResults(path: string): Promise<boolean> {
  try {
    return (await jobFolders(resolve(path))).length > 0;
  } catch {
    return false;
  }
}

/** The job folders at `path`: the folder itself when it holds scores.csv or evals.csv, else its subfolders that do. */
async function jobFolders(path: string): Promise<string[]> {
  const info = await stat(path);
  if (info.isFile()) return (EVALBENCH_FILES as readonly string[]).includes(basename(path)) ? [dirname(path)] : [];
  if (await isJob(path)) return [path];
  const entries = await readdir(path, { withFileTypes: true });
  const jobs: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.isDirectory() && (await isJob(join(path, entry.name)))) jobs.push(join(path, entry.name));
    if (jobs.length >= MAX_JOBS) break;
  }
  return jobs;
}

async function isJob(folder: string): Promise<boolean> {
  for (const name of ['scores.csv', 'evals.csv']) {
    try {
      if ((await stat(join(folder, name))).isFile()) return true;
    } catch {
      // not there
    }
  }
  return false;
}

interface CaseEntry {
  readonly id: string;
  location: { file: string; line: number };
  trials: number;
  readonly results: ScorerResult[];
}

/** Reads one job folder, a folder of job folders, or one of a job's CSV files. */
export async function readEvalBenchResults(path: string, options: EvalBenchReadOptions): Promise<EvalBenchRead> {
  const root = resolve(path);
  let folders: string[];
  try {
    folders = await jobFolders(root);
  } catch (e) {
    const code = e instanceof Error && 'code' in e ? String(e.code) : 'an unknown error';
    throw new EvalBenchResultsError(
      `${root}:1:1: expected an EvalBench results folder, but it cannot be read (${code === 'ENOENT' ? 'it does not exist' : code})`,
    );
  }
  if (folders.length === 0) {
    throw new EvalBenchResultsError(
      `${root}:1:1: expected an EvalBench results folder (a job folder with scores.csv or evals.csv, as \`reporting: csv\` writes, or a folder of them), but found none`,
    );
  }
  const budget: ReadBudget = {
    rows: options.maxRows ?? MAX_ROWS,
    characters: options.maxPayloadCharacters ?? MAX_PAYLOAD_CHARACTERS,
    cut: false,
  };
  const problems: Problem[] = [];
  const cases = new Map<string, CaseEntry>();
  const jobs: ImportedJob[] = [];
  const scorerOrder: string[] = [];
  let numTrials = 1;
  const prefix = folders.length > 1;
  for (const folder of folders) {
    const job = await readJob(folder, { budget, prefix, problems, cases, scorerOrder });
    jobs.push(job.imported);
    numTrials = Math.max(numTrials, job.numTrials);
  }
  const scorers: ScorerInfo[] = scorerOrder.map((name) => {
    const unit = MEASUREMENTS[name];
    return unit === undefined
      ? { name, key: name, origin: 'EvalBench', scale: { kind: 'bounded', max: 100 }, weight: 1, lowerIsBetter: false }
      : { name, key: name, origin: 'EvalBench', scale: { kind: 'count', unit }, weight: 1, lowerIsBetter: true };
  });
  const aggregator = new Aggregator(scorers, 0.5);
  const statistics = new ScorerStatistics();
  const reportCases: ReportCase[] = [];
  const results: ScorerResult[] = [];
  const summary = { passed: 0, failed: 0, errored: 0, skipped: 0, total: 0 };
  [...cases.values()].forEach((entry, index) => {
    const status = caseStatus(entry.results);
    summary[status]++;
    summary.total++;
    for (const r of entry.results) aggregator.add(r);
    statistics.addCase(entry.results);
    results.push(...entry.results);
    const trials = numTrials > 1 && entry.trials > 1 ? { trials: trialStats(entry.results, entry.trials) } : {};
    reportCases.push({
      id: entry.id,
      index,
      status,
      durationMs: 0,
      location: { file: entry.location.file, line: entry.location.line, column: 1 },
      ...trials,
    });
  });
  if (budget.cut) {
    const at = { offset: 0, line: 0, column: 0 };
    problems.push({
      code: 'evalbench-results-large',
      severity: 'warning',
      message: `expected the results' prompts, SQL and result rows to fit in ${options.maxPayloadCharacters ?? MAX_PAYLOAD_CHARACTERS} characters, but they do not: results past that point name their evals.csv and scores.csv rows instead of showing them`,
      range: { file: root, start: at, end: at },
    });
  }
  const times = jobs
    .map((j) => isoTime(j.runTime))
    .filter((t): t is string => t !== undefined)
    .sort();
  const started = times[0] ?? new Date(0).toISOString();
  const single = jobs.length === 1 ? jobs[0] : undefined;
  const report: Report = {
    version: 1,
    tool: { name: 'evallens', version: options.toolVersion },
    // Run ids start with their time, so "the newest run" among run folders stays a sort by name.
    runId: `${started.replace(/[:.]/g, '-')}-evalbench-${single === undefined ? basename(root) : single.jobId}`,
    configFile: single === undefined ? root : single.folder,
    startedAt: started,
    finishedAt: times[times.length - 1] ?? started,
    durationMs: 0,
    cancelled: false,
    numTrials,
    summary,
    job: {},
    scorers: statistics.withStatistics(aggregator.scorerAggregates()),
    cases: reportCases,
    results,
    imported: {
      format: 'evalbench-csv',
      note: "Read from EvalBench's CSV results, not run by EvalLens. Scores are EvalBench's (scores.csv); a result passes when its score is 100, as EvalBench's summary counts it. Per-scorer pass rates and case statuses are EvalLens's reading of those scores; the summary of each job is EvalBench's own summary.csv, as written. Run times are EvalBench's clock, whose time zone it does not record.",
      jobs,
    },
  };
  return { report, problems };
}

interface JobContext {
  readonly budget: ReadBudget;
  readonly prefix: boolean;
  readonly problems: Problem[];
  readonly cases: Map<string, CaseEntry>;
  readonly scorerOrder: string[];
}

/** Rows of a file within what is left of the row budget; the file that reaches it says so. */
async function* rowsOf(file: string, budget: ReadBudget): AsyncGenerator<CsvRow> {
  for await (const row of evalBenchCsvRows(file, budget.rows)) {
    if (row.ok) budget.rows--;
    yield row;
  }
}

async function readJob(folder: string, ctx: JobContext): Promise<{ imported: ImportedJob; numTrials: number }> {
  const jobId = basename(folder);
  const bad = (file: string, line: number, column: number, message: string): void => {
    const at = { offset: 0, ...fromDisplay({ line, column }) };
    ctx.problems.push({ code: 'evalbench-results', severity: 'error', message, range: { file, start: at, end: at } });
  };
  const present = async (name: string): Promise<string | undefined> => {
    const file = join(folder, name);
    try {
      return (await stat(file)).isFile() ? file : undefined;
    } catch {
      return undefined;
    }
  };

  // configs.csv: the job's config, masked; num_trials and the scorers' order come from it.
  const config: { key: string; value: string }[] = [];
  let runTime: string | undefined;
  let numTrials = 1;
  const configsFile = await present('configs.csv');
  if (configsFile !== undefined) {
    for await (const row of rowsOf(configsFile, ctx.budget)) {
      if (!row.ok) {
        bad(configsFile, row.line, row.column, row.message);
        continue;
      }
      const key = row.cells.get('config') ?? '';
      const value = row.cells.get('value') ?? '';
      runTime ??= nonEmpty(row.cells.get('run_time'));
      if (key === '') continue;
      config.push({ key, value: shownMasked(key, value) });
      if (key === 'experiment_config.num_trials' && /^\d+$/.test(value)) numTrials = Math.max(1, Number(value));
      const scorer = /^experiment_config\.scorers\.([^.]+)/.exec(key)?.[1];
      if (scorer !== undefined && !ctx.scorerOrder.includes(scorer)) ctx.scorerOrder.push(scorer);
    }
  }

  // evals.csv: what each trial was asked, generated and expected, joined to its scores by id.
  const trials = new Map<string, TrialPayload>();
  const evalsFile = await present('evals.csv');
  if (evalsFile !== undefined) {
    for await (const row of rowsOf(evalsFile, ctx.budget)) {
      if (!row.ok) {
        bad(evalsFile, row.line, row.column, row.message);
        continue;
      }
      const trial = trialOf(row.cells, evalsFile, row.line, ctx.budget);
      if (trial === undefined) {
        bad(evalsFile, row.line, 1, 'expected an `id` cell naming the eval (e.g. `12_trial_0`), but it is empty');
        continue;
      }
      trials.set(trial.trialId, trial);
      runTime ??= nonEmpty(row.cells.get('run_time'));
      numTrials = Math.max(numTrials, trial.trial);
      const entry = caseEntry(ctx, jobId, trial.caseId, { file: evalsFile, line: row.line });
      entry.trials = Math.max(entry.trials, trial.trial);
    }
  }

  const scoresFile = await present('scores.csv');
  if (scoresFile === undefined) {
    bad(
      join(folder, 'scores.csv'),
      1,
      1,
      'expected scores.csv beside evals.csv (EvalBench writes both), but it is missing: this job has no scores to show',
    );
  } else {
    const pairs = new Map<string, PairRow[]>();
    for await (const row of rowsOf(scoresFile, ctx.budget)) {
      if (!row.ok) {
        bad(scoresFile, row.line, row.column, row.message);
        continue;
      }
      const comparator = (row.cells.get('comparator') ?? '').trim();
      if (comparator === '') {
        bad(scoresFile, row.line, 1, 'expected a `comparator` cell naming the scorer, but it is empty');
        continue;
      }
      if (!ctx.scorerOrder.includes(comparator)) ctx.scorerOrder.push(comparator);
      const trial1 = nonEmpty(row.cells.get('trial1_id'));
      if (trial1 !== undefined) {
        // A multi-trial scorer's pairwise row: folded into one result per case, after all rows are read.
        const caseId = nonEmpty(row.cells.get('prompt_id')) ?? caseOf(trial1).caseId;
        const key = `${caseId}\u0000${comparator}`;
        const list = pairs.get(key) ?? [];
        list.push({ caseId, comparator, cells: row.cells, line: row.line });
        pairs.set(key, list);
        continue;
      }
      const id = nonEmpty(row.cells.get('id'));
      if (id === undefined) {
        bad(scoresFile, row.line, 1, 'expected an `id` cell naming the eval the score is for, but it is empty');
        continue;
      }
      const own = caseOf(id);
      const trial = trials.get(id);
      const caseId = trial?.caseId ?? own.caseId;
      const trialNumber = trial?.trial ?? own.trial;
      const entry = caseEntry(ctx, jobId, caseId, { file: scoresFile, line: row.line });
      entry.trials = Math.max(entry.trials, trialNumber);
      numTrials = Math.max(numTrials, trialNumber);
      entry.results.push(
        resultOf(
          entry.id,
          comparator,
          trialNumber,
          row.cells,
          trial,
          `${basename(scoresFile)}:${row.line}`,
          MEASUREMENTS[comparator] !== undefined || GRADES.has(comparator),
          ctx.budget,
        ),
      );
    }
    for (const list of pairs.values()) {
      const first = list[0];
      if (first === undefined) continue;
      const entry = caseEntry(ctx, jobId, first.caseId, { file: scoresFile, line: first.line });
      entry.results.push(pairsResult(entry.id, first.comparator, list, basename(scoresFile), ctx.budget));
    }
  }

  // summary.csv: EvalBench's own numbers, kept as written.
  const summary: ImportedSummaryRow[] = [];
  const summaryFile = await present('summary.csv');
  if (summaryFile !== undefined) {
    for await (const row of rowsOf(summaryFile, ctx.budget)) {
      if (!row.ok) {
        bad(summaryFile, row.line, row.column, row.message);
        continue;
      }
      const metric = nonEmpty(row.cells.get('metric_name'));
      if (metric === undefined) continue;
      runTime ??= nonEmpty(row.cells.get('run_time'));
      const metricScore = number(row.cells.get('metric_score'));
      const correct = number(row.cells.get('correct_results_count'));
      const total = number(row.cells.get('total_results_count'));
      summary.push({
        metric,
        ...(metricScore === undefined ? {} : { metricScore }),
        ...(correct === undefined ? {} : { correct }),
        ...(total === undefined ? {} : { total }),
      });
    }
  }
  return { imported: { jobId, folder, ...(runTime === undefined ? {} : { runTime }), summary, config }, numTrials };
}

function caseEntry(
  ctx: JobContext,
  jobId: string,
  caseId: string,
  location: { file: string; line: number },
): CaseEntry {
  const id = ctx.prefix ? `${jobId}/${caseId}` : caseId;
  let entry = ctx.cases.get(id);
  if (entry === undefined) {
    entry = { id, location, trials: 1, results: [] };
    ctx.cases.set(id, entry);
  } else if (entry.location.file !== location.file && location.file.endsWith('evals.csv')) {
    // The case's evals.csv line is where a person reads what it asked; scores.csv is the fallback.
    entry.location = location;
  }
  return entry;
}

function shownMasked(key: string, value: string): string {
  return shownText(maskConfigValue(key, value), MAX_CONFIG_VALUE);
}

function nonEmpty(text: string | undefined): string | undefined {
  return text === undefined || text.trim() === '' ? undefined : text;
}

function number(text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/** EvalBench's `run_time` (`2026-06-20 14:03:11.482913`, pandas' print of a naive datetime) as ISO 8601. */
export function isoTime(text: string | undefined): string | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d+)?/.exec(text ?? '');
  if (m === null) return undefined;
  const millis = (m[3] ?? '.000').slice(0, 4).padEnd(4, '0');
  return `${m[1] ?? ''}T${m[2] ?? ''}${millis}Z`;
}
