import { parseArgs } from 'node:util';
import { printable } from '../shared/text/printable';
import type { CompareCommand } from './compare';
import { FAIL_ON, type FailOn } from './failOn';

/** Thrown as cli/args.ts's UsageError is (main prints it and exits 2). */
export class CompareUsageError extends Error {}

const SEE = 'see `evallens compare --help`';

/** `evallens compare <baseline> <candidate> [--reporter console|json [--out <file>]] [--fail-on …]`; undefined for --help. */
export function parseCompareArgs(argv: readonly string[]): CompareCommand | undefined {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        reporter: { type: 'string', short: 'r' },
        out: { type: 'string', short: 'o' },
        'fail-on': { type: 'string' },
      },
    });
  } catch (e) {
    const option = /'(-[^' ]*)/.exec((e as Error).message)?.[1];
    const code = (e as { code?: string }).code;
    throw new CompareUsageError(
      code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option !== undefined
        ? `${printable(option)} is not an option of \`evallens compare\`; ${SEE}`
        : `the arguments could not be read (--reporter, --out and --fail-on each need a value); ${SEE}`,
    );
  }
  const { values, positionals } = parsed;
  if (values.help === true) return undefined;
  const [, baseline, candidate, extra] = positionals;
  if (baseline === undefined || candidate === undefined)
    throw new CompareUsageError(
      `\`evallens compare\` needs two runs, the baseline then the candidate (report.json files, run folders or baseline files); ${SEE}`,
    );
  if (extra !== undefined)
    throw new CompareUsageError(
      `unexpected argument "${printable(extra)}": \`evallens compare\` takes two runs; ${SEE}`,
    );
  const reporter = values.reporter ?? 'console';
  if (reporter !== 'console' && reporter !== 'json')
    throw new CompareUsageError(
      `unknown reporter "${printable(reporter)}" for compare (expected console or json); ${SEE}`,
    );
  const failOn = values['fail-on'] ?? 'regression';
  if (!(FAIL_ON as readonly string[]).includes(failOn))
    throw new CompareUsageError(`--fail-on must be one of ${FAIL_ON.join(', ')}; got "${printable(failOn)}"; ${SEE}`);
  if (values.out !== undefined && reporter !== 'json')
    throw new CompareUsageError(`--out is for the json reporter: \`--reporter json --out <file>\`; ${SEE}`);
  return {
    kind: 'compare',
    baseline,
    candidate,
    reporter,
    ...(values.out === undefined ? {} : { out: values.out }),
    failOn: failOn as FailOn,
  };
}
