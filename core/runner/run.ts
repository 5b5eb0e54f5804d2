import { availableParallelism } from 'node:os';
import type { DatasetRecord, EvalCase, Json } from '../case';
import { MAX_CONCURRENCY, MAX_TRIALS, type RunConfig } from '../config/runConfig';
import type { ScorerResult } from '../result';
import { Aggregator } from '../../shared/aggregate/aggregator';
import type { JobTest, ScorerAggregate } from '../report/report';
import { caseSelector, type CaseSelection } from '../dataset/caseSelection';
import type { CaseStatus, RunEvent, RunSummary, ScorerInfo } from './events';
import type { CasePreparer } from './casePreparer';
import { CREDENTIAL_MASK, maskJson, maskSecretText, secretSet } from '../../shared/text/secretMask';
import { prepareScorers } from './prepareScorers';
import { ScoringCache, type RunCache } from '../cache/scoringCache';
import { scoreCase } from './scoreCase';
import { ScorerStatistics } from './scorerStatistics';
import { trialStats, type TrialStats } from './trials';
import { SpendMeter, type BudgetLimits, type Spend } from '../judge/budget';
import { hasJudges } from '../judge/judgeCallPlan';
import { caseFingerprint } from '../compare/fingerprint';

export interface RunOptions {
  readonly runId: string;
  /** Aborting stops new cases from starting; cases already running finish (or time out). */
  readonly signal?: AbortSignal;
  /** Cases scored at once (default: the config's `concurrency`, else the number of cores), at most MAX_CONCURRENCY. */
  readonly concurrency?: number;
  readonly selection?: CaseSelection;
  /** Overrides the config's `num_trials`; at most MAX_TRIALS. */
  readonly trials?: number;
  readonly onEvent: (event: RunEvent) => void;
  /** Work done on each case before scoring (SQL execution); closed by the caller. */
  readonly preparer?: CasePreparer;
  /**
   * Whether the run may execute workspace code and reach the network: subprocess and Python
   * scorers, targets, LLM judges. Default true (the CLI's default); an untrusted workspace says
   * false, and those scorers answer `skipped` with the reason "workspace is not trusted".
   */
  readonly trusted?: boolean;
  /** The result cache (core/cache/scoringCache.ts); absent, every scorer is called. */
  readonly cache?: RunCache;
  /** Monotonic milliseconds; injectable so tests are deterministic. */
  readonly now?: () => number;
  readonly clock?: () => Date;
  /** Limits on the run's judge calls (`--max-judge-calls`, `--max-cost`): past them, judge results are `skipped`. */
  readonly budget?: BudgetLimits;
  /** Scoring done elsewhere (the CLI's worker threads, cli/runWorkers.ts); absent, cases are scored here. */
  readonly remote?: RemoteScoring;
}

/**
 * Where a host scores cases off this thread: `score` gives what scoreCase would give for the case
 * (with the same config's scorers, trusted, no cache or preparer). Results must come back in the
 * order the cases were given: the runner emits each case as its answer arrives.
 */
export interface RemoteScoring {
  /** Cases in flight at once (in place of `concurrency`): enough to keep every thread busy. */
  readonly inFlight: number;
  /** `undefined` (a record that could not be read) is only kept in its place in the order: it answers no results. */
  score(evalCase: EvalCase | undefined, trials: number): Promise<RemoteCase>;
}

/** A case scored elsewhere: its results and its fingerprint (caseFingerprint), both computed there. */
export interface RemoteCase {
  readonly results: ScorerResult[];
  readonly fingerprint?: string;
}

export interface RunOutcome {
  readonly summary: RunSummary;
  readonly cancelled: boolean;
  readonly scorers: ScorerAggregate[];
  readonly jobTest?: JobTest;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly durationMs: number;
  readonly numTrials: number;
  /** What the judges spent (calls, tokens, cost) and what the budget skipped; absent when no scorer judges. */
  readonly spend?: Spend;
}

/**
 * Runs a config's scorers over a stream of dataset records, `concurrency` cases at a time, pulling
 * the next record only when a slot frees (so a large JSONL file is never all in memory). Emits the
 * typed event stream; returns the summary and aggregates.
 */
