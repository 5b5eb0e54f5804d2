/**
 * The status bar over a test run that covered several configs ("Run All" with two configs forks the
 * CLI once per config): it adds up every config's cases, lists each config in its tooltip, and a
 * new test run starts over. Before, it showed the counts of whichever config ended last.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { batchSummaryText, RunBatch } from '../../extension/results/runBatch';
import { runSummaryText } from '../../extension/testing/runSummaryText';

const A = {
  configFile: '/w/a.eval.yaml',
  label: 'a.eval.yaml',
  summary: { passed: 3, failed: 1, errored: 0, skipped: 0, total: 4 },
  cancelled: false,
  reportFile: '/w/.evallens/runs/1/report.json',
  endedAt: 1,
};
const B = {
  configFile: '/w/b.eval.yaml',
  label: 'b.eval.yaml',
  summary: { passed: 1, failed: 2, errored: 1, skipped: 0, total: 4 },
  cancelled: false,
  reportFile: '/w/.evallens/runs/2/report.json',
  endedAt: 2,
};

describe('the last test run over several configs', () => {
  it('adds up the cases of every config the test run covered, and names each in the tooltip', () => {
    const batch = new RunBatch();
    const runAll = {};
    batch.record(runAll, A);
    batch.record(runAll, B);
    assert.deepEqual(
      batch.outcomes.map((o) => o.label),
      ['a.eval.yaml', 'b.eval.yaml'],
    );
    const words = batchSummaryText(batch.outcomes);
    assert.equal(words.text, 'EvalLens $(pass) 4 $(error) 3 $(warning) 1 · 2 configs');
    assert.equal(
      words.tooltip,
      [
        'Last run, 2 configs: 4 passed, 3 failed, 1 errored of 8 cases.',
        'a.eval.yaml: 3 passed, 1 failed of 4 cases',
        'b.eval.yaml: 1 passed, 2 failed, 1 errored of 4 cases',
        'Click to open the results.',
      ].join('\n'),
    );
    assert.equal(words.failing, true);
  });

  it('starts over with the next test run, and keeps the latest outcome of a config run twice in one', () => {
    const batch = new RunBatch();
    const first = {};
    batch.record(first, A);
    batch.record(first, B);
    const second = {};
    batch.record(second, B);
    assert.deepEqual(
      batch.outcomes.map((o) => o.label),
      ['b.eval.yaml'],
    );
    batch.record(second, { ...B, summary: { passed: 4, failed: 0, errored: 0, skipped: 0, total: 4 } });
    assert.equal(batch.outcomes.length, 1);
    assert.equal(batch.outcomes[0]?.summary?.passed, 4);
  });

  it('says of one config what it always said', () => {
    const words = batchSummaryText([A]);
    assert.deepEqual(words, runSummaryText(A.summary, false, 'a.eval.yaml'));
  });

  it('counts a config whose run never started as failing, and says a stop', () => {
    const notStarted = { configFile: '/w/c.eval.yaml', label: 'c.eval.yaml', cancelled: false, endedAt: 3 };
    const words = batchSummaryText([
      { ...A, summary: { passed: 4, failed: 0, errored: 0, skipped: 0, total: 4 }, cancelled: true },
      notStarted,
    ]);
    assert.equal(words.text, 'EvalLens $(pass) 4 $(error) 0 · 2 configs (stopped)');
    assert.equal(words.failing, true);
    assert.match(words.tooltip, /^c\.eval\.yaml: did not start \(see the EvalLens output\)$/m);
    assert.match(words.tooltip, /^a\.eval\.yaml: 4 passed, 0 failed of 4 cases \(stopped\)$/m);
  });
});
