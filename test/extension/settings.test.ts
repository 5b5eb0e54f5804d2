import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_SETTINGS, readSettings } from '../../extension/settings';
import { runSummaryText } from '../../extension/testing/runSummaryText';

describe('settings', () => {
  it('reads the defaults when nothing is set', () => {
    assert.deepEqual(
      readSettings(() => undefined),
      DEFAULT_SETTINGS,
    );
  });

  it('reads every setting, and falls back to the default for a value of the wrong kind', () => {
    const values: Record<string, unknown> = {
      'run.concurrency': 4,
      'run.timeLimitSeconds': 90,
      'run.runsDirectory': ' out/runs ',
      'run.onSave': true,
      'run.costlyScorersOnSave': true,
      confirmJudgeCallsAbove: 0,
      'run.offerShowFailures': false,
    };
    assert.deepEqual(
      readSettings((key) => values[key]),
      {
        concurrency: 4,
        runTimeLimitSeconds: 90,
        runsDirectory: 'out/runs',
        runOnSave: true,
        runCostlyScorersOnSave: true,
        confirmJudgeCallsAbove: 0,
        offerShowFailures: false,
      },
    );
    const wrong: Record<string, unknown> = {
      'run.concurrency': 0,
      'run.timeLimitSeconds': 1.5,
      'run.runsDirectory': '',
      'run.onSave': 'yes',
      confirmJudgeCallsAbove: -1,
    };
    assert.deepEqual(
      readSettings((key) => wrong[key]),
      DEFAULT_SETTINGS,
    );
    // Past the CLI's cap the run would be refused: the setting falls back to the CLI's own choice.
    assert.equal(readSettings((key) => ({ 'run.concurrency': 257 })[key]).concurrency, undefined);
    assert.equal(readSettings((key) => ({ 'run.concurrency': 256 })[key]).concurrency, 256);
  });
});

describe('the status bar words', () => {
  it('counts the last run and flags failures', () => {
    const words = runSummaryText({ passed: 3, failed: 1, errored: 0, skipped: 2, total: 6 }, false, 'a.eval.yaml');
    assert.equal(words.text, 'EvalLens $(pass) 3 $(error) 1 $(circle-slash) 2');
    assert.equal(words.failing, true);
    assert.match(words.tooltip, /^Last run of a\.eval\.yaml: 3 passed, 1 failed, 0 errored, 2 skipped of 6 cases\./);
    assert.equal(
      runSummaryText({ passed: 1, failed: 0, errored: 0, skipped: 0, total: 1 }, true, 'b').text,
      'EvalLens $(pass) 1 $(error) 0 (stopped)',
    );
  });
});
