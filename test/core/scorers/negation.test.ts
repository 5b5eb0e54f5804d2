import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRunConfig } from '../../../core/config/parseRunConfig';
import { notContains } from '../../../core/scorers/builtin/notContains';
import { ScorerRegistry } from '../../../core/scorers/registry';
import type { ScorerDefinition } from '../../../core/scorers/scorer';
import { score } from '../../support/scoring';

const registry = new ScorerRegistry();

function negation(key: string): ScorerDefinition {
  const definition = registry.get(key);
  assert.ok(definition !== undefined, `${key} should select a scorer`);
  return definition;
}

describe("not- / not_ negates a boolean-verdict scorer (promptfoo's not- prefix)", () => {
  it('not-contains fails where contains passes, and passes where it fails, with score 1 − score', async () => {
    const found = await score(negation('not-contains'), { value: 'refund' }, { output: 'your refund is on its way' });
    assert.equal(found.status, 'fail');
    assert.equal(found.score, 0);
    assert.match(
      found.reason,
      /^contains passed, so its negation fails: the output \(.*\) contains the value at character 6$/,
    );
    const missing = await score(negation('not-contains'), { values: ['a', 'b'], match: 'all' }, { output: 'a only' });
    assert.equal(missing.status, 'pass');
    assert.equal(missing.score, 1);
    assert.match(missing.reason, /^contains failed, so its negation passes: value 2 of 2 is missing/);
  });

  it('takes the snake-case spelling too, for any boolean-verdict scorer', async () => {
    const v = await score(negation('not_regex'), { pattern: '^\\d+$' }, { output: 'abc' });
    assert.equal(v.status, 'pass');
    assert.equal((await score(negation('not-exact_match'), {}, { output: 'x', expected: 'x' })).status, 'fail');
  });

  it('never turns what cannot decide into a pass: an error stays an error', async () => {
    const v = await score(negation('not-contains'), {}, { output: 'text' });
    assert.equal(v.status, 'error');
    assert.match(v.reason, /expected value/);
  });

  it('leaves a scorer registered under the full key alone: not_contains is its own scorer', () => {
    assert.equal(registry.get('not_contains'), notContains);
    assert.notEqual(registry.get('not-contains'), notContains);
  });

  it('is not offered for scorers that score rather than decide, nor for unknown keys', () => {
    for (const key of [
      'not-edit_similarity',
      'not-mcp_token_cost',
      'not-set_match',
      'not-exact_match_consistency',
      'not-nothing',
      'not-',
    ]) {
      assert.equal(registry.get(key), undefined, key);
    }
  });

  it("loads in a run config, in both forms, and its options are checked against the base scorer's schema", () => {
    const mapping = parseRunConfig(
      'cases: [{id: a, output: x}]\nscorers:\n  not-contains: {value: sorry}\n',
      '/tmp/negation/c.eval.yaml',
      {},
    );
    assert.deepEqual(
      mapping.problems.filter((p) => p.severity === 'error'),
      [],
    );
    assert.equal(mapping.config?.scorers[0]?.name, 'not-contains');
    const list = parseRunConfig(
      'cases: [{id: a, output: x}]\nscorers:\n  - {type: not_regex, pattern: "^x$"}\n',
      '/tmp/negation/c.eval.yaml',
      {},
    );
    assert.deepEqual(
      list.problems.filter((p) => p.severity === 'error'),
      [],
    );
    const bad = parseRunConfig(
      'cases: [{id: a, output: x}]\nscorers:\n  not-contains: {value: sorry, mach: any}\n',
      '/tmp/negation/c.eval.yaml',
      {},
    );
    assert.equal(bad.problems.filter((p) => p.severity === 'error').length, 1, JSON.stringify(bad.problems));
  });
});
