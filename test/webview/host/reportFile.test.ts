import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readReportFile as readThroughCli } from '../../../extension/results/reportFile';
import { CLI, ensureBuilt, ROOT } from '../../support/cli';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'reports', 'three-cases.report.json');
const dir = mkdtempSync(join(tmpdir(), 'evallens-report-'));
before(() => ensureBuilt());
after(() => rmSync(dir, { recursive: true, force: true }));

/** The extension's reader: the built CLI reads and checks the report. */
const readReportFile = (path: string) => readThroughCli(CLI, path);

/** A refusal: its message, and the line and column it names (after the path). */
interface Refusal {
  readonly message: string;
  readonly line: number;
  readonly column: number;
}

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function failure(path: string): Promise<Refusal> {
  try {
    await readReportFile(path);
  } catch (error) {
    assert.ok(error instanceof Error, String(error));
    const at = new RegExp(`^${path}:(\\d+):(\\d+): `).exec(error.message);
    assert.ok(at !== null, `the message names ${path}:line:col: ${error.message}`);
    return { message: error.message, line: Number(at[1]), column: Number(at[2]) };
  }
  assert.fail('expected the report to be refused');
}

describe('readReportFile (through the CLI)', () => {
  it('reads a report written in CI (a path of another machine in configFile)', async () => {
    const report = await readReportFile(FIXTURE);
    assert.equal(report.configFile, '/home/ci/project/evals/support.eval.yaml');
    assert.equal(report.results.length > 0, true);
  });

  it('names file, line and column of a JSON syntax error, without quoting the text', async () => {
    const text = readFileSync(FIXTURE, 'utf8').replace('"cancelled":false,', '"cancelled":false');
    const error = await failure(write('syntax.json', text));
    const line = text.split('\n').findIndex((l) => l.startsWith('"cancelled":false')) + 2;
    assert.equal(error.line, line, 'the missing comma is noticed at the next line');
    assert.equal(error.column, 1);
    assert.match(
      error.message,
      new RegExp(
        `^${join(dir, 'syntax.json')}:${line}:1: expected a JSON report, saw a JSON syntax error \\(comma expected\\)$`,
      ),
    );
  });

  it('names where a report breaks the schema', async () => {
    const text = readFileSync(FIXTURE, 'utf8').replace('"status":"pass"', '"status":"great"');
    const error = await failure(write('schema.json', text));
    const line = text.split('\n').findIndex((l) => l.includes('"status":"great"')) + 1;
    assert.equal(error.line, line);
    assert.ok(error.column > 1);
    assert.match(
      error.message,
      /expected an EvalLens report \(schemas\/report\.schema\.json\), but at \/results\/\d+\/status the value must be equal to one of the allowed values/,
    );
    assert.doesNotMatch(error.message, /great/, 'the value seen is not quoted');
  });

  it('refuses JSON that is not a report at all, and a missing file, by name', async () => {
    assert.match(
      (await failure(write('array.json', '[1, 2]'))).message,
      /array\.json:1:1: expected an EvalLens report .* at the top level the value must be object/,
    );
    assert.match(
      (await failure(write('empty.json', ''))).message,
      /empty\.json:1:1: expected a JSON report, saw a JSON syntax error \(value expected\)/,
    );
    assert.match(
      (await failure(join(dir, 'absent.json'))).message,
      /absent\.json:1:1: cannot read the report file \(it does not exist\)/,
    );
  });

  it('refuses a report that is not a regular file (a symlink to /dev/zero) before reading it', async () => {
    const path = join(dir, 'zero.report.json');
    symlinkSync('/dev/zero', path);
    assert.equal(
      (await failure(path)).message,
      `${path}:1:1: cannot read the report file (expected a regular file, but it is a character device (such as /dev/zero))`,
    );
  });

  it('accepts a byte order mark', async () => {
    const report = await readReportFile(write('bom.json', `\uFEFF${readFileSync(FIXTURE, 'utf8')}`));
    assert.equal(report.version, 1);
  });
});
