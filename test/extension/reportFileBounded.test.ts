/**
 * Issue 13, items 3 and 8, in the extension's "Open Report File…": a report path that is a symlink to
 * /dev/zero or a FIFO was read with readFile (memory without bound, or a wait forever); a report
 * nested thousands deep reached the schema check's recursion. Each is now an error naming the file,
 * line and column and what was expected (the CLI reads the report for the extension: cli/reportJson.ts).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readReportFile } from '../../extension/results/reportFile';
import { CLI, ensureBuilt } from '../support/cli';

let dir = '';
before(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'evallens-report-file-'));
  symlinkSync('/dev/zero', join(dir, 'zero.json'));
  execFileSync('mkfifo', [join(dir, 'pipe.json')]);
  writeFileSync(join(dir, 'deep.json'), `{"version": 1, "x": ${'['.repeat(20_000)}${']'.repeat(20_000)}}`);
});
after(() => rmSync(dir, { recursive: true, force: true }));

const refusal = async (name: string, expected: RegExp): Promise<void> => {
  await assert.rejects(readReportFile(CLI, join(dir, name)), (error: unknown) => {
    assert.ok(error instanceof Error, String(error));
    assert.match(error.message, expected);
    return true;
  });
};

describe('the extension reads report files bounded', () => {
  it('a symlink to /dev/zero is refused without reading it', () =>
    refusal(
      'zero.json',
      /zero\.json:1:1: cannot read the report file \(expected a regular file, but it is a character device/,
    ));
  it('a FIFO is refused without waiting for a writer', () =>
    refusal(
      'pipe.json',
      /pipe\.json:1:1: cannot read the report file \(expected a regular file, but it is a named pipe/,
    ));
  it('a report nested past the cap is an error at the bracket', () =>
    refusal(
      'deep.json',
      /deep\.json:1:276: expected an EvalLens report, but it has arrays and objects nested more than 256 levels deep/,
    ));
});
