import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Json } from '../../../core/case';
import { readJson } from '../../../core/dataset/json';
import { nonFinalOutputTokens } from '../../../core/scorers/builtin/nonFinalOutputTokens';
import { located, readAll } from '../../support/datasetRecords';
import { score } from '../../support/scoring';

/** One EvalBench history turn: the agent JSON carries the output tokens per model and the reply. */
function turn(candidates: number | readonly number[], response?: Json): Json {
  const models = Object.fromEntries(
    (Array.isArray(candidates) ? candidates : [candidates]).map((c, i) => [
      `model-${i}`,
      { tokens: { candidates: c } },
    ]),
  );
  return {
    user: 'hi',
    agent: JSON.stringify(response === undefined ? { stats: { models } } : { stats: { models }, response }),
  };
}

const measure = (history: Json) => score(nonFinalOutputTokens, {}, { trace: { conversation_history: history } });

// EvalBench's tokenscorers_test.py: per turn max(0, candidates − round(len(response) / 4)).
describe('non_final_output_tokens (EvalBench tokenscorers_test.py cases)', () => {
  it('subtracts the reply estimate: 200 − 400/4 = 100', async () => {
    const v = await measure([turn(200, 'x'.repeat(400))]);
    assert.equal(v.status, 'measured');
    assert.equal(v.score, 100);
    assert.equal(v.reason, '100 non-final output tokens over 1 turn');
  });

  it('clamps a turn at 0 when the estimate exceeds the output: max(0, 50 − 800/4) = 0', async () => {
    const v = await measure([turn(50, 'y'.repeat(800))]);
    assert.equal(v.score, 0);
  });

  it('sums over turns: (200 − 100) + (300 − 10) = 390', async () => {
    const v = await measure([turn(200, 'x'.repeat(400)), turn(300, 'z'.repeat(40))]);
    assert.equal(v.score, 390);
    assert.deepEqual(v.details?.['per_turn'], [100, 290]);
  });

  it('keeps the whole output when the turn has no reply: 200', async () => {
    assert.equal((await measure([turn(200)])).score, 200);
  });

  it('scores an empty list of turns 0', async () => {
    const v = await measure([]);
    assert.equal(v.status, 'measured');
    assert.equal(v.score, 0);
  });
});

describe("non_final_output_tokens: Python semantics of EvalBench's formula", () => {
  it('rounds halfway estimates to even as Python does: 10 chars = 2.5 → 2, 6 chars = 1.5 → 2, 2 chars = 0.5 → 0', async () => {
    assert.equal((await measure([turn(100, 'a'.repeat(10))])).score, 98);
    assert.equal((await measure([turn(100, 'a'.repeat(6))])).score, 98);
    assert.equal((await measure([turn(100, 'ab')])).score, 100);
  });

  it('counts characters as code points: four emoji are 4 characters (1 token), not 8 UTF-16 units: 50 − 1 = 49', async () => {
    assert.equal((await measure([turn(50, '🎉🎉🎉🎉')])).score, 49);
  });

  it('sums the output over the models of a turn before subtracting: (120 + 80) − 100 = 100', async () => {
    assert.equal((await measure([turn([120, 80], 'x'.repeat(400))])).score, 100);
  });

  it('takes len() of a non-text reply as Python does: a list of 8 items is 8 (2 tokens), an object of 4 keys is 4 (1 token), null is 0', async () => {
    assert.equal((await measure([turn(10, [1, 2, 3, 4, 5, 6, 7, 8])])).score, 8);
    assert.equal((await measure([turn(10, { a: 1, b: 2, c: 3, d: 4 })])).score, 9);
    assert.equal((await measure([turn(10, null)])).score, 10);
  });

  it("is an error for a reply Python has no len() of (true, a non-zero number), where EvalBench's scorer fails", async () => {
    const v = await measure([turn(10, 42)]);
    assert.equal(v.status, 'error');
    assert.match(v.reason, /turn 1 records a reply that is 42, not text/);
    assert.equal((await measure([turn(10, 0)])).score, 10, 'a falsy reply is "" in EvalBench');
  });

  it('adds 0 for a turn whose agent reply is not JSON, and says so', async () => {
    const v = await measure([turn(200, 'x'.repeat(400)), { user: 'again', agent: 'Error: 429 RESOURCE_EXHAUSTED' }]);
    assert.equal(v.score, 100);
    assert.equal(v.details?.['skipped_turns'], 1);
    assert.match(v.reason, /1 of them could not be read/);
  });

  it('is unsupported without a conversation', async () => {
    const v = await score(nonFinalOutputTokens, {}, {});
    assert.equal(v.status, 'unsupported');
  });

  it("reads a native trace: the reply is the turn's assistant messages", async () => {
    const trace: Json = {
      steps: [
        { type: 'message', role: 'user', content: 'q', turn: 0 },
        { type: 'message', role: 'assistant', content: 'x'.repeat(40), turn: 0 },
      ],
      turns: [{ tokens: { candidates: 30 } }],
    };
    assert.equal((await score(nonFinalOutputTokens, {}, { trace })).score, 20);
  });
});

describe('non_final_output_tokens on an EvalBench agent evalset with recorded conversations', () => {
  const file = join(__dirname, '..', '..', 'fixtures', 'evalbench', 'recordings', 'non-final-output.json');

  it('scores each scenario as EvalBench does', async () => {
    const records = await readAll(readJson, { path: file });
    const scores: { [id: string]: unknown } = {};
    for (const record of records) {
      const { case: evalCase } = located(record);
      const v = await score(nonFinalOutputTokens, {}, evalCase);
      scores[evalCase.id] = v.status === 'measured' ? v.score : v.status;
    }
    assert.deepEqual(scores, {
      // Turn 1: 312 + 40 = 352 output tokens, a 122-character reply = 30.5 → 30 (to even): 322.
      // Turn 2: "Error: 429 RESOURCE_EXHAUSTED" is not JSON: 0. Turn 3: 95 − 500/4 = −30 → 0.
      'verbose-table': 322,
      // 150 output tokens, "1,204 rows" = 10 characters = 2.5 → 2: 148.
      'terse-reply': 148,
      // 50 output tokens, four emoji = 4 characters = 1 token: 49.
      'emoji-reply': 49,
      // No conversation recorded: EvalLens reports unsupported where EvalBench says 0.
      'no-history': 'unsupported',
    });
  });
});
