/**
 * `evallens baseline save <config>`: the config's latest finished run (in the runs folder) written as
 * a baseline file next to the config, `<name>.baseline.json` (core/compare/baselineFile.ts), for
 * `evallens compare` to take as either side.
 */
import { closeSync, openSync, readdirSync, readSync, statSync, writeFileSync } from 'node:fs';
import { readBoundedTextSync } from '../core/text/boundedRead';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { parse } from 'yaml';
import { baselineText } from '../core/compare/baselineFile';
import { printable } from '../shared/text/printable';
import { CompareInputError, readCompareSide } from './compareInput';
import type { BaselineCommand } from './baselineArgs';
export { parseBaselineArgs, type BaselineCommand } from './baselineArgs';

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

/**
 * The config's baseline file: what its `baseline:` names, when that is a file (not a run folder or a
 * report.json, which are runs, not baselines); else `<name>.baseline.json` beside the config.
 */
export function configBaselinePath(config: string, baselineKey: string | undefined): string {
  if (baselineKey !== undefined && basename(baselineKey) !== 'report.json') {
    let folder = false;
    try {
      folder = statSync(baselineKey).isDirectory();
    } catch {
      folder = false;
    }
    if (!folder) return baselineKey;
  }
  return baselinePathOf(config);
}

/** The config's `baseline:` (absolute), read from its YAML without loading the config; undefined when it has none or cannot be read. */
function baselineKeyOf(config: string): string | undefined {
  const read = readBoundedTextSync(config, 'config');
  if (!read.ok) return undefined;
  try {
    const value = (parse(read.text) as { baseline?: unknown } | null)?.baseline;
    return typeof value === 'string' && value !== '' ? resolve(dirname(config), value) : undefined;
  } catch {
    return undefined;
  }
}

/** Where the baseline of a config goes by default: `refunds.eval.yaml` → `refunds.baseline.json`, beside it. */
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
  return saveBaseline(config, configBaselinePath(config, baselineKeyOf(config)), join(runsDir, latest), stdout, stderr);
}

/**
 * Writes the run in `runDir` (its report.json) as the baseline file `target`: what `baseline save`
 * and `run --save-baseline` both do, so both give the same bytes. 0, or 2 when it cannot.
 */
export async function saveBaseline(
  config: string,
  target: string,
  runDir: string,
  stdout: NodeJS.WritableStream,
  stderr: NodeJS.WritableStream,
): Promise<number> {
  try {
    const side = await readCompareSide(join(runDir, 'report.json'));
    const scorers = side.scorers.map((s) => ({
      name: s.name,
      key: side.scorerKeys.get(s.name) ?? s.name,
      lowerIsBetter: s.lowerIsBetter,
      ...(s.max === undefined ? {} : { max: s.max }),
    }));
    writeFileSync(target, baselineText(basename(config), scorers, side.run));
    stdout.write(
      `baseline: ${printable(relative(process.cwd(), target))} (${side.run.caseCount} cases, from run ${printable(basename(runDir))})\n`,
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
