import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Json } from '../../../core/case';
import type { ScorerVerdict } from '../../../core/result';
import { executionOrder } from '../../../core/scorers/builtin/executionOrder';
import {
  longestCommonSubsequence,
  longestCommonSubsequenceLength,
} from '../../../core/scorers/support/longestCommonSubsequence';
import { refusal, schemaErrors, score } from '../../support/scoring';
import { thresholdOffScale } from '../../../core/config/thresholdScale';
import { createEngineContext } from '../../../core/engineContext';

/** judgeval's own inputs: expected_output and actual_output as lists of tool names (no trace). */
function judge(options: { [key: string]: Json }, expected: Json, called: Json): Promise<ScorerVerdict> {
  return score(executionOrder, options, { expected, output: called });
}

const calls = (...names: string[]): Json => ({
  steps: names.map((name) => ({ type: 'tool_call', name, arguments: {} })),
});

describe('execution_order', () => {
  describe('set match (default)', () => {
    it('scores |set(called) ∩ set(expected)| / len(expected), any order, extra calls allowed', async () => {
      const v = await judge({}, ['a', 'b', 'c'], ['c', 'x', 'a']);
      assert.equal(v.status, 'pass');
      assert.equal(v.score, 2 / 3);
      assert.deepEqual(v.details?.['matched'], ['a', 'c']);
      assert.match(
        v.reason,
        /^score 0\.6667 meets the pass threshold \(at least 0\.5\): set match: 2 distinct expected tools were called, over 3 expected entries$/,
      );
    });

    it('keeps duplicates of expected in the denominator: expected [a, a], called [a] scores 0.5', async () => {
      const v = await judge({}, ['a', 'a'], ['a']);
      assert.equal(v.score, 0.5);
      assert.match(v.reason, /duplicates kept in the denominator/);
      assert.equal((await judge({}, ['a', 'a'], ['a', 'a'])).score, 0.5, 'such a case never reaches 1');
    });

    it("the judgeval docs' example: expected [DBQuery, GoogleSearch], called [GoogleSearch, Perplexity] scores 0.5 and fails threshold 0.8", async () => {
      const v = await judge({ threshold: 0.8 }, ['DBQuery', 'GoogleSearch'], ['GoogleSearch', 'Perplexity']);
      assert.equal(v.score, 0.5);
      assert.equal(v.status, 'fail');
    });

    it('scores 0 when nothing expected was called', async () => {
      const v = await judge({}, ['a'], ['b']);
      assert.equal(v.score, 0);
      assert.equal(v.status, 'fail');
    });
  });

  describe('ordering match (should_consider_ordering)', () => {
    it('scores len(LCS(expected, called)) / len(expected)', async () => {
      // LCS of [a, b, c, d] and [b, a, c, x, d] is [a, c, d] (or [b, c, d]): 3 / 4.
      const v = await judge({ should_consider_ordering: true }, ['a', 'b', 'c', 'd'], ['b', 'a', 'c', 'x', 'd']);
      assert.equal(v.score, 0.75);
      assert.equal((v.details?.['common_subsequence'] as string[]).length, 3);
      assert.match(
        v.reason,
        /ordering match: the longest common subsequence of the expected and called lists has 3 of the 4 expected tools \(5 tools called\)/,
      );
    });

    it('is a ratio, not 1/0 (judgeval code, not its docs)', async () => {
      const v = await judge({ should_consider_ordering: true }, ['a', 'b'], ['b', 'a']);
      assert.equal(v.score, 0.5);
      assert.equal(v.status, 'pass');
    });

    it('counts order where set match does not', async () => {
      assert.equal((await judge({}, ['a', 'b', 'c'], ['c', 'b', 'a'])).score, 1);
      assert.equal((await judge({ should_consider_ordering: true }, ['a', 'b', 'c'], ['c', 'b', 'a'])).score, 1 / 3);
    });

    it('duplicates: expected [a, a] with called [a] scores 0.5; with called [a, x, a] scores 1', async () => {
      assert.equal((await judge({ should_consider_ordering: true }, ['a', 'a'], ['a'])).score, 0.5);
      assert.equal((await judge({ should_consider_ordering: true }, ['a', 'a'], ['a', 'x', 'a'])).score, 1);
    });
  });

  describe('exact match (should_exact_match)', () => {
    it('scores 1 when the lists are equal item by item, else 0', async () => {
      assert.equal((await judge({ should_exact_match: true }, ['a', 'b'], ['a', 'b'])).score, 1);
      const v = await judge({ should_exact_match: true }, ['a', 'b', 'c'], ['a', 'c', 'b', 'd']);
      assert.equal(v.score, 0);
      assert.equal(v.status, 'fail');
      assert.match(
        v.reason,
        /exact match: the called list \(4 tools\) differs from the expected list \(3 tools\) at position 2/,
      );
    });

    it('an extra call at the end differs (length counts)', async () => {
      const v = await judge({ should_exact_match: true }, ['a'], ['a', 'a']);
      assert.equal(v.score, 0);
      assert.match(v.reason, /at position 2/);
    });

    it('takes precedence over should_consider_ordering', async () => {
      // Ordering alone would give 2/3 and pass; exact match gives 0.
      const v = await judge({ should_exact_match: true, should_consider_ordering: true }, ['a', 'b', 'c'], ['a', 'c']);
      assert.equal(v.score, 0);
      assert.equal(v.details?.['mode'], 'exact');
    });
  });

  describe('threshold and strict_mode', () => {
    it('passes when score >= threshold (default 0.5; ties pass)', async () => {
      assert.equal(executionOrder.defaultThreshold, 0.5);
      assert.equal((await judge({}, ['a', 'b'], ['a'])).status, 'pass');
      const v = await judge({ threshold: 0.51 }, ['a', 'b'], ['a']);
      assert.equal(v.status, 'fail');
      assert.match(v.reason, /misses the pass threshold \(at least 0\.51\)/);
    });

    it('refuses a threshold outside [0, 1] at load', () => {
      assert.match(thresholdOffScale(executionOrder, 1.2) ?? '', /between 0 and 1/);
      assert.match(thresholdOffScale(executionOrder, -0.1) ?? '', /between 0 and 1/);
    });

    it('strict_mode: a score below 1 becomes 0 and the threshold becomes 1', async () => {
      const v = await judge({ strict_mode: true }, ['a', 'b', 'c'], ['a', 'b']);
      assert.equal(v.score, 0);
      assert.equal(v.status, 'fail');
      assert.equal(v.details?.['unstrict_score'], 2 / 3);
      assert.equal(v.details?.['threshold'], 1);
      assert.match(v.reason, /\(strict_mode: 0\.6667 counts as 0\)/);
      const full = await judge({ strict_mode: true, should_consider_ordering: true }, ['a', 'b'], ['a', 'x', 'b']);
      assert.equal(full.score, 1);
      assert.equal(full.status, 'pass');
    });

    it('strict_mode refuses a contradicting threshold or lower_is_better; threshold 1 is accepted', () => {
      assert.deepEqual(refusal(executionOrder, { strict_mode: true, threshold: 0.8 })[0]?.path, ['threshold']);
      assert.deepEqual(refusal(executionOrder, { strict_mode: true, lower_is_better: true })[0]?.path, [
        'lower_is_better',
      ]);
      assert.equal(
        executionOrder.create(
          {
            strict_mode: true,
            threshold: 1,
            should_exact_match: false,
            should_consider_ordering: false,
            source: 'auto',
          },
          { engine: createEngineContext(), configDir: '.', timeoutMs: 30_000, env: {} },
        ).ok,
        true,
      );
    });
  });

  describe('empty expected list', () => {
    it('scores 1 when nothing was called either', async () => {
      for (const options of [{}, { should_consider_ordering: true }, { should_exact_match: true }]) {
        const v = await judge(options, [], []);
        assert.equal(v.status, 'pass', JSON.stringify(options));
        assert.equal(v.score, 1);
      }
    });

    it("is inconclusive in every mode when tools were called (the issue's rule; judgeval divides by zero)", async () => {
      for (const options of [{}, { should_consider_ordering: true }, { should_exact_match: true }]) {
        const v = await judge(options, [], ['a']);
        assert.equal(v.status, 'inconclusive', JSON.stringify(options));
        assert.equal(v.score, undefined);
      }
    });
  });

  describe('where the lists come from', () => {
    it('reads the called tools from the trace, in start order, failed calls and repeats included', async () => {
      const trace = {
        steps: [
          { type: 'tool_call', name: 'b', arguments: {}, start_ms: 20 },
          { type: 'tool_call', name: 'a', arguments: {}, start_ms: 10, error: 'boom' },
          { type: 'tool_call', name: 'b', arguments: {}, start_ms: 30 },
        ],
      };
      const v = await score(executionOrder, { should_exact_match: true }, { expected: ['a', 'b', 'b'], trace });
      assert.equal(v.score, 1);
      assert.equal(v.details?.['called_from'], 'trace');
    });

    it('auto: the trace wins over an output list when the case has both', async () => {
      const v = await score(
        executionOrder,
        { should_exact_match: true },
        { expected: ['a'], output: ['b'], trace: calls('a') },
      );
      assert.equal(v.score, 1);
    });

    it('source: output forces the output list; source: trace forces the trace', async () => {
      const both = { expected: ['a'], output: ['b'], trace: calls('a') };
      assert.equal((await score(executionOrder, { source: 'output' }, both)).score, 0);
      const v = await score(executionOrder, { source: 'trace' }, { expected: ['a'], output: ['a'] });
      assert.equal(v.status, 'unsupported');
    });

    it('reads canonical tool names from a trace that is a list of tool names', async () => {
      const v = await score(
        executionOrder,
        { should_exact_match: true },
        { expected: ['search', 'fetch'], trace: ['search', 'fetch'] },
      );
      assert.equal(v.score, 1);
    });

    it('reads expected.tools when expected is an object', async () => {
      const v = await judge({}, { tools: ['a', 'b'] }, ['a', 'b']);
      assert.equal(v.score, 1);
      assert.equal(v.details?.['expected_from'], 'expected.tools');
    });

    it('a missing or wrong expected value is an error, never a conversion', async () => {
      assert.equal((await score(executionOrder, {}, { output: ['a'] })).status, 'error');
      const text = await judge({}, 'a,b', ['a']);
      assert.equal(text.status, 'error');
      assert.match(
        text.reason,
        /`expected` is a string of 3 characters, not a list of tool names; nothing is converted/,
      );
      const item = await judge({}, ['a', 2], ['a']);
      assert.match(item.reason, /`expected` has item 2 that is a number, not a list of tool names/);
      assert.equal((await judge({}, { steps: ['a'] }, ['a'])).status, 'error');
    });

    it('an output that is not a list of tool names fails naming its kind', async () => {
      const v = await judge({}, ['a'], 'a then b');
      assert.equal(v.status, 'fail');
      assert.match(
        v.reason,
        /the case has no trace, and the output is a string of 8 characters, not a list of tool names; nothing is converted/,
      );
    });

    it('a case with neither trace nor output is unsupported; an unreadable trace is unsupported', async () => {
      assert.equal((await score(executionOrder, {}, { expected: ['a'] })).status, 'unsupported');
      const v = await score(executionOrder, {}, { expected: ['a'], output: ['a'], trace: { latency_ms: 4 } });
      assert.equal(v.status, 'unsupported');
      assert.match(v.reason, /records no steps/);
    });

    it('names are compared exactly (case matters)', async () => {
      assert.equal((await judge({}, ['Search'], ['search'])).score, 0);
    });

    it('reasons give counts and positions, never tool names from the case', async () => {
      const v = await judge({ should_exact_match: true }, ['internal_secret_tool'], ['other_private_tool']);
      assert.ok(!/secret|private/.test(v.reason), v.reason);
      assert.deepEqual(v.details?.['called'], ['other_private_tool']);
    });
  });

  describe('schema', () => {
    it('takes the three judgeval flags and source; nothing else', () => {
      assert.notDeepEqual(schemaErrors(executionOrder, { should_exact_match: 'yes' }), []);
      assert.notDeepEqual(schemaErrors(executionOrder, { source: 'input' }), []);
      assert.notDeepEqual(schemaErrors(executionOrder, { ordering: true }), []);
      for (const example of executionOrder.schema['examples'] as { [key: string]: Json }[])
        assert.deepEqual(schemaErrors(executionOrder, example), [], JSON.stringify(example));
    });
  });
});

