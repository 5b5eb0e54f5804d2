import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { findSavedRun, type SavedSource, savedSourceOf } from '../../../extension/results/savedRun';
import { persistedView, reduce } from '../../../webview/model/reducer';
import { initialState } from '../../../webview/model/viewState';
import { CLI, ensureBuilt, ROOT } from '../../support/cli';
import { reportOf } from '../support/runs';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'reports', 'three-cases.report.json');
const RUN_ID = '20250102-030405-abc123';
const CONFIG = '/home/ci/project/evals/support.eval.yaml';
const dir = mkdtempSync(join(tmpdir(), 'evallens-saved-run-'));
before(() => ensureBuilt());
after(() => rmSync(dir, { recursive: true, force: true }));

/** A runs directory with the given files in the run's folder. */
function runsDir(name: string, files: { readonly [file: string]: string }, runId = RUN_ID): string {
  const runs = join(dir, name);
  mkdirSync(join(runs, runId), { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(runs, runId, file), text);
  return runs;
}

const reportSource: SavedSource = { runId: RUN_ID, configFile: CONFIG, kind: 'report', complete: true };

describe('savedSourceOf', () => {
  it('reads back the source the view saves with its state (after the JSON round trip of a reload)', () => {
    const shown = reduce(initialState(), { type: 'report/show', report: reportOf(2, 'run-7'), complete: true });
    const state: unknown = JSON.parse(JSON.stringify(persistedView(shown)));
    assert.deepEqual(savedSourceOf(state), {
      runId: 'run-7',
      configFile: reportOf(2).configFile,
      kind: 'report',
      complete: true,
    });
  });

  it('has no source for a view that showed nothing, or for state that is not the view’s', () => {
    assert.equal(savedSourceOf(JSON.parse(JSON.stringify(persistedView(initialState()))) as unknown), undefined);
    for (const state of [
      undefined,
      null,
      'text',
      [],
      { source: null },
      { source: { runId: 1, configFile: CONFIG, kind: 'report', complete: true } },
      { source: { ...reportSource, kind: 'other' } },
    ])
      assert.equal(savedSourceOf(state), undefined, JSON.stringify(state));
  });

  it('refuses a run id that is not one folder name, so nothing outside the runs directory is read', () => {
    for (const runId of ['', '.', '..', '../etc', 'a/b', 'a\\b', 'a\0b'])
      assert.equal(savedSourceOf({ source: { ...reportSource, runId } }), undefined, JSON.stringify(runId));
  });
});

describe('findSavedRun', () => {
  it('finds the report.json in the run folder of the first runs directory that has it', async () => {
    const empty = join(dir, 'no-runs-here');
    const runs = runsDir('runs-a', { 'report.json': readFileSync(FIXTURE, 'utf8') });
    const found = await findSavedRun(reportSource, [empty, runs], CLI);
    assert.equal(found.found, true);
    assert.ok(found.found);
    assert.equal(found.file, join(runs, RUN_ID, 'report.json'));
    assert.equal(found.report.runId, RUN_ID);
  });

  it('says the report is gone, where it looked and what to do instead', async () => {
    const runs = join(dir, 'runs-empty');
    const found = await findSavedRun(reportSource, [runs], CLI);
    assert.deepEqual(found, {
      found: false,
      notice: `No report of run ${RUN_ID} (${CONFIG}) in ${join(runs, RUN_ID)}, so it cannot be shown again (a report opened from another folder is not reopened after a reload). Open it with “EvalLens: Open Report File…”, or run the config again.`,
    });
  });

  it('says a live run ended with the window, and where the results of its finished cases are', async () => {
    const runs = runsDir('runs-live', { 'results.jsonl': '{}\n' }, 'live-1');
    const found = await findSavedRun(
      { runId: 'live-1', configFile: CONFIG, kind: 'live', complete: false },
      [runs],
      CLI,
    );
    assert.equal(found.found, false);
    assert.ok(!found.found);
    assert.match(
      found.notice,
      /^Run live-1 of .* was in progress when the window closed and ended with it, before writing its report/,
    );
    assert.ok(found.notice.includes(join(runs, 'live-1', 'results.jsonl')), found.notice);
  });

  it('shows a live run’s report when the run got to write it', async () => {
    const runs = runsDir('runs-live-done', { 'report.json': readFileSync(FIXTURE, 'utf8') });
    const found = await findSavedRun({ ...reportSource, kind: 'live', complete: false }, [runs], CLI);
    assert.equal(found.found, true);
  });

  it('names file, line and column of a report that no longer reads, without quoting it', async () => {
    const runs = runsDir('runs-broken', { 'report.json': '{\n  "runId": "secret output text"\n' });
    const found = await findSavedRun(reportSource, [runs], CLI);
    assert.ok(!found.found);
    assert.ok(found.notice.includes(`${join(runs, RUN_ID, 'report.json')}:`), found.notice);
    assert.ok(!found.notice.includes('secret output text'), found.notice);
  });

  it('refuses a report.json of another run in the run’s folder', async () => {
    const runs = runsDir('runs-other', { 'report.json': readFileSync(FIXTURE, 'utf8') }, 'another-run');
    const found = await findSavedRun({ ...reportSource, runId: 'another-run' }, [runs], CLI);
    assert.ok(!found.found);
    assert.match(found.notice, /expected the report of run another-run, found run 20250102-030405-abc123/);
  });
});
