import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Json } from '../../../core/case';
import { citationSupport } from '../../../core/scorers/builtin/citationSupport';
import { schemaErrors, score } from '../../support/scoring';
import { thresholdOffScale } from '../../../core/config/thresholdScale';

const retrieval = (...ids: string[]): Json => ({ type: 'retrieval', document_ids: ids });

describe('citation_support', () => {
  describe('score and pass', () => {
    it('passes with score 1 when every cited id was retrieved', async () => {
      const v = await score(
        citationSupport,
        {},
        { output: 'answer', trace: { steps: [retrieval('a', 'b', 'c')], citations: ['a', 'c'] } },
      );
      assert.equal(v.status, 'pass');
      assert.equal(v.score, 1);
      assert.match(v.reason, /all 2 cited document ids were retrieved for the answer \(3 distinct ids retrieved\)/);
    });

    it('scores the share of cited ids that were retrieved and fails below 1', async () => {
      const v = await score(
        citationSupport,
        {},
        { output: 'answer', trace: { steps: [retrieval('a', 'b')], citations: ['a', 'x', 'y'] } },
      );
      assert.equal(v.status, 'fail');
      assert.equal(v.score, 1 / 3);
      assert.match(
        v.reason,
        /^2 of the 3 cited document ids were not retrieved for the answer \(support 0\.3333; 2 distinct ids retrieved\); the ids are in details$/,
      );
      assert.deepEqual(v.details?.['unsupported_ids'], ['x', 'y']);
    });

    it('has no default threshold: the verdict passes only at 1', () => {
      assert.equal(citationSupport.defaultThreshold, undefined);
    });

    it('reads retrieved ids across every retrieval step', async () => {
      const v = await score(
        citationSupport,
        {},
        {
          output: 'answer',
          trace: {
            steps: [retrieval('a'), { type: 'tool_call', name: 'search', arguments: {} }, retrieval('b')],
            citations: ['b', 'a'],
          },
        },
      );
      assert.equal(v.status, 'pass');
    });

    it('counts a cited id once however often it is cited', async () => {
      const v = await score(
        citationSupport,
        {},
        { output: 'answer', trace: { steps: [retrieval('a')], citations: ['a', 'a', 'b'] } },
      );
      assert.equal(v.score, 0.5);
      assert.deepEqual(v.details?.['cited_ids'], ['a', 'b']);
    });

    it('retrieval steps that returned nothing support no citation (score 0)', async () => {
      const v = await score(
        citationSupport,
        {},
        { output: 'answer', trace: { steps: [retrieval()], citations: ['a'] } },
      );
      assert.equal(v.status, 'fail');
      assert.equal(v.score, 0);
    });
  });

  describe('where citations come from', () => {
    it('reads the output `citations` list when the trace records none', async () => {
      const v = await score(
        citationSupport,
        {},
        { output: { text: 'see [a]', citations: ['a'] }, trace: { steps: [retrieval('a')] } },
      );
      assert.equal(v.status, 'pass');
      assert.equal(v.details?.['citations_from'], "the output's `citations`");
    });

    it('prefers the trace citations over the output', async () => {
      const v = await score(
        citationSupport,
        {},
        { output: { citations: ['x'] }, trace: { steps: [retrieval('a')], citations: ['a'] } },
      );
      assert.equal(v.status, 'pass');
      assert.equal(v.details?.['citations_from'], 'the trace citations');
    });

    it('reads the field picked with output_path', async () => {
      const v = await score(
        citationSupport,
        { output_path: 'answer' },
        { output: { answer: { citations: ['a'] } }, trace: { steps: [retrieval('a')] } },
      );
      assert.equal(v.status, 'pass');
    });

    it('an output `citations` of the wrong type fails naming its kind (nothing is converted)', async () => {
      const text = await score(
        citationSupport,
        {},
        { output: { citations: 'a, b' }, trace: { steps: [retrieval('a')] } },
      );
      assert.equal(text.status, 'fail');
      assert.match(
        text.reason,
        /the output's `citations` is a string of 4 characters, not a list of document ids; nothing is converted/,
      );
      const item = await score(
        citationSupport,
        {},
        { output: { citations: [{ id: 'a' }] }, trace: { steps: [retrieval('a')] } },
      );
      assert.equal(item.status, 'fail');
      assert.match(item.reason, /item 1 is an object, not a document id/);
    });
  });

  describe('undefined and unsupported', () => {
    it('nothing cited (an empty list) is inconclusive', async () => {
      const v = await score(
        citationSupport,
        {},
        { output: 'answer', trace: { steps: [retrieval('a')], citations: [] } },
      );
      assert.equal(v.status, 'inconclusive');
      assert.equal(v.score, undefined);
    });

    it('no citation record at all is unsupported', async () => {
      const v = await score(citationSupport, {}, { output: 'plain answer', trace: { steps: [retrieval('a')] } });
      assert.equal(v.status, 'unsupported');
      assert.match(
        v.reason,
        /the case records no citations: the trace has none and the output \(a string of 12 characters\) has no `citations` list/,
      );
    });

    it('no retrieval recorded is unsupported', async () => {
      const v = await score(
        citationSupport,
        {},
        {
          output: 'answer',
          trace: { steps: [{ type: 'tool_call', name: 'search', arguments: {} }], citations: ['a'] },
        },
      );
      assert.equal(v.status, 'unsupported');
      assert.match(v.reason, /records no retrieval step/);
    });

    it('a trace with citations but no steps is unsupported', async () => {
      const v = await score(citationSupport, {}, { output: 'answer', trace: { citations: ['a'] } });
      assert.equal(v.status, 'unsupported');
      assert.match(v.reason, /records no steps/);
    });

    it('no trace is unsupported', async () => {
      const v = await score(citationSupport, {}, { output: { citations: ['a'] } });
      assert.equal(v.status, 'unsupported');
      assert.match(v.reason, /the case has no trace/);
    });
  });

  describe('reasons and options', () => {
    it('reasons give counts, never ids', async () => {
      const v = await score(
        citationSupport,
        {},
        {
          output: 'answer',
          trace: { steps: [retrieval('kb-private-1')], citations: ['kb-private-1', 'kb-private-2'] },
        },
      );
      assert.ok(!v.reason.includes('kb-private'), v.reason);
    });

    it('takes no options of its own; a threshold outside 0–1 is refused at load', () => {
      assert.notDeepEqual(schemaErrors(citationSupport, { strict: true }), []);
      assert.match(thresholdOffScale(citationSupport, 2) ?? '', /between 0 and 1/);
      for (const example of citationSupport.schema['examples'] as { [key: string]: Json }[])
        assert.deepEqual(schemaErrors(citationSupport, example), [], JSON.stringify(example));
    });
  });
});
