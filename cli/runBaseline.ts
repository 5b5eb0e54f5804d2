/**
 * `evallens run <config> --baseline <file>` (or `baseline:` in the config): the run compared with a
 * baseline as it finishes, with the comparison `evallens compare` makes (core/compare, core/stats).
 *
 * The baseline is read and checked BEFORE the run starts (its format, its config, its scorers): a bad
 * baseline then costs nothing, no judge call is paid for a run whose comparison would be refused. What
 * can only be known after (no case id in common, e.g. with --case) is said after the run, whose
 * results and report are saved first. The run's own cases are collected from its events as they end
 * (a few numbers per case × scorer), so the report is not read back.
 */
import { basename, relative } from 'node:path';
import type { RunConfig } from '../core/config/runConfig';
import { outsideOf } from '../core/config/workspacePath';
import { caseSelector, type CaseSelection } from '../core/dataset/caseSelection';
import { CollectedRun } from '../core/compare/collectRun';
import { compareRuns, type RunComparison, type ScorerSide } from '../core/compare/compareRuns';
import type { CaseStatus, RunEvent } from '../core/runner/events';
import { toDisplay } from '../shared/text/displayPosition';
import { printable } from '../shared/text/printable';
import { checkSameConfig, checkSharedCases, exitCode, writeCompareJson, type FailOn } from './compare';
import { formatComparison } from './compareConsole';
import { CompareInputError, readCompareSide, type CompareSide } from './compareInput';
import type { RunBaselineFlags } from './runBaselineArgs';
import { inShard, type Shard } from '../core/runner/shard';
import { configBaselinePath, saveBaseline } from './baseline';

/** What a run compared with a baseline gives at its end. */
export interface RunComparisonOutcome {
  readonly comparison: RunComparison;
  /** The console text (cli/compareConsole.ts). */
  readonly text: string;
  /** 1 when `--fail-on` fails the run, else 0. */
  readonly code: number;
  /** Writes the comparison as report.json's `comparison` field, exactly as `compare --reporter json`. */
  readonly writeJson: (stream: NodeJS.WritableStream) => Promise<void>;
}

export class RunBaseline {
  /** The run's own cases and results, collected as cases end. */
  private readonly collected: CollectedRun;

  private constructor(
    private readonly baseline: CompareSide,
    private readonly candidate: Omit<CompareSide, 'file' | 'runId' | 'run'>,
    private readonly failOn: FailOn,
  ) {
    this.collected = new CollectedRun(candidate.scorers.map((s) => s.name));
  }

  /**
   * The baseline a run compares with: `--baseline` (relative to the working folder), else the config's
   * `baseline:` (relative to the config). Undefined with neither, or when the config's baseline does
   * not exist yet and this run is to save it. A CompareInputError when it cannot be compared: it names
   * the file, and the key's line:column when the config named it.
   */
  static async open(
    flags: RunBaselineFlags,
    config: RunConfig,
    cwd: string,
    selection?: CaseSelection,
    shard?: Shard,
  ): Promise<RunBaseline | undefined> {
    const fromConfig = flags.baseline === undefined ? config.baseline : undefined;
    const path = flags.baseline ?? config.baseline?.path;
    if (path === undefined) {
      if (flags.failOn !== undefined)
        throw new CompareInputError(
          '--fail-on chooses what fails a run compared with a baseline: give --baseline <file> or `baseline:` in the config',
        );
      return undefined;
    }
    const where =
      fromConfig === undefined
        ? '--baseline '
        : `${printable(relative(cwd, fromConfig.range.file) || fromConfig.range.file)}:${positionOf(fromConfig)}: baseline: `;
    const shown = fromConfig === undefined ? path : relative(cwd, path) || path;
    let side: CompareSide;
    try {
      side = await readCompareSide(shown);
    } catch (e) {
      if (!(e instanceof CompareInputError)) throw e;
      // The first run of a config whose baseline it is about to save has nothing to compare with yet.
      if (flags.saveBaseline === true && fromConfig !== undefined && /does not exist/.test(e.message)) return undefined;
      throw new CompareInputError(`${where}${e.message}`);
    }
    const candidate = candidateOf(config);
    const baselineConfig = basename(side.configFile.replace(/\\/g, '/'));
    const runConfig = basename(config.file);
    if (baselineConfig !== runConfig)
      throw new CompareInputError(
        `${where}${printable(shown)} is ${side.configFile === '' ? 'not a run of any config' : `a run of ${printable(baselineConfig)}`}, not of ${printable(runConfig)}: compare with a baseline of the same config (\`evallens run ${printable(relative(cwd, config.file) || config.file)} --save-baseline\` writes one)`,
      );
    try {
      checkSameConfig(side, {
        ...candidate,
        file: relative(cwd, config.file) || config.file,
        runId: '',
        run: new CollectedRun([]),
      });
    } catch (e) {
      if (e instanceof CompareInputError) throw new CompareInputError(`${where}${e.message}`);
      throw e;
    }
    // A run of some cases (--case, --filter, --shard) is compared with those cases of the baseline only.
    const selected = selection === undefined ? undefined : caseSelector(selection);
    const run =
      selected === undefined && shard === undefined
        ? side.run
        : side.run.subset((id) => (selected?.(id) ?? true) && (shard === undefined || inShard(id, shard)));
    return new RunBaseline({ ...side, file: shown, run }, candidate, flags.failOn ?? 'regression');
  }

