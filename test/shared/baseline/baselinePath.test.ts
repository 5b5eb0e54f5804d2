import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { baselineFileOf } from '../../../shared/baseline/baselinePath';

describe('baselineFileOf', () => {
  it('puts <name>.baseline.json beside the config, whatever its YAML extension', () => {
    assert.equal(
      baselineFileOf(join('/w', 'evals', 'refunds.eval.yaml')),
      join('/w', 'evals', 'refunds.baseline.json'),
    );
    assert.equal(baselineFileOf(join('/w', 'refunds.eval.yml')), join('/w', 'refunds.baseline.json'));
    assert.equal(baselineFileOf(join('/w', 'Refunds.EVAL.YAML')), join('/w', 'Refunds.baseline.json'));
    assert.equal(baselineFileOf(join('/w', 'plain.yaml')), join('/w', 'plain.baseline.json'));
  });
});
