// `evallens baseline`'s command line (cli/baseline.ts runs it), apart so that parsing does not load the readers.
import { parseArgs } from 'node:util';
import { CompareInputError } from './compareInputError';

export interface BaselineCommand {
  readonly kind: 'baseline';
  readonly action: 'save';
  readonly config: string;
  readonly runsDir?: string;
}

export function parseBaselineArgs(argv: readonly string[]): BaselineCommand | { help: true } {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { help: { type: 'boolean', short: 'h' }, 'runs-dir': { type: 'string' } },
    });
  } catch {
    throw new CompareInputError(
      '`evallens baseline save <config.eval.yaml>` takes only --runs-dir <folder>; see `evallens baseline --help`',
    );
  }
  if (parsed.values.help === true) return { help: true };
  const [, action, config, ...more] = parsed.positionals;
  if (action !== 'save' || config === undefined || more.length > 0)
    throw new CompareInputError('`evallens baseline` takes `save <config.eval.yaml>`; see `evallens baseline --help`');
  const runsDir = parsed.values['runs-dir'];
  return { kind: 'baseline', action: 'save', config, ...(runsDir === undefined ? {} : { runsDir }) };
}
