import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import type { Json } from '../../../core/case';
import { mcpToolMetrics } from '../../../core/scorers/builtin/mcpToolMetrics';
import { score } from '../../support/scoring';

/** A tool as EvalBench's mcp_tool_metrics_test.py builds it: Tool(name, description, inputSchema={"type": "object"}). */
const tool = (name: string, description: string): Json => ({ name, description, inputSchema: { type: 'object' } });
// Dumped as EvalBench measures it, {"name":"a","description":"A.","inputSchema":{"type":"object"}} is 63 characters.

const metrics = (output: Json | undefined, options: { [key: string]: Json } = {}, metadata?: Json) =>
  score(mcpToolMetrics, options, {
    ...(output === undefined ? {} : { output }),
    ...(metadata === undefined ? {} : { metadata }),
  });

describe('mcp_tool_metrics (EvalBench mcp_tool_metrics_test.py cases)', () => {
  it('counts the tools: 3', async () => {
    const v = await metrics([tool('a', 'A.'), tool('b', 'B.'), tool('c', 'C.')]);
    assert.equal(v.details?.['total_tools'], 3);
    // 3 × 63 = 189 characters / 4 = 47.25 → 47 tokens.
    assert.equal(v.details?.['estimated_tokens'], 47);
  });

  it('an empty listing: 0 tools, 0 tokens, no percentage, and with a budget 0.0 %', async () => {
    const v = await metrics({ tools: [] });
    assert.deepEqual(
      [v.details?.['total_tools'], v.details?.['estimated_tokens'], v.details?.['token_budget_used_percent']],
      [0, 0, null],
    );
    assert.equal((await metrics([], { token_budget: 1000 })).details?.['token_budget_used_percent'], 0);
  });

  it('more tools, more tokens: one tool 63/4 = 15.75 → 16, two 126/4 = 31.5 → 32', async () => {
    assert.equal((await metrics([tool('a', 'A.')])).details?.['estimated_tokens'], 16);
    assert.equal((await metrics([tool('a', 'A.'), tool('b', 'B.')])).details?.['estimated_tokens'], 32);
  });

  it('no budget or a zero budget gives no percentage and passes with 100', async () => {
    for (const options of [{}, { token_budget: 0 }]) {
      const v = await metrics([tool('a', 'A.')], options);
      assert.equal(v.status, 'pass');
      assert.equal(v.score, 100);
      assert.equal(v.details?.['token_budget_used_percent'], null);
    }
  });

  it("the percentage is round(estimated / budget × 100, 2): 16 / 1000 → 1.6 %, and the case's budget wins: 16 / 2000 → 0.8 %", async () => {
    assert.equal(
      (await metrics([tool('a', 'A.')], { token_budget: 1000 })).details?.['token_budget_used_percent'],
      1.6,
    );
    assert.equal(
      (await metrics([tool('a', 'A.')], { token_budget: 1000 }, { token_budget: 2000 })).details?.[
        'token_budget_used_percent'
      ],
      0.8,
    );
    assert.equal(
      (await metrics([tool('a', 'A.')], { token_budget: 1000 }, { token_budget: null })).details?.[
        'token_budget_used_percent'
      ],
      1.6,
      "a null endpoint budget leaves the scorer's",
    );
  });
});

describe("mcp_tool_metrics: Python semantics of EvalBench's formula", () => {
  it('rounds halfway token estimates to even: a 66-character tool is 16.5 → 16', async () => {
    assert.equal((await metrics([tool('a', 'A.xyz')])).details?.['estimated_tokens'], 16);
  });

  it('rounds a halfway percentage to even: 16 / 12800 × 100 = 0.125 → 0.12 (toFixed would say 0.13)', async () => {
    assert.equal(
      (await metrics([tool('a', 'A.')], { token_budget: 12800 })).details?.['token_budget_used_percent'],
      0.12,
    );
  });

  it('counts characters as Python does: "Ü" and "🎉" are one each, so 66 characters → 16.5 → 16 tokens', async () => {
    // {"name":"a","description":"A.Ü🎉x","inputSchema":{"type":"object"}}: 63 + 3 = 66 code points (67 UTF-16 units).
    assert.equal((await metrics([tool('a', 'A.Ü🎉x')])).details?.['estimated_tokens'], 16);
    assert.equal((await metrics([tool('a', 'A.Ü🎉xy')])).details?.['estimated_tokens'], 17, '67 / 4 = 16.75 → 17');
  });

  it('leaves out null fields of the tool and of its annotations, and keeps nulls inside inputSchema', async () => {
    const withNulls = {
      name: 'a',
      title: null,
      description: 'A.',
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: null },
      _meta: null,
    };
    // {"name":"a","description":"A.","inputSchema":{"type":"object"},"annotations":{}}: 63 + 17 = 80 → 20.
    assert.equal((await metrics([withNulls])).details?.['characters'], 80);
    const nested = { name: 'a', description: 'A.', inputSchema: { type: 'object', default: null } };
    assert.equal((await metrics([nested])).details?.['characters'], 63 + ',"default":null'.length);
  });

  it('refuses a listing the MCP SDK would refuse, and is unsupported without output', async () => {
    assert.equal((await metrics([{ name: 'a' }])).status, 'error');
    assert.equal((await metrics('tools')).status, 'error');
    assert.equal((await metrics(undefined)).status, 'unsupported');
  });
});

describe("mcp_tool_metrics on a tools spec in EvalBench's `tools_source: file` shape", () => {
  const spec = parse(
    readFileSync(join(__dirname, '..', '..', 'fixtures', 'evalbench', 'mcp_readability', 'sample_tools.yaml'), 'utf8'),
  ) as Json;
  // Dumped as the MCP SDK's Tool model: list_instances 319 characters (its annotations keep only
  // readOnlyHint, and "—" is one character), RunQuery 128 (no outputSchema; the null default inside
  // inputSchema stays), delete_table 156: 603 characters / 4 = 150.75 → 151 tokens.
  it('measures 3 tools, 603 characters, 151 tokens', async () => {
    const v = await metrics(spec, { token_budget: 200000 });
    assert.equal(v.status, 'pass');
    assert.deepEqual(v.details, {
      total_tools: 3,
      estimated_tokens: 151,
      token_budget_used_percent: 0.08,
      characters: 603,
      token_budget: 200000,
    });
    assert.equal(v.reason, '3 tools, about 151 tokens: 0.08% of the 200000 token budget');
  });

  it('passes at exactly the budget (151 / 151 = 100 %) and fails over it (151 / 150 = 100.67 %)', async () => {
    const at = await metrics(spec, { token_budget: 151 });
    assert.deepEqual([at.status, at.score, at.details?.['token_budget_used_percent']], ['pass', 100, 100]);
    const over = await metrics(spec, {}, { token_budget: 150 });
    assert.deepEqual([over.status, over.score, over.details?.['token_budget_used_percent']], ['fail', 0, 100.67]);
  });
});