export async function runEval(
  config: RunConfig,
  records: AsyncIterable<DatasetRecord>,
  options: RunOptions,
): Promise<RunOutcome> {
  // Values `${VAR}` brought into the config (a key in a header, a scorer's value): masked in every result.
  const secrets = secretSet(config.secretValues ?? []);
  const now = options.now ?? (() => performance.now());
  const clock = options.clock ?? (() => new Date());
  // The loader and the CLI refuse values past the caps; a caller of the library is held to them too.
  const trials = Math.min(MAX_TRIALS, options.trials ?? config.numTrials);
  const concurrency =
    options.remote?.inFlight ??
    Math.min(MAX_CONCURRENCY, Math.max(1, options.concurrency ?? config.concurrency ?? availableParallelism()));
  const selected = caseSelector(options.selection ?? {});
  // The config was checked when it loaded; its scorers are built now, for this run.
  const meter = new SpendMeter(options.budget);
  const live = prepareScorers(config.scorers, {
    ...(options.trusted === undefined ? {} : { trusted: options.trusted }),
    judgeGate: meter,
  });
  let skippedForBudget = 0;
  const cache = options.cache === undefined ? undefined : new ScoringCache(options.cache, secrets);
  const scorers = config.scorers.map(scorerInfo);
  const aggregator = new Aggregator(scorers, config.jobThreshold);
  const statistics = new ScorerStatistics();
  const counts = { passed: 0, failed: 0, errored: 0, skipped: 0 };
  const startedAt = clock().toISOString();
  const runStarted = now();
  options.onEvent({
    type: 'run/start',
    runId: options.runId,
    configFile: config.file,
    startedAt,
    scorers,
    numTrials: trials,
    jobThreshold: config.jobThreshold,
  });

  const iterator = records[Symbol.asyncIterator]();
  const missingCredentials = { results: 0, reasons: new Set<string>() };
  const emitResults = (results: readonly ScorerResult[]) => {
    for (const result of results) {
      if (result.status === 'skipped' && result.details?.['missing_credentials'] === true) {
        missingCredentials.results++;
        if (missingCredentials.reasons.size < MAX_MISSING_REASONS) missingCredentials.reasons.add(result.reason);
      }
      if (result.status === 'skipped' && result.details?.['budget_reached'] === true) skippedForBudget++;
      aggregator.add(result);
      options.onEvent({ type: 'result', result });
    }
  };

  const worker = async () => {
    const abort = { controller: new AbortController() };
    while (options.signal?.aborted !== true) {
      const next = await iterator.next();
      if (next.done === true) return;
      const record = next.value;
      const id = record.ok ? record.value.case.id : record.error.id;
      if (!selected(id)) continue;
      const index = record.ok ? record.value.index : record.error.index;
      const range = record.ok ? record.value.range : record.error.range;
      const started = now();
      options.onEvent({ type: 'case/start', caseId: id, index, range });
      // A record that could not be read waits its turn too, so every case ends in dataset order.
      const remote =
        options.remote === undefined
          ? undefined
          : await options.remote.score(record.ok ? record.value.case : undefined, trials);
      const results: ScorerResult[] = record.ok
        ? remote !== undefined
          ? remote.results
          : await scoreCase(record.value.case, live, trials, {
              now,
              abort,
              ...(options.preparer === undefined ? {} : { preparer: options.preparer }),
              ...(options.trusted === undefined ? {} : { trusted: options.trusted }),
              ...(cache === undefined ? {} : { cache }),
            })
        : [
            {
              caseId: id,
              scorer: 'dataset',
              trial: 1,
              status: 'error' as const,
              reason: record.error.message,
              durationMs: 0,
            },
          ];
      // Masked once, for the result events and the case's end alike (both reach the run folder and reports).
      // A scored result was masked as it was made (scoreCase's finish) against everything but the config's values.
      const masked = record.ok ? maskConfigSecrets(results, secrets) : maskKnownSecrets(results, secrets);
      emitResults(masked);
      statistics.addCase(masked);
      const caseTrials = trials > 1 && record.ok ? trialStats(results, trials, config.minPassRate) : undefined;
      const status = caseStatusWithTrials(results, caseTrials, config.minPassRate);
      counts[status]++;
      const durationMs = Math.round((now() - started) * 1000) / 1000;
      const stats = caseTrials === undefined ? {} : { trials: caseTrials };
      const fingerprint = record.ok ? { fingerprint: remote?.fingerprint ?? caseFingerprint(record.value.case) } : {};
      options.onEvent({
        type: 'case/end',
        caseId: id,
        index,
        range,
        status,
        durationMs,
        results: masked,
        ...stats,
        ...fingerprint,
      });
    }
  };

  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    await iterator.return?.();
    // Scorers that keep processes for the run (subprocess, mode: persistent) end them here.
    await Promise.allSettled(live.map((s) => s.scorer.close?.()));
  }

  const cancelled = options.signal?.aborted === true;
  const summary: RunSummary = {
    ...counts,
    total: counts.passed + counts.failed + counts.errored + counts.skipped,
    ...(missingCredentials.results === 0
      ? {}
      : { missingCredentials: { results: missingCredentials.results, reasons: [...missingCredentials.reasons] } }),
  };
  const aggregates = statistics.withStatistics(aggregator.scorerAggregates());
  const jobTest = aggregator.jobTest(aggregates);
  const finishedAt = clock().toISOString();
  const durationMs = Math.round((now() - runStarted) * 1000) / 1000;
  options.onEvent({ type: 'run/end', runId: options.runId, finishedAt, durationMs, cancelled, summary });
  return {
    summary,
    cancelled,
    scorers: aggregates,
    ...(jobTest === undefined ? {} : { jobTest }),
    startedAt,
    finishedAt,
    durationMs,
    numTrials: trials,
    ...(hasJudges(config) ? { spend: meter.spend(skippedForBudget) } : {}),
  };
}

