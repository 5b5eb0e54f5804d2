import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Json } from '../../../core/case';
import { trajectoryMatcher } from '../../../core/scorers/builtin/trajectoryMatcher';
import { looksCanonicalMcp } from '../../../core/trace/toolNames';
import {
  coverage,
  jaccard,
  listEditDistance,
  listEditSimilarity,
  setOverlap,
} from '../../../core/scorers/support/listDistance';
import { longestCommonSubsequenceLength as longestCommonSubsequence } from '../../../core/scorers/support/longestCommonSubsequence';
import { score } from '../../support/scoring';
import { thresholdOffScale } from '../../../core/config/thresholdScale';
import { createEngineContext } from '../../../core/engineContext';

/** A trace in the native format with one tool_call step per name. */
function calls(...names: string[]): Json {
  return { steps: names.map((name) => ({ type: 'tool_call', name })) };
}

// Expected numbers are EvalBench's formulas worked by hand (and checked with Python's floats):
// Jaccard = |E ∩ A| / |E ∪ A| × 100; ordered = max(0, 1 − lev / max(len)) × 100.
describe('trajectory_matcher', () => {
  it('scores Jaccard on sets by default: 2 shared of 4 distinct tools is 50, and says so with counts', async () => {
    const v = await score(
      trajectoryMatcher,
      {},
      { expected: ['a__x', 'b__y', 'c__z'], trace: calls('a__x', 'b__y', 'd__w') },
    );
    assert.equal(v.status, 'fail');
    assert.equal(v.score, 50);
    assert.equal(v.reason, '2 of 3 expected tools were called; 1 unexpected (Jaccard 50)');
    assert.deepEqual(v.details?.['missing'], ['c__z']);
    assert.deepEqual(v.details?.['unexpected'], ['d__w']);
    assert.equal(v.details?.['rule'], 'jaccard');
  });

  it('passes at exactly 100: the same tools in another order', async () => {
    const v = await score(
      trajectoryMatcher,
      {},
      { expected: ['a__x', 'b__y', 'c__z'], trace: calls('c__z', 'a__x', 'b__y') },
    );
    assert.equal(v.status, 'pass');
    assert.equal(v.score, 100);
  });

  it('gives 1/3 × 100 for one shared tool of three distinct ones (EvalBench float: 33.33333333333333)', async () => {
    const v = await score(trajectoryMatcher, {}, { expected: ['a__x', 'b__y'], trace: calls('a__x', 'c__z') });
    assert.equal(v.score, 33.33333333333333);
    assert.equal(v.status, 'fail');
  });

  it('lets duplicates vanish in Jaccard but counts them with enforce_order', async () => {
    const testCase = { expected: ['a__x', 'b__y'], trace: calls('a__x', 'a__x', 'b__y', 'b__y') };
    assert.equal((await score(trajectoryMatcher, {}, testCase)).score, 100);
    // lev([a,b], [a,a,b,b]) = 2 insertions; 1 − 2/4 = 0.5.
    const ordered = await score(trajectoryMatcher, { enforce_order: true }, testCase);
    assert.equal(ordered.score, 50);
    assert.equal(ordered.status, 'fail');
    assert.equal(ordered.details?.['distance'], 2);
    assert.equal(ordered.details?.['longest'], 4);
  });

  it('with enforce_order, a swap costs two substitutions: 1 − 2/3', async () => {
    const v = await score(
      trajectoryMatcher,
      { enforce_order: true },
      { expected: ['a__x', 'b__y', 'c__z'], trace: calls('b__y', 'a__x', 'c__z') },
    );
    assert.equal(v.score, 33.333333333333336);
    assert.equal(v.reason, 'the 3 tool calls are 2 edits from the 3 expected, in order (Levenshtein similarity 33.33)');
  });

  it('with enforce_order, one missing call is one deletion: 1 − 1/3', async () => {
    const v = await score(
      trajectoryMatcher,
      { enforce_order: true },
      { expected: ['a__x', 'b__y', 'c__z'], trace: calls('a__x', 'c__z') },
    );
    assert.equal(v.score, 66.66666666666667);
  });

  it('with enforce_order, the same order passes and no call at all scores 0', async () => {
    const expected = ['a__x', 'b__y', 'a__x'];
    assert.equal(
      (await score(trajectoryMatcher, { enforce_order: true }, { expected, trace: calls('a__x', 'b__y', 'a__x') }))
        .status,
      'pass',
    );
    const none = await score(trajectoryMatcher, { enforce_order: true }, { expected, trace: calls() });
    assert.equal(none.score, 0);
    assert.equal(none.status, 'fail');
  });

  it('filters native tools from both sides by default: read_file, __x and x__ go, x__y__z stays', async () => {
    const testCase = {
      expected: ['read_file', 'a__x', '__x', 'x__', 'x__y__z'],
      trace: calls('x__y__z', 'a__x', 'read_file', 'Bash'),
    };
    const v = await score(trajectoryMatcher, {}, testCase);
    assert.equal(v.status, 'pass');
    assert.equal(v.score, 100);
    assert.deepEqual(v.details?.['native_tools_dropped'], {
      expected: ['read_file', '__x', 'x__'],
      actual: ['read_file', 'Bash'],
    });
    assert.match(v.reason, /5 native tool names left out \(filter_native_tools\)/);
    // Unfiltered: {read_file, a__x, __x, x__, x__y__z} against {x__y__z, a__x, read_file, Bash}: 3 shared of 6.
    const unfiltered = await score(trajectoryMatcher, { filter_native_tools: false }, testCase);
    assert.equal(unfiltered.score, 50);
    assert.equal(unfiltered.details?.['native_tools_dropped'], undefined);
  });

  it('scores 100 when the filter empties both lists, and 0 for the same lists unfiltered', async () => {
    const testCase = { expected: ['read_file'], trace: calls('Bash', 'Read') };
    const v = await score(trajectoryMatcher, {}, testCase);
    assert.equal(v.status, 'pass');
    assert.equal(v.score, 100);
    assert.equal(v.details?.['rule'], 'both_empty');
    assert.equal((await score(trajectoryMatcher, { filter_native_tools: false }, testCase)).score, 0);
  });

  it('knows the canonical MCP form: split at the first __, both parts non-empty', () => {
    for (const name of ['a__x', 'x__y__z', 'a___b', 'mcp__s__t']) assert.equal(looksCanonicalMcp(name), true, name);
    for (const name of ['read_file', '__x', 'x__', '__', '', 'a_b']) assert.equal(looksCanonicalMcp(name), false, name);
  });

  it('scores an explicit empty recording against an empty expectation 100, as EvalBench does', async () => {
    const v = await score(trajectoryMatcher, {}, { expected: [], trace: { steps: [] } });
    assert.equal(v.status, 'pass');
    assert.equal(v.score, 100);
  });

  it('treats a missing or null expected trajectory as empty (EvalBench: None is [])', async () => {
    const none = await score(trajectoryMatcher, {}, { trace: { steps: [] } });
    assert.equal(none.score, 100);
    assert.equal(none.details?.['expected_given'], false);
    const called = await score(trajectoryMatcher, {}, { expected: null, trace: calls('a__x') });
    assert.equal(called.score, 0);
    assert.equal(called.reason, 'no tools were expected; 1 distinct tool was called (Jaccard 0)');
    assert.equal(
      (await score(trajectoryMatcher, {}, { expected: { answer: 'Paris' }, trace: calls('a__x') })).score,
      0,
    );
  });

  it('reads expected.trajectory when the expected value is an object, or the field expected_path selects', async () => {
    const trace = calls('a__x', 'b__y');
    assert.equal(
      (await score(trajectoryMatcher, {}, { expected: { trajectory: ['a__x', 'b__y'], answer: 'done' }, trace }))
        .status,
      'pass',
    );
    assert.equal(
      (await score(trajectoryMatcher, { expected_path: 'tools' }, { expected: { tools: ['a__x', 'b__y'] }, trace }))
        .status,
      'pass',
    );
  });

  it('is an error when a present expected value is not a list of tool names', async () => {
    const trace = calls('a__x');
    const text = await score(trajectoryMatcher, {}, { expected: 'a__x', trace });
    assert.equal(text.status, 'error');
    assert.match(text.reason, /expected trajectory is a string of 4 characters, not a list of tool names/);
    const field = await score(trajectoryMatcher, {}, { expected: { trajectory: 'a__x' }, trace });
    assert.equal(field.status, 'error');
    assert.match(field.reason, /`trajectory`/);
    const item = await score(trajectoryMatcher, {}, { expected: ['a__x', 3], trace });
    assert.equal(item.status, 'error');
    assert.match(item.reason, /item 2 .* is a number, not a tool name/);
  });

  it('is unsupported when the case has no trace, with the trace reader’s reason', async () => {
    const v = await score(trajectoryMatcher, {}, { expected: ['a__x'] });
    assert.equal(v.status, 'unsupported');
    assert.match(v.reason, /trace/);
  });

  it('is unsupported when the trace records figures but no steps', async () => {
    const v = await score(trajectoryMatcher, {}, { expected: ['a__x'], trace: { turns: [{ tool_calls: 1 }] } });
    assert.equal(v.status, 'unsupported');
    assert.match(v.reason, /no steps/);
  });

  it('reads the tools of an EvalBench record (accumulated_tools) and of a plain list of tool names', async () => {
    const record = { conversation_history: [], accumulated_tools: ['a__x', 'b__y'] };
    assert.equal((await score(trajectoryMatcher, {}, { expected: ['b__y', 'a__x'], trace: record })).status, 'pass');
    assert.equal(
      (await score(trajectoryMatcher, {}, { expected: ['a__x', 'c__z'], trace: ['a__x', 'read_file'] })).score,
      50,
    );
  });

  it('counts a tool call that ended in an error as called (EvalBench’s generated_error rule is not applied)', async () => {
    const v = await score(
      trajectoryMatcher,
      {},
      { expected: ['a__x'], trace: { steps: [{ type: 'tool_call', name: 'a__x', error: 'timeout' }] } },
    );
    assert.equal(v.status, 'pass');
  });

  it('refuses a threshold off the 0–100 scale and accepts one on it', () => {
    assert.match(thresholdOffScale(trajectoryMatcher, 101) ?? '', /between 0 and 100/);
    assert.equal(
      trajectoryMatcher.create(
        { threshold: 80, enforce_order: false, filter_native_tools: true },
        { engine: createEngineContext(), configDir: '.', timeoutMs: 30_000, env: {} },
      ).ok,
      true,
    );
  });

  it('is a 0–100 EvalBench scorer with no default threshold', () => {
    assert.deepEqual(trajectoryMatcher.scale, { kind: 'bounded', max: 100 });
    assert.equal(trajectoryMatcher.origin, 'EvalBench');
    assert.equal(trajectoryMatcher.defaultThreshold, undefined);
  });
});

