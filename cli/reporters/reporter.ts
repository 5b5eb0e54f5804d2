import type { ReportSource } from '../../core/report/report';
import type { CaseStatus, RunEvent } from '../../core/runner/events';
import type { ProgressLine } from '../progress';

/**
 * A CLI reporter: sees the run's events as they happen and the finished run at the end. Reporters
 * that write a file get it in `out`; the console reporter writes to the given stream.
 */
export interface Reporter {
  onEvent(event: RunEvent): void;
  finish(report: ReportSource): Promise<void>;
}

export interface ReporterOptions {
  /** Where the reporter writes: a file path, or undefined for standard output. */
  readonly out?: string;
  /** Standard output, injectable for tests. */
  readonly stdout: NodeJS.WritableStream;
  /** The folder the config lives in; paths in human output are shown relative to the working directory. */
  readonly cwd: string;
  /** Colour in console output (off when not a TTY or NO_COLOR is set). */
  readonly color: boolean;
  /** The live progress line (cli/progress.ts): given to the console reporter when it writes to standard output. */
  readonly progress?: ProgressLine;
  /**
   * With a baseline (`run --baseline`): whether a case that ended so regressed (passed in the
   * baseline, not now) or was fixed; undefined when it did neither or the baseline lacks it.
   */
  readonly transitionOf?: (caseId: string, status: CaseStatus) => 'regressed' | 'fixed' | undefined;
}
