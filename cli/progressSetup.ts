import type { RunConfig } from '../core/config/runConfig';
import { planJudgeCalls } from '../core/judge/judgeCallPlan';
import type { CaseSelection } from '../core/dataset/caseSelection';
import { caseRecords, recordCountWithoutReading } from '../core/runner/records';
import { ProgressLine, progressIntervalMs } from './progress';
import type { ReporterRequest } from './args';

/**
 * The run's progress line, when the console reporter writes to standard output and
 * `EVALLENS_PROGRESS_SECONDS` is not `off`: never beside a reporter that owns standard output
 * (`--reporter json` alone), so a machine-read stream has no progress in it. The total is counted
 * before the run: a JSON Lines dataset's records by its lines, anything else by streaming the
 * selected cases once.
 */
export async function consoleProgress(
  config: RunConfig,
  options: { readonly selection: CaseSelection; readonly trials?: number },
  reporters: readonly ReporterRequest[],
  stdout: NodeJS.WriteStream,
  env: Readonly<Record<string, string | undefined>>,
): Promise<ProgressLine | undefined> {
  if (!reporters.some((r) => r.name === 'console' && r.out === undefined)) return undefined;
  const intervalMs = progressIntervalMs(env['EVALLENS_PROGRESS_SECONDS']);
  if (intervalMs === undefined) return undefined;
  let total: number | undefined;
  try {
    // Counted from the lines where that is cheap (a JSON Lines dataset, no selection), else case by case.
    total =
      (await recordCountWithoutReading(config, options.selection)) ??
      (await planJudgeCalls(config, caseRecords(config), options)).cases;
  } catch {
    // A dataset that cannot be read: the run says why; the line goes without a total.
    total = undefined;
  }
  return new ProgressLine({
    tty: stdout.isTTY === true,
    intervalMs,
    total,
    now: () => performance.now(),
    write: (text) => stdout.write(text),
  });
}
