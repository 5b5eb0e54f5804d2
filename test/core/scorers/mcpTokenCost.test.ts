import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Json } from '../../../core/case';
import { mcpTokenCost } from '../../../core/scorers/builtin/mcpTokenCost';
import { score } from '../../support/scoring';

const cost = (output: Json | undefined) => score(mcpTokenCost, {}, output === undefined ? {} : { output });

describe('mcp_token_cost (EvalBench mcptokencost.py)', () => {
  it('scores a tool row by its approx_tokens', async () => {
    const v = await cost({ tool_name: 'RunQuery', is_aggregate: false, approx_tokens: 26, probe_error: null });
    assert.equal(v.status, 'measured');
    assert.equal(v.score, 26);
    assert.equal(v.reason, '26 tokens for tool RunQuery');
  });

  it('scores the aggregate row by avg_approx_tokens', async () => {
    const v = await cost({
      is_aggregate: true,
      tool_count: 2,
      total_approx_tokens: 83,
      avg_approx_tokens: 41,
      probe_error: null,
    });
    assert.equal(v.score, 41);
    assert.equal(v.reason, '41 tokens per tool on average across 2 tools (total 83)');
  });

  it('scores 0 for a row whose endpoint could not be probed, as EvalBench does', async () => {
    const v = await cost({ is_aggregate: true, avg_approx_tokens: 12, probe_error: 'connection refused' });
    assert.deepEqual([v.status, v.score], ['measured', 0]);
    assert.match(v.reason, /could not be probed \(connection refused\)/);
  });

  it('reads Python truthiness: an empty probe_error is no error, is_aggregate 1 is an aggregate; a missing figure is 0', async () => {
    assert.equal((await cost({ approx_tokens: 7, probe_error: '' })).score, 7);
    assert.equal((await cost({ is_aggregate: 1, avg_approx_tokens: 9, approx_tokens: 7 })).score, 9);
    assert.equal((await cost({ tool_name: 'x' })).score, 0);
    assert.equal((await cost({ approx_tokens: '12' })).score, 12, 'float("12") is 12.0');
  });

  it('is an error where float() fails in EvalBench (null, text that is no number)', async () => {
    assert.equal((await cost({ approx_tokens: null })).status, 'error');
    assert.equal((await cost({ approx_tokens: 'many' })).status, 'error');
  });

  it('is unsupported without a row', async () => {
    assert.equal((await cost(undefined)).status, 'unsupported');
    assert.equal((await cost('26')).status, 'unsupported');
  });
});

describe("mcp_token_cost on the rows EvalBench's MCP compliance check writes", () => {
  const rows = JSON.parse(
    readFileSync(join(__dirname, '..', '..', 'fixtures', 'evalbench', 'mcp-compliance', 'eval_outputs.json'), 'utf8'),
  ) as Json[];

  it('scores each row as EvalBench does', async () => {
    const scores: number[] = [];
    for (const row of rows) {
      const v = await cost(row);
      assert.equal(v.status, 'measured');
      scores.push(v.score ?? NaN);
    }
    // list_instances: a 229-character YAML // 4 = 57; RunQuery: 105 // 4 = 26; the endpoint's
    // aggregate: (57 + 26) // 2 = 41; the endpoint that timed out: 0.
    assert.deepEqual(scores, [57, 26, 41, 0]);
  });
});
