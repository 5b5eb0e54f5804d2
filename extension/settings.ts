/**
 * The extension's settings, read once at the boundary into a typed object (and again on
 * `onDidChangeConfiguration`). `readSettings` takes a plain getter so it stays vscode-free and is
 * unit-tested; main.ts passes `workspace.getConfiguration('evallens').get`.
 */

export interface EvalLensSettings {
  /** Cases scored at once; undefined lets the CLI choose (the config's `concurrency`, else the cores). */
  readonly concurrency?: number;
  /** Whole-run time limit in seconds, after which the run is stopped; undefined means none. */
  readonly runTimeLimitSeconds?: number;
  /** Where run folders go, as written (relative paths resolve from the workspace folder). */
  readonly runsDirectory: string;
  /** Run a config's free scorers when the config or its dataset is saved. */
  readonly runOnSave: boolean;
  /** Whether runs started by a save (continuous runs, run on save) may use LLM judges and targets. */
  readonly runCostlyScorersOnSave: boolean;
  /** A run whose plan needs more LLM judge calls than this asks first; 0 asks for any. */
  readonly confirmJudgeCallsAbove: number;
  /** After a run with failing cases (not from a save), offer "Show failures". */
  readonly offerShowFailures: boolean;
}

export const SETTINGS_SECTION = 'evallens';

export const DEFAULT_SETTINGS: EvalLensSettings = {
  runsDirectory: '.evallens/runs',
  runOnSave: false,
  runCostlyScorersOnSave: false,
  confirmJudgeCallsAbove: 50,
  offerShowFailures: true,
};

/** Reads `evallens.*`; a value of the wrong type falls back to its default instead of breaking runs. */
export function readSettings(get: (key: string) => unknown): EvalLensSettings {
  // Past the CLI's cap (256) the CLI would refuse the run: such a value falls back to the default.
  const concurrency = wholeNumber(get('run.concurrency'), 1, 256);
  const limit = wholeNumber(get('run.timeLimitSeconds'), 1);
  const runsDirectory = get('run.runsDirectory');
  const confirm = wholeNumber(get('confirmJudgeCallsAbove'), 0);
  return {
    ...(concurrency === undefined ? {} : { concurrency }),
    ...(limit === undefined ? {} : { runTimeLimitSeconds: limit }),
    runsDirectory:
      typeof runsDirectory === 'string' && runsDirectory.trim() !== ''
        ? runsDirectory.trim()
        : DEFAULT_SETTINGS.runsDirectory,
    runOnSave: get('run.onSave') === true,
    runCostlyScorersOnSave: get('run.costlyScorersOnSave') === true,
    confirmJudgeCallsAbove: confirm ?? DEFAULT_SETTINGS.confirmJudgeCallsAbove,
    offerShowFailures: get('run.offerShowFailures') !== false,
  };
}

function wholeNumber(value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? value : undefined;
}
