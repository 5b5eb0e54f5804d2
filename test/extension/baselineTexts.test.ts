/** The editor's baseline helpers that need no run: which config a command was given, where it may write, and what a partial run's comparison keeps. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { baselineWriteRefusal, configOfArgument } from '../../extension/baseline/commandTarget';
import { LastComparisons } from '../../extension/baseline/lastComparisons';
import { comparisonOf, regressionStatusText } from '../../extension/baseline/runComparison';

const fromFileUri = (uri: string) => decodeURIComponent(new URL(uri).pathname);

describe('Save as Baseline: the config it was given', () => {
  it('takes a config path, a config or case item of the Test Explorer, or a config file URI', () => {
    assert.equal(configOfArgument('/w/a.eval.yaml', fromFileUri), '/w/a.eval.yaml');
    assert.equal(configOfArgument({ id: 'file:///w/a.eval.yaml', children: {} }, fromFileUri), '/w/a.eval.yaml');
    // A case's item: its own URI is the dataset's; its id names the config.
    assert.equal(
      configOfArgument(
        { id: 'file:///w/my%20evals/a.eval.yml#case#1', uri: { fsPath: '/w/d.jsonl' }, children: {} },
        fromFileUri,
      ),
      '/w/my evals/a.eval.yml',
    );
    assert.equal(configOfArgument({ fsPath: '/w/b.eval.yaml', scheme: 'file' }, fromFileUri), '/w/b.eval.yaml');
  });

  it('takes nothing else: a dataset, a webview URI, no argument', () => {
    assert.equal(configOfArgument('/w/data.jsonl', fromFileUri), undefined);
    assert.equal(configOfArgument({ fsPath: '/w/data.jsonl' }, fromFileUri), undefined);
    assert.equal(configOfArgument(undefined, fromFileUri), undefined);
    assert.equal(configOfArgument([], fromFileUri), undefined);
  });
});

describe('the last comparisons per config', () => {
  it("a run of some cases updates theirs and keeps the others'; a run without a baseline forgets them", () => {
    const comparisons = new LastComparisons();
    const changed: string[] = [];
    comparisons.onDidChange((config) => changed.push(config));
    const all = comparisonOf({
      cases: [
        { id: 'a', transition: 'regressed' },
        { id: 'b', transition: 'fixed' },
      ],
    });
    const onlyA = comparisonOf({
      cases: [
        { id: 'a', transition: 'unchanged_pass' },
        { id: 'b', transition: 'removed' },
      ],
    });
    comparisons.record('/w/c.eval.yaml', all);
    comparisons.record('/w/c.eval.yaml', onlyA);
    assert.equal(comparisons.get('/w/c.eval.yaml', 'a'), 'unchanged_pass');
    assert.equal(comparisons.get('/w/c.eval.yaml', 'b'), 'fixed');
    comparisons.record('/w/c.eval.yaml', undefined);
    assert.equal(comparisons.get('/w/c.eval.yaml', 'b'), undefined);
    assert.deepEqual(changed, ['/w/c.eval.yaml', '/w/c.eval.yaml', '/w/c.eval.yaml']);
  });

  it('reads only well-formed case entries of a comparison', () => {
    const read = comparisonOf({
      cases: [{ id: 'a', transition: 'regressed' }, { id: 'b', transition: 'worse' }, { id: 3 }, null, 'c'],
    });
    assert.deepEqual([...(read?.transitions ?? [])], [['a', 'regressed']]);
    assert.equal(comparisonOf({ scorers: [] }), undefined);
  });
});

describe('the regressions status bar item', () => {
  it('adds up several configs, each naming its regressed ids, and says so when none regressed', () => {
    const one = comparisonOf({ cases: [{ id: 'x', transition: 'regressed' }] });
    const two = comparisonOf({
      cases: [
        { id: 'y', transition: 'regressed' },
        { id: 'z', transition: 'regressed' },
      ],
    });
    const none = comparisonOf({ cases: [{ id: 'q', transition: 'unchanged_pass' }] });
    assert.ok(one !== undefined && two !== undefined && none !== undefined);
    const words = regressionStatusText([
      { label: 'a.eval.yaml', comparison: one },
      { label: 'b.eval.yaml', comparison: two },
    ]);
    assert.equal(words?.text, '▼ 3 regressed');
    assert.equal(
      words?.tooltip,
      '3 cases passed in the baseline, not in the last run:\na.eval.yaml: x\nb.eval.yaml: y, z\nClick to open the results.',
    );
    assert.deepEqual(regressionStatusText([{ label: 'a.eval.yaml', comparison: none }]), {
      text: '▼ 0 regressed',
      tooltip: 'No case that passed in the baseline failed in the last run.\nClick to open the results.',
      regressed: 0,
    });
  });
});

describe('Save as Baseline in Restricted Mode', () => {
  it('refuses to write through a symbolic link there, and only there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evallens-baseline-link-'));
    try {
      const outside = join(dir, 'outside.txt');
      writeFileSync(outside, 'keep me');
      const link = join(dir, 'a.baseline.json');
      symlinkSync(outside, link);
      assert.equal(
        await baselineWriteRefusal(link, false, 'a.baseline.json'),
        'a.baseline.json is a symbolic link; in Restricted Mode the baseline is not written through one (trust the workspace, or remove the link)',
      );
      assert.equal(await baselineWriteRefusal(link, true, 'a.baseline.json'), undefined);
      assert.equal(await baselineWriteRefusal(outside, false, 'outside.txt'), undefined);
      assert.equal(await baselineWriteRefusal(join(dir, 'missing.json'), false, 'missing.json'), undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
