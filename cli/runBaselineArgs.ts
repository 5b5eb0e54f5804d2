/** The options of `evallens run` that compare the run with a baseline (cli/runBaseline.ts). */
import { printable } from '../shared/text/printable';
import { FAIL_ON, type FailOn } from './failOn';

export interface RunBaselineFlags {
  /** `--baseline <file>`: a baseline file, report.json or run folder; wins over the config's `baseline:`. */
  readonly baseline?: string;
  /** `--save-baseline`: write the config's baseline file from this run. */
  readonly saveBaseline?: boolean;
  /** `--fail-on`: what in the comparison fails the run (default `regression`). */
  readonly failOn?: FailOn;
}

export const RUN_BASELINE_OPTIONS = ['baseline', 'save-baseline', 'fail-on'] as const;

/** The flags from parsed options; a mistake is thrown as `usage` makes it (cli/args.ts's UsageError). */
export function runBaselineFlags(
  values: {
    readonly baseline?: string;
    readonly 'save-baseline'?: boolean;
    readonly 'fail-on'?: string;
    readonly case?: readonly string[];
    readonly filter?: string;
  },
  usage: (message: string) => Error,
): RunBaselineFlags {
  const failOn = values['fail-on'];
  if (failOn !== undefined && !(FAIL_ON as readonly string[]).includes(failOn))
    throw usage(
      `--fail-on must be one of ${FAIL_ON.join(', ')}; got "${printable(failOn)}"; see \`evallens run --help\``,
    );
  const save = values['save-baseline'] === true;
  // A baseline of some cases would make every other case look removed in the next comparison.
  if (save && ((values.case?.length ?? 0) > 0 || values.filter !== undefined))
    throw usage(
      '--save-baseline saves the whole run as the baseline: run it without --case or --filter; see `evallens run --help`',
    );
  return {
    ...(values.baseline === undefined ? {} : { baseline: values.baseline }),
    ...(save ? { saveBaseline: true } : {}),
    ...(failOn === undefined ? {} : { failOn: failOn as FailOn }),
  };
}