describe('longestCommonSubsequence', () => {
  it('finds the longest common subsequence of two lists', () => {
    assert.deepEqual(longestCommonSubsequence(['a', 'b', 'c', 'd', 'e'], ['x', 'b', 'd', 'y', 'e']), ['b', 'd', 'e']);
    assert.deepEqual(longestCommonSubsequence(['a', 'b'], ['b', 'a']).length, 1);
    assert.deepEqual(longestCommonSubsequence([], ['a']), []);
    assert.deepEqual(longestCommonSubsequence(['a', 'a', 'a'], ['a', 'a']), ['a', 'a']);
  });

  it('agrees with the length-only version, whichever list is longer', () => {
    const lists: string[][] = [[], ['a'], ['a', 'b', 'a'], ['b', 'a', 'b', 'c'], ['c', 'a', 'b', 'a', 'c', 'c'], ['x']];
    for (const a of lists) {
      for (const b of lists) {
        const full = longestCommonSubsequence(a, b);
        assert.equal(longestCommonSubsequenceLength(a, b), full.length, `${a.join('')} / ${b.join('')}`);
        assert.equal(longestCommonSubsequenceLength(b, a), full.length);
      }
    }
  });

  it('keeps the argument order of a custom equality even when the lists swap', () => {
    const seen: string[] = [];
    longestCommonSubsequenceLength([1], [2, 3], (x: number, y: number) => {
      seen.push(`${x}<${y}`);
      return x === y;
    });
    assert.ok(
      seen.every((pair) => pair.startsWith('1<')),
      seen.join(' '),
    );
  });
});

describe('execution_order bounds', () => {
  it('refuses an ordering match over lists longer than 2,000 tools instead of building a table of their product', async () => {
    const many = Array.from({ length: 2_001 }, (_, i) => `t${i}`);
    const v = await judge({ should_consider_ordering: true }, many, ['t1']);
    assert.equal(v.status, 'error');
    assert.match(v.reason, /the expected list has 2001 tools, over the 2000 the ordering match compares/);
    const w = await judge({ should_consider_ordering: true }, ['t1'], many);
    assert.match(w.reason, /the called list has 2001 tools/);
    // The set mode is linear and has no such cap.
    assert.equal((await judge({}, many, many)).status, 'pass');
    assert.equal(
      (await judge({ should_consider_ordering: true }, many.slice(0, 2_000), many.slice(0, 2_000))).status,
      'pass',
    );
  });
});
