import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Json } from '../../../core/case';
import { mcpComplianceCheck } from '../../../core/scorers/builtin/mcpComplianceCheck';
import { score, schemaErrors } from '../../support/scoring';

const check = (output: Json | undefined, options: { [key: string]: Json } = {}) =>
  score(mcpComplianceCheck, options, output === undefined ? {} : { output });

describe('mcp_compliance_check (EvalBench mcpcompliancecheck.py): P0 × 10 + P1 × 3 + P2 × 1', () => {
  it('weighs the severity counts: 1 × 10 + 2 × 3 + 4 × 1 = 20', async () => {
    const v = await check({ tool_name: 'RunQuery', severity_counts: { P0: 1, P1: 2, P2: 4 }, probe_error: null });
    assert.deepEqual([v.status, v.score], ['measured', 20]);
    assert.equal(v.reason, '20 weighted findings (P0 1, P1 2, P2 4)');
  });

  it('merges severity_weights over the defaults: 1 × 100 + 2 × 3 + 4 × 1 = 110; an unweighted severity counts 0', async () => {
    assert.equal(
      (await check({ severity_counts: { P0: 1, P1: 2, P2: 4, P3: 9 } }, { severity_weights: { P0: 100 } })).score,
      110,
    );
  });

  it('scores 0 without counts, and 0 for a row whose endpoint could not be probed', async () => {
    assert.equal((await check({ tool_name: 'x' })).score, 0);
    assert.equal((await check({ severity_counts: {} })).score, 0);
    const v = await check({
      is_aggregate: true,
      severity_counts: { P0: 3 },
      probe_error: 'list_tools timed out after 30s',
    });
    assert.deepEqual([v.status, v.score], ['measured', 0]);
  });

  it('is an error where EvalBench fails (a count that is not a number), unsupported without a row', async () => {
    assert.equal((await check({ severity_counts: { P0: 'two' } })).status, 'error');
    assert.equal((await check(undefined)).status, 'unsupported');
    assert.equal((await check([1, 2])).status, 'unsupported');
  });

  it('refuses a weight that is not a number', () => {
    assert.ok(schemaErrors(mcpComplianceCheck, { severity_weights: { P0: 'ten' } }).length > 0);
  });
});

describe("mcp_compliance_check on the rows EvalBench's MCP compliance check writes", () => {
  const rows = JSON.parse(
    readFileSync(join(__dirname, '..', '..', 'fixtures', 'evalbench', 'mcp-compliance', 'eval_outputs.json'), 'utf8'),
  ) as Json[];

  it('scores each row as EvalBench does', async () => {
    const scores: unknown[] = [];
    for (const row of rows) scores.push((await check(row)).score);
    // list_instances: no findings, 0; RunQuery: one P1, 3; the endpoint's aggregate: one P1 in all, 3;
    // the endpoint that timed out: 0.
    assert.deepEqual(scores, [0, 3, 3, 0]);
  });
});
