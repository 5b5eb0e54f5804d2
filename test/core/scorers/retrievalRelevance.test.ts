import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Json } from '../../../core/case';
import type { ScorerVerdict } from '../../../core/result';
import { retrievalRelevance } from '../../../core/scorers/builtin/retrievalRelevance';
import { schemaErrors, score } from '../../support/scoring';
import { thresholdOffScale } from '../../../core/config/thresholdScale';

const retrieval = (...ids: string[]): Json => ({ type: 'retrieval', document_ids: ids });
const traceOf = (...steps: Json[]): Json => ({ steps });

function run(options: { [key: string]: Json }, expected: Json | undefined, ...steps: Json[]): Promise<ScorerVerdict> {
  return score(
    retrievalRelevance,
    options,
    expected === undefined
      ? { output: 'answer', trace: traceOf(...steps) }
      : { output: 'answer', expected, trace: traceOf(...steps) },
  );
}

const close = (actual: unknown, expected: number) =>
  assert.ok(typeof actual === 'number' && Math.abs(actual - expected) < 1e-12, `${String(actual)} ≈ ${expected}`);

describe('retrieval_relevance', () => {
  describe('metrics', () => {
    it('F1 by default: harmonic mean of precision and recall over everything retrieved', async () => {
      // retrieved d1 d2 d3 d4, relevant d1 d3 d9: hits 2, P = 2/4, R = 2/3, F1 = 4/7.
      const v = await run({}, { relevant_ids: ['d1', 'd3', 'd9'] }, retrieval('d1', 'd2', 'd3', 'd4'));
      assert.equal(v.status, 'pass');
      close(v.score, 4 / 7);
      close(v.details?.['precision'], 0.5);
      close(v.details?.['recall'], 2 / 3);
      close(v.details?.['f1'], 4 / 7);
      assert.match(
        v.reason,
        /^F1 0\.5714 meets the pass threshold \(at least 0\.5; precision 0\.5, recall 0\.6667: 2 of 3 relevant ids among the 4 retrieved\)$/,
      );
    });

    it('precision@k divides by k, even when fewer than k were retrieved', async () => {
      const v = await run({ metric: 'precision', k: 4 }, ['d1', 'd2'], retrieval('d1', 'd2'));
      assert.equal(v.score, 0.5);
      assert.equal(v.details?.['precision_denominator'], 4);
      assert.match(v.reason, /^precision@4 0\.5 meets/);
    });

    it('precision without k divides by the number retrieved', async () => {
      const v = await run({ metric: 'precision' }, ['d1', 'd2'], retrieval('d1', 'd2'));
      assert.equal(v.score, 1);
    });

    it('recall@k: relevant ids in the top k over the relevant count', async () => {
      const v = await run({ metric: 'recall', k: 2 }, ['d3', 'd1'], retrieval('d1', 'd2', 'd3'));
      assert.equal(v.score, 0.5);
      assert.deepEqual(v.details?.['retrieved_ids'], ['d1', 'd2']);
      assert.deepEqual(v.details?.['hit_ids'], ['d1']);
      assert.match(v.reason, /1 of 2 relevant ids in the top 2 of 3 retrieved/);
    });

    it('F1 is 0 (not undefined) when no retrieved id is relevant', async () => {
      const v = await run({}, ['x'], retrieval('d1', 'd2'));
      assert.equal(v.status, 'fail');
      assert.equal(v.score, 0);
      assert.equal(v.details?.['f1'], 0);
    });

    it('passes at the threshold (ties pass) and fails below it; default threshold 0.5', async () => {
      assert.equal(retrievalRelevance.defaultThreshold, 0.5);
      assert.equal((await run({ metric: 'recall' }, ['a', 'b'], retrieval('a'))).status, 'pass');
      const v = await run({ metric: 'recall', threshold: 0.6 }, ['a', 'b'], retrieval('a'));
      assert.equal(v.status, 'fail');
      assert.match(v.reason, /recall 0\.5 misses the pass threshold \(at least 0\.6/);
    });

    it('k larger than the list scores the whole list', async () => {
      const v = await run({ metric: 'recall', k: 50 }, ['a', 'b'], retrieval('a', 'b'));
      assert.equal(v.score, 1);
    });
  });

  describe('retrieved ids', () => {
    it('concatenates retrieval steps in order and drops duplicates, keeping the first', async () => {
      // Steps retrieve [a, b] then [b, c, a, d]: ranked a b c d. Top 3 = a b c.
      const v = await run(
        { metric: 'precision', k: 3 },
        ['c', 'd'],
        retrieval('a', 'b'),
        { type: 'tool_call', name: 'search', arguments: {} },
        retrieval('b', 'c', 'a', 'd'),
      );
      assert.deepEqual(v.details?.['retrieved_ids'], ['a', 'b', 'c']);
      close(v.score, 1 / 3);
      assert.deepEqual(v.details?.['retrieved_from'], { retrieval_steps: 2, ids_listed: 6, distinct_ids: 4 });
    });

    it('duplicates in the retrieved list do not inflate precision', async () => {
      const v = await run({ metric: 'precision' }, ['a'], retrieval('a', 'a', 'a', 'b'));
      assert.equal(v.score, 0.5);
    });

    it('duplicate relevant ids count once', async () => {
      const v = await run({ metric: 'recall' }, ['a', 'a', 'b'], retrieval('a'));
      assert.equal(v.score, 0.5);
      assert.deepEqual(v.details?.['relevant_ids'], ['a', 'b']);
    });
  });

  describe('undefined metrics are inconclusive, never 0', () => {
    it('nothing retrieved (retrieval steps with no ids) is inconclusive, for every metric', async () => {
      for (const metric of ['precision', 'recall', 'f1']) {
        const v = await run({ metric }, ['a'], retrieval());
        assert.equal(v.status, 'inconclusive', metric);
        assert.equal(v.score, undefined);
        assert.match(v.reason, /nothing was retrieved \(1 retrieval step with no document ids\)/);
      }
    });

    it('no relevant id labelled (an empty list) is inconclusive', async () => {
      const v = await run({}, { relevant_ids: [] }, retrieval('a'));
      assert.equal(v.status, 'inconclusive');
      assert.match(
        v.reason,
        /no relevant document id is labelled for the case \(`expected.relevant_ids` is an empty list\)/,
      );
    });
  });

  describe('labels', () => {
    it('reads expected.relevant_ids, or expected itself when it is a list of strings', async () => {
      const fromField = await run({}, { relevant_ids: ['a'], other: 1 }, retrieval('a'));
      assert.equal(fromField.score, 1);
      assert.equal(fromField.details?.['labels_from'], '`expected.relevant_ids`');
      const fromList = await run({}, ['a'], retrieval('a'));
      assert.equal(fromList.score, 1);
      assert.equal(fromList.details?.['labels_from'], '`expected`');
    });

    it('expected_path picks another field', async () => {
      const v = await run({ expected_path: 'labels.docs' }, { labels: { docs: ['a'] } }, retrieval('a', 'b'));
      assert.equal(v.details?.['recall'], 1);
      assert.equal(v.details?.['labels_from'], 'the expected value at expected_path "labels.docs"');
    });

    it('a missing expected value is an error', async () => {
      assert.equal((await run({}, undefined, retrieval('a'))).status, 'error');
    });

    it('a label of the wrong type is an error naming the kind, never a conversion', async () => {
      const wrongList = await run({}, { relevant_ids: 'a,b' }, retrieval('a'));
      assert.equal(wrongList.status, 'error');
      assert.match(
        wrongList.reason,
        /`expected.relevant_ids` is a string of 3 characters, not a list of relevant document ids; nothing is converted/,
      );
      const wrongItem = await run({}, [1, 'a'], retrieval('a'));
      assert.equal(wrongItem.status, 'error');
      assert.match(wrongItem.reason, /item 1 is a number, not a document id/);
      assert.equal((await run({}, { ids: ['a'] }, retrieval('a'))).status, 'error', 'an object without relevant_ids');
      assert.equal((await run({}, 'a', retrieval('a'))).status, 'error');
    });

    it('a label error wins over a missing trace: the dataset is wrong either way', async () => {
      const v = await score(retrievalRelevance, {}, { output: 'x', expected: 7 });
      assert.equal(v.status, 'error');
    });
  });

  describe('missing trace parts', () => {
    it('is unsupported without a trace', async () => {
      const v = await score(retrievalRelevance, {}, { output: 'x', expected: ['a'] });
      assert.equal(v.status, 'unsupported');
    });

    it('is unsupported when the trace records no retrieval step', async () => {
      const v = await run({}, ['a'], { type: 'tool_call', name: 'search', arguments: {} });
      assert.equal(v.status, 'unsupported');
      assert.match(v.reason, /records no retrieval step/);
    });

    it('is unsupported when the trace records only figures', async () => {
      const v = await score(retrievalRelevance, {}, { output: 'x', expected: ['a'], trace: { latency_ms: 5 } });
      assert.equal(v.status, 'unsupported');
      assert.match(v.reason, /records no steps/);
    });
  });

  describe('reasons, details and options', () => {
    it('reasons carry counts, never ids; details carry the ids and the three figures', async () => {
      const v = await run({ k: 2 }, ['doc-secret-1'], retrieval('doc-secret-1', 'doc-secret-2', 'doc-secret-3'));
      assert.ok(!v.reason.includes('doc-secret'), v.reason);
      assert.deepEqual(Object.keys(v.details ?? {}).sort(), [
        'f1',
        'hit_ids',
        'hits',
        'k',
        'labels_from',
        'metric',
        'precision',
        'precision_denominator',
        'recall',
        'relevant_count',
        'relevant_ids',
        'retrieved_count',
        'retrieved_from',
        'retrieved_ids',
        'threshold',
      ]);
      assert.equal(v.details?.['k'], 2);
    });

    it('refuses a threshold outside 0–1 at load', () => {
      assert.match(thresholdOffScale(retrievalRelevance, 1.5) ?? '', /between 0 and 1/);
    });

    it('honours lower_is_better as the runner does', async () => {
      assert.equal(
        (await run({ metric: 'recall', threshold: 0.5, lower_is_better: true }, ['a', 'b', 'c', 'd'], retrieval('a')))
          .status,
        'pass',
      );
    });

    it('the schema takes k ≥ 1 (integer) and one of the three metrics', () => {
      assert.notDeepEqual(schemaErrors(retrievalRelevance, { k: 0 }), []);
      assert.notDeepEqual(schemaErrors(retrievalRelevance, { k: 2.5 }), []);
      assert.notDeepEqual(schemaErrors(retrievalRelevance, { metric: 'ndcg' }), []);
      for (const example of retrievalRelevance.schema['examples'] as { [key: string]: Json }[])
        assert.deepEqual(schemaErrors(retrievalRelevance, example), [], JSON.stringify(example));
    });
  });
});