/** Distinct missing-credential reasons a summary keeps (one per judge model config, in practice). */
const MAX_MISSING_REASONS = 5;

/**
 * The worst of a case's results: error or timeout, then fail, then pass. Measured figures count as
 * passing (they ran and nothing failed); a case where nothing was decided or measured is skipped.
 */
export function caseStatus(results: readonly ScorerResult[]): CaseStatus {
  let status: CaseStatus = 'skipped';
  for (const r of results) {
    if (r.status === 'error' || r.status === 'timeout') return 'errored';
    if (r.status === 'fail') status = 'failed';
    else if ((r.status === 'pass' || r.status === 'measured') && status === 'skipped') status = 'passed';
  }
  return status;
}

/**
 * With `pass_criteria.min_pass_rate` and several trials, a case whose trials meet the rate passes even
 * though some trials failed or errored ("8 of 10"), unless a scorer across trials (trial 0) failed it.
 * Otherwise the worst of its results, as caseStatus.
 */
export function caseStatusWithTrials(
  results: readonly ScorerResult[],
  trials: TrialStats | undefined,
  minPassRate: number | undefined,
): CaseStatus {
  const status = caseStatus(results);
  if (minPassRate === undefined || trials === undefined || status === 'passed' || status === 'skipped') return status;
  if (trials.meets_min_pass_rate !== true) return status;
  const acrossTrials = caseStatus(results.filter((r) => r.trial === 0));
  return acrossTrials === 'failed' || acrossTrials === 'errored' ? acrossTrials : 'passed';
}

function scorerInfo(instance: RunConfig['scorers'][number]): ScorerInfo {
  return {
    name: instance.name,
    key: instance.definition.key,
    origin: instance.definition.origin,
    scale: instance.definition.scale,
    ...(instance.threshold === undefined ? {} : { threshold: instance.threshold }),
    weight: instance.weight,
    lowerIsBetter: instance.lowerIsBetter,
    ...(instance.definition.itemized === true ? { itemized: true as const } : {}),
    ...(instance.definition.jobScoreByCase === true ? { jobScoreByCase: true as const } : {}),
  };
}

/**
 * Scored results with the config's own `${VAR}` values masked: the rest of the masking rule (the
 * process's remembered values, URLs, detectors) ran when scoreCase made them, so it is not run twice.
 * With no such values (most configs) the results are returned as they are.
 */
function maskConfigSecrets(results: ScorerResult[], secrets: readonly string[]): ScorerResult[] {
  if (secrets.length === 0) return results;
  return results.map((r) => ({
    ...r,
    reason: maskValues(r.reason, secrets),
    ...(r.details === undefined ? {} : { details: maskJsonValues(r.details, secrets) }),
    ...(r.metrics === undefined ? {} : { metrics: maskJsonValues(r.metrics, secrets) }),
  }));
}

function maskValues(text: string, secrets: readonly string[]): string {
  let masked = text;
  for (const secret of secrets) if (masked.includes(secret)) masked = masked.split(secret).join(CREDENTIAL_MASK);
  return masked;
}

function maskJsonValues<T extends Json>(value: T, secrets: readonly string[]): T {
  const walk = (v: Json): Json => {
    if (typeof v === 'string') return maskValues(v, secrets);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, inner]) => [maskValues(k, secrets), walk(inner)]));
    return v;
  };
  return walk(value) as T;
}

/** Results with every known secret value masked in their reasons and details. */
function maskKnownSecrets(results: readonly ScorerResult[], secrets: readonly string[]): ScorerResult[] {
  return results.map((r) => ({
    ...r,
    reason: maskSecretText(r.reason, secrets),
    ...(r.details === undefined ? {} : { details: maskJson(r.details, secrets) }),
    ...(r.metrics === undefined ? {} : { metrics: maskJson(r.metrics, secrets) }),
  }));
}
