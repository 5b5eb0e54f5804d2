/**
 * `evallens baseline save <config>`: the config's latest finished run (in the runs folder) written as
 * a baseline file next to the config, `<name>.baseline.json` (core/compare/baselineFile.ts), for
 * `evallens compare` to take as either side.
 */
import { closeSync, openSync, readdirSync, readSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { baselineText } from '../core/compare/baselineFile';
import { printable } from '../shared/text/printable';
import { CompareInputError, readCompareSide } from './compareInput';

export interface BaselineCommand {
  readonly kind: 'baseline';
  readonly action: 'save';
  readonly config: string;
  readonly runsDir?: string;
}

/** The head of a report (its first lines hold configFile); enough to know which config a run ran. */
function configOfRun(report: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(report, 'r');
    const buffer = Buffer.alloc(8192);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    const line = buffer
      .toString('utf8', 0, read)
      .split('\n')
      .find((l) => l.startsWith('"configFile":'));
    return line === undefined
      ? undefined
      : (JSON.parse(`{${line.replace(/,$/, '')}}`) as { configFile?: string }).configFile;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Where the baseline of a config goes: `refunds.eval.yaml` → `refunds.baseline.json`, beside it. */
export function baselinePathOf(config: string): string {
  const name = basename(config).replace(/(\.eval)?\.ya?ml$/i, '');
  return join(dirname(config), `${name}.baseline.json`);
}

export async function baselineCommand(
  command: BaselineCommand,
  stdout: NodeJS.WritableStream,
  stderr: NodeJS.WritableStream,
): Promise<number> {
  const config = resolve(command.config);
  const runsDir = resolve(command.runsDir ?? '.evallens/runs');
  let runs: string[] = [];
  try {
    runs = readdirSync(runsDir).sort().reverse();
  } catch {
    runs = [];
  }
  // Run ids start with the start time (ISO, sortable): the first whose report names this config is the latest.
  const latest = runs.find((id) => configOfRun(join(runsDir, id, 'report.json')) === config);
  if (latest === undefined) {
    stderr.write(
      `evallens: no finished run of ${printable(command.config)} in ${printable(relative(process.cwd(), runsDir) || runsDir)}: run it first (\`evallens run ${printable(command.config)}\`)\n`,
    );
    return 2;
  }
  try {
    const side = await readCompareSide(join(runsDir, latest, 'report.json'));
    const scorers = side.scorers.map((s) => ({
      name: s.name,
      key: side.scorerKeys.get(s.name) ?? s.name,
      lowerIsBetter: s.lowerIsBetter,
    }));
    const target = baselinePathOf(config);
    writeFileSync(target, baselineText(basename(config), scorers, side.run));
    stdout.write(
      `baseline: ${printable(relative(process.cwd(), target))} (${side.run.caseCount} cases, from run ${printable(latest)})\n`,
    );
    return 0;
  } catch (e) {
    if (e instanceof CompareInputError) {
      stderr.write(`evallens: ${e.message}\n`);
      return 2;
    }
    stderr.write(`evallens: cannot write the baseline: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`);
    return 2;
  }
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
