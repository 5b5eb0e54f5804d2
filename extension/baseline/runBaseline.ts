/**
 * After a run: its comparison with the config's baseline, if it has one. The run's own report
 * carries it as `comparison` when the run was given a baseline (`baseline:` in the config, `run
 * --baseline`); otherwise, when a baseline file sits beside the config (`<name>.baseline.json`, what
 * "Save as Baseline" writes), the CLI compares the finished report with it (`evallens compare`, one
 * short process). No baseline, no process. vscode-free.
 */
import { stat } from 'node:fs/promises';
import { baselineFileOf } from '../../shared/baseline/baselinePath';
import { compareWithBaseline } from '../runner/baselineCli';
import { comparisonInReport, comparisonOf, type RunComparison } from './runComparison';

export interface FinishedRun {
  readonly cliPath: string;
  readonly configFile: string;
  readonly reportFile: string;
  /** The report as the run handed it over, when it did. */
  readonly reportJson?: string;
  readonly cwd: string;
}

export interface RunComparisonAnswer {
  readonly comparison?: RunComparison;
  /** Why a baseline beside the config could not be compared (for the output channel). */
  readonly problem?: string;
}

export async function comparisonAfterRun(run: FinishedRun): Promise<RunComparisonAnswer> {
  const own = run.reportJson === undefined ? undefined : comparisonInReport(run.reportJson);
  if (own !== undefined) return { comparison: own };
  const baselineFile = baselineFileOf(run.configFile);
  if (!(await isFile(baselineFile))) return {};
  const answer = await compareWithBaseline(run.cliPath, baselineFile, run.reportFile, run.cwd);
  if (!answer.ok) return { problem: answer.reason };
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.json);
  } catch {
    return { problem: 'the comparison the CLI printed is not JSON' };
  }
  const comparison = comparisonOf(parsed);
  return comparison === undefined ? { problem: 'the comparison the CLI printed lists no cases' } : { comparison };
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}
