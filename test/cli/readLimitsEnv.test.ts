/**
 * Issue 13, item 3: the caps users may need to change are configurable — a YAML dataset's
 * (EVALLENS_MAX_DATASET_BYTES) and a report's (EVALLENS_MAX_REPORT_BYTES), documented in
 * docs/limits.md. A refusal names the variable; a value that is not a byte count is a warning and
 * the default stays.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { configureReadLimits, MAX_RAISED_BYTES, READ_LIMITS, readLimit } from '../../core/text/boundedRead';
import { ensureBuilt, runCli } from '../support/cli';

let work = '';
before(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'evallens-read-limits-'));
  writeFileSync(join(work, 'cases.yaml'), '- {id: a, output: x, expected: x}\n');
  writeFileSync(join(work, 'run.eval.yaml'), 'dataset: cases.yaml\nscorers:\n  exact_match: null\n');
});
after(() => {
  configureReadLimits({});
  rmSync(work, { recursive: true, force: true });
});

describe('configurable read caps', () => {
  it('EVALLENS_MAX_DATASET_BYTES sets the YAML dataset cap; a refusal names it', async () => {
    const small = await runCli(['run', 'run.eval.yaml', '--runs-dir', 'runs'], {
      cwd: work,
      env: { EVALLENS_MAX_DATASET_BYTES: '10' },
    });
    assert.equal(small.code, 2, small.stdout + small.stderr);
    assert.match(
      small.stdout + small.stderr,
      /cannot read dataset cases\.yaml: expected at most 10 bytes, but it has 34 \(set EVALLENS_MAX_DATASET_BYTES to read more, up to 524288000 bytes\)/,
    );
    const enough = await runCli(['run', 'run.eval.yaml', '--runs-dir', 'runs'], {
      cwd: work,
      env: { EVALLENS_MAX_DATASET_BYTES: '1000' },
    });
    assert.equal(enough.code, 0, enough.stdout + enough.stderr);
  });

  it('a value that is not a byte count is a warning, and the default cap stays', async () => {
    const run = await runCli(['run', 'run.eval.yaml', '--runs-dir', 'runs'], {
      cwd: work,
      env: { EVALLENS_MAX_REPORT_BYTES: '2GB' },
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(
      run.stderr,
      /evallens: warning: EVALLENS_MAX_REPORT_BYTES must be a whole number of bytes from 1 to 524288000/,
    );
  });

  it('in-process: set, bounded by what a string can hold, reset', () => {
    assert.deepEqual(configureReadLimits({ EVALLENS_MAX_REPORT_BYTES: '2048' }), []);
    assert.equal(readLimit('report'), 2048);
    assert.equal(configureReadLimits({ EVALLENS_MAX_DATASET_BYTES: String(MAX_RAISED_BYTES + 1) }).length, 1);
    assert.equal(readLimit('wholeDataset'), READ_LIMITS.wholeDataset);
    assert.equal(readLimit('report'), READ_LIMITS.report);
    assert.equal(readLimit('config'), READ_LIMITS.config);
  });
});