  /** Takes each ended case's status, fingerprint and results. */
  onEvent(event: RunEvent): void {
    if (event.type !== 'case/end') return;
    this.collected.addCase({
      id: event.caseId,
      status: event.status,
      ...(event.fingerprint === undefined ? {} : { fingerprint: event.fingerprint }),
    });
    for (const r of event.results)
      this.collected.addResult({
        caseId: r.caseId,
        scorer: r.scorer,
        ...(r.score === undefined ? {} : { score: r.score }),
        ...(r.passed === undefined ? {} : { passed: r.passed }),
      });
  }

  /** How a case that ended so moved from the baseline: `regressed`, `fixed`, or undefined (neither, or not in the baseline). */
  readonly transitionOf = (caseId: string, status: CaseStatus): 'regressed' | 'fixed' | undefined => {
    const slot = this.baseline.run.caseSlot.get(caseId);
    if (slot === undefined) return undefined;
    const before = this.baseline.run.casePassed(slot) === true;
    const now = status === 'passed';
    return before === now ? undefined : before ? 'regressed' : 'fixed';
  };

  /** The comparison of the finished run (`reportFile` as shown); a CompareInputError when the runs share no case. */
  compare(runId: string, reportFile: string): RunComparisonOutcome {
    const candidate: CompareSide = { ...this.candidate, file: reportFile, runId, run: this.collected };
    checkSharedCases(this.baseline, candidate);
    const comparison = compareRuns(this.baseline.run, this.collected, this.baseline.scorers, candidate.scorers);
    const code = exitCode(comparison, this.failOn);
    return {
      comparison,
      code,
      text: formatComparison(comparison, this.baseline, candidate, this.failOn, code),
      writeJson: (stream) => writeCompareJson(comparison, this.baseline, candidate, this.failOn, code, stream, true),
    };
  }

  /** The run's collected cases, for `--save-baseline`. */
  get run(): CollectedRun {
    return this.collected;
  }
}

/** The run's side as the config says it: its scorers (name, key, direction, scale). */
function candidateOf(config: RunConfig): Omit<CompareSide, 'file' | 'runId' | 'run'> {
  const scorers: ScorerSide[] = config.scorers.map((s) => ({
    name: s.name,
    lowerIsBetter: s.lowerIsBetter,
    ...(s.definition.scale.kind === 'bounded' ? { max: s.definition.scale.max } : {}),
  }));
  return {
    configFile: config.file,
    scorers,
    scorerKeys: new Map(config.scorers.map((s) => [s.name, s.definition.key])),
  };
}

function positionOf(ref: NonNullable<RunConfig['baseline']>): string {
  const { line, column } = toDisplay(ref.range.start);
  return `${line}:${column}`;
}

