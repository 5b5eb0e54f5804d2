import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { importReport, reportImportArgs } from '../../extension/runner/reportImport';
import { parseReport } from '../../cli/reportJson';
import { CLI, ensureBuilt, ROOT } from '../support/cli';

const JOB = join(ROOT, 'test', 'fixtures', 'evalbench', 'results', '5d0c7a8e-3b1f-4c2a-9e6d-7f8a1b2c3d4e');
let work = '';

before(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'evallens-import-'));
});

after(() => rmSync(work, { recursive: true, force: true }));

describe('opening EvalBench results in the results view', () => {
  it('asks the CLI for the report (the extension host parses no CSV)', () => {
    assert.deepEqual(reportImportArgs('/r/job/scores.csv', '/ws/.evallens/runs', '/tmp/x.json'), [
      'report',
      '/r/job/scores.csv',
      '--runs-dir',
      '/ws/.evallens/runs',
      '--reporter',
      'json',
      '--out',
      '/tmp/x.json',
      '--no-color',
    ]);
  });

  it('gets a report the results view reads from the built CLI, also kept in the runs folder', async () => {
    const runsDir = join(work, 'runs');
    const file = join(work, 'report.json');
    const answer = await importReport(CLI, join(JOB, 'scores.csv'), runsDir, file, work);
    assert.deepEqual(answer, { ok: true, reportFile: file });
    const report = parseReport(readFileSync(file, 'utf8'), file);
    assert.equal(report.imported?.format, 'evalbench-csv');
    assert.deepEqual(report.summary, { passed: 2, failed: 1, errored: 0, skipped: 0, total: 3 });
    assert.equal(readdirSync(runsDir).length, 1);
  });

  it('says why when the CLI cannot read it, naming the file', async () => {
    const answer = await importReport(
      CLI,
      join(work, 'nothing-here.csv'),
      join(work, 'runs2'),
      join(work, 'r2.json'),
      work,
    );
    assert.equal(answer.ok, false);
    assert.match(
      answer.ok ? '' : answer.reason,
      /nothing-here\.csv:1:1: expected a results folder or a report\.json, but it does not exist/,
    );
  });
});
