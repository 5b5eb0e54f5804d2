/**
 * configFamily is the one rule for which family a run config is of; the engine asks with the data,
 * the language server with the parsed top-level keys, and completion with the raw text.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { configFamily } from '../../../core/config/configFamily';
import { FAMILY_KEYS } from '../../../core/config/evalbenchKeys';

describe('configFamily', () => {
  it('is EvalBench for each family key, whichever form it is given in', () => {
    for (const key of FAMILY_KEYS) {
      assert.equal(configFamily({ [key]: 'x' }), 'evalbench', key);
      assert.equal(configFamily({ [key]: null }), 'evalbench', `${key}: empty still counts`);
      assert.equal(configFamily([key]), 'evalbench', key);
      assert.equal(configFamily(`description: d\n${key}:\n  a: 1\n`), 'evalbench', key);
      assert.equal(configFamily(`${key} :  x\n`), 'evalbench', `${key} with a space before the colon`);
    }
  });

  it('is EvalLens otherwise', () => {
    assert.equal(configFamily({ dataset: 'd.jsonl', scorers: {} }), 'evallens');
    assert.equal(configFamily({ dataset_config: undefined }), 'evallens');
    assert.equal(configFamily(['dataset', 'scorers']), 'evallens');
    assert.equal(configFamily('dataset: d.jsonl\nscorers:\n  exact_match: {}\n'), 'evallens');
  });

  it('reads only top-level keys of the text: not nested ones, comments or values', () => {
    assert.equal(configFamily('target:\n  dataset_config: x\n'), 'evallens');
    assert.equal(configFamily('# dataset_config: x\ndataset: d.jsonl\n'), 'evallens');
    assert.equal(configFamily('description: "orchestrator: x"\n'), 'evallens');
    assert.equal(configFamily('dataset_configs: x\n'), 'evallens');
  });
});