/** The comparison a finished run carries, or why there is none. */
export interface RunBaselineEnd {
  readonly outcome?: RunComparisonOutcome;
  /** Why the run was not compared: said after the run, which is saved; exit 2. */
  readonly problem?: string;
  /** Said, without changing the exit code (a cancelled run is not compared). */
  readonly note?: string;
}

/** Compares the finished run, unless it was cancelled (a partial run would look like removed cases). */
export function endRunBaseline(
  baseline: RunBaseline | undefined,
  cancelled: boolean,
  runId: string,
  reportFile: string,
): RunBaselineEnd {
  if (baseline === undefined) return {};
  if (cancelled) return { note: 'the run was cancelled: not compared with the baseline' };
  try {
    return { outcome: baseline.compare(runId, reportFile) };
  } catch (e) {
    if (e instanceof CompareInputError) return { problem: `not compared with the baseline: ${e.message}` };
    throw e;
  }
}

/** RunBaseline.open for cli/main.ts: a refused baseline is said on stderr ('refused': exit 2, nothing ran). */
export async function openRunBaseline(
  flags: RunBaselineFlags & {
    readonly untrusted?: boolean;
    readonly caseIds?: readonly string[];
    readonly filter?: string;
    readonly shard?: Shard;
  },
  config: RunConfig,
  cwd: string,
): Promise<RunBaseline | undefined | 'refused'> {
  const target = configBaselinePath(config.file, config.baseline?.path);
  if (flags.saveBaseline === true && flags.untrusted === true && outsideOf(cwd, target)) {
    // A workspace may not choose where an untrusted run writes (as for reporting.csv.output_directory).
    const where =
      config.baseline === undefined
        ? ''
        : `${printable(relative(cwd, config.baseline.range.file))}:${positionOf(config.baseline)}: `;
    process.stderr.write(
      `evallens: ${where}the workspace is not trusted, so a run writes nothing outside it (${printable(cwd)}), and --save-baseline would write ${printable(target)}: choose a baseline inside the workspace, or trust it; nothing ran\n`,
    );
    return 'refused';
  }
  try {
    const selected = (flags.caseIds?.length ?? 0) > 0 || flags.filter !== undefined;
    const selection = selected
      ? { ids: flags.caseIds ?? [], ...(flags.filter === undefined ? {} : { filter: flags.filter }) }
      : undefined;
    return await RunBaseline.open(flags, config, cwd, selection, flags.shard);
  } catch (e) {
    if (!(e instanceof CompareInputError)) throw e;
    process.stderr.write(`evallens: ${e.message}; nothing ran\n`);
    return 'refused';
  }
}

/**
 * The end of a run with a baseline or `--save-baseline`, once its report is written: the comparison
 * on the console (`out`), `--save-baseline`'s file, and the exit code: the run's own, 1 when the
 * comparison fails it by `--fail-on`, 2 when it could not be compared or saved (its results are kept).
 */
export async function finishRunBaseline(
  end: RunBaselineEnd,
  code: number,
  context: {
    readonly flags: RunBaselineFlags;
    readonly config: RunConfig;
    readonly runDir: string;
    readonly cancelled: boolean;
    readonly out: NodeJS.WritableStream;
  },
): Promise<number> {
  const { flags, config, runDir, out } = context;
  if (end.note !== undefined) process.stderr.write(`evallens: ${end.note}\n`);
  if (end.outcome !== undefined) out.write(`\nCompared with the baseline:\n${end.outcome.text}`);
  let result = end.outcome?.code === 1 && code === 0 ? 1 : code;
  if (end.problem !== undefined) {
    process.stderr.write(
      `evallens: ${end.problem} (the run's results are in ${printable(relative(process.cwd(), runDir) || runDir)})\n`,
    );
    result = 2;
  }
  if (flags.saveBaseline === true) {
    if (context.cancelled) process.stderr.write('evallens: the run was cancelled: the baseline is not saved\n');
    else {
      const target = configBaselinePath(config.file, config.baseline?.path);
      if ((await saveBaseline(config.file, target, runDir, out, process.stderr)) !== 0) result = 2;
    }
  }
  return result;
}