describe('listDistance', () => {
  it('computes Levenshtein over list items, unit costs', () => {
    assert.equal(listEditDistance([], []), 0);
    assert.equal(listEditDistance(['a', 'b', 'c'], []), 3);
    assert.equal(listEditDistance([], ['a']), 1);
    assert.equal(listEditDistance(['k', 'i', 't', 't', 'e', 'n'], ['s', 'i', 't', 't', 'i', 'n', 'g']), 3);
    assert.equal(listEditDistance(['ab', 'c'], ['a', 'bc']), 2, 'items compare whole, never by characters');
    assert.equal(listEditDistance([1, 2, 3], [3, 2, 1]), 2);
  });

  it('normalizes the distance by the longer list; two empty lists are identical', () => {
    assert.equal(listEditSimilarity([], []), 1);
    assert.equal(listEditSimilarity(['a', 'b'], ['a', 'b', 'b', 'a']), 0.5);
    assert.equal(listEditSimilarity(['a'], ['b']), 0);
  });

  it('computes the longest common subsequence length', () => {
    assert.equal(longestCommonSubsequence(['a', 'b', 'c', 'd'], ['b', 'd', 'a']), 2);
    assert.equal(longestCommonSubsequence([], ['a']), 0);
    assert.equal(longestCommonSubsequence(['x', 'a', 'y'], ['a']), 1);
  });

  it('takes Jaccard and coverage on sets, with 1 for empty sets', () => {
    assert.equal(jaccard([], []), 1);
    assert.equal(jaccard(['a', 'a', 'b'], ['b', 'c']), 1 / 3);
    assert.equal(coverage(['a', 'b'], ['a', 'c', 'd']), 0.5);
    assert.equal(coverage([], ['a']), 1);
    assert.deepEqual(setOverlap(['a', 'b', 'a'], ['c', 'a']), {
      matched: ['a'],
      missing: ['b'],
      unexpected: ['c'],
      expectedCount: 2,
      unionCount: 3,
    });
  });
});
