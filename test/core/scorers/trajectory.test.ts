import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Json } from '../../../core/case';
import type { ScorerVerdict } from '../../../core/result';
import { trajectory } from '../../../core/scorers/builtin/trajectory';
import { refusal, schemaErrors, score } from '../../support/scoring';

type Step = { readonly [key: string]: Json };

const ok = (name: string, extra: Step = {}): Step => ({
  type: 'tool_call',
  name,
  arguments: { secret: 'argument-value' },
  result: 'result-text',
  ...extra,
});
const failed = (name: string): Step => ok(name, { error: 'upstream 503' });
const handoff = (to: string, from?: string): Step =>
  from === undefined ? { type: 'handoff', to } : { type: 'handoff', from, to };

function run(options: { [key: string]: Json }, ...steps: Step[]): Promise<ScorerVerdict> {
  return score(trajectory, options, { output: 'done', trace: { steps } });
}

describe('trajectory', () => {
  describe('required steps', () => {
    it('passes when the required steps happen in order, with other calls in between', async () => {
      const v = await run({ required_steps: ['lookup', 'refund'] }, ok('auth'), ok('lookup'), ok('log'), ok('refund'));
      assert.equal(v.status, 'pass');
      assert.equal(v.score, 1);
      assert.match(v.reason, /all 2 required steps happened in order without error \(4 tool calls in the trace\)/);
      assert.deepEqual(v.details?.['required_steps'], [
        { step: 1, tool: 'lookup', satisfied: true, call: 2, trace_step: 2 },
        { step: 2, tool: 'refund', satisfied: true, call: 4, trace_step: 4 },
      ]);
    });

    it('fails a required step that was never called, naming it', async () => {
      const v = await run({ required_steps: ['lookup', 'refund', 'notify'] }, ok('lookup'), ok('notify'));
      assert.equal(v.status, 'fail');
      assert.equal(v.score, 0);
      assert.match(
        v.reason,
        /^required step 2 of 3 \(`refund`\) was never called \(the 1 step after it was not checked\)$/,
      );
    });

    it('fails a required step that happened only out of order', async () => {
      const v = await run({ required_steps: ['lookup', 'refund'] }, ok('refund'), ok('lookup'));
      assert.equal(v.status, 'fail');
      assert.match(
        v.reason,
        /required step 2 of 2 \(`refund`\) is out of order: it succeeded only before step 1 \(`lookup`, call 2\)/,
      );
    });

    it('fails a required step whose calls only ended with errors', async () => {
      const v = await run({ required_steps: ['lookup', 'refund'] }, ok('lookup'), failed('refund'), failed('refund'));
      assert.equal(v.status, 'fail');
      assert.match(
        v.reason,
        /required step 2 of 2 \(`refund`\) only ended with errors after step 1 \(`lookup`, call 1\): all 2 of its calls failed/,
      );
    });

    it('a failed call followed by a successful retry satisfies the step (the retry does, not the failure)', async () => {
      const v = await run({ required_steps: ['search', 'answer'] }, failed('search'), ok('search'), ok('answer'));
      assert.equal(v.status, 'pass');
      assert.deepEqual(
        (v.details?.['required_steps'] as { call: number }[]).map((s) => s.call),
        [2, 3],
      );
    });

    it('a successful call before the failure does not rescue a later required step', async () => {
      const v = await run({ required_steps: ['lookup', 'refund'] }, ok('refund'), ok('lookup'), failed('refund'));
      assert.equal(v.status, 'fail');
      assert.match(v.reason, /only ended with errors after step 1/);
    });

    it('a tool listed twice needs two successful calls in order (duplicates count)', async () => {
      assert.equal((await run({ required_steps: ['search', 'search'] }, ok('search'), ok('search'))).status, 'pass');
      const v = await run({ required_steps: ['search', 'search'] }, ok('search'), failed('search'));
      assert.equal(v.status, 'fail');
      assert.match(v.reason, /required step 2 of 2 \(`search`\) only ended with errors/);
    });

    it('an empty trace fails the first required step', async () => {
      const v = await run({ required_steps: ['lookup'] });
      assert.equal(v.status, 'fail');
      assert.match(v.reason, /required step 1 of 1 \(`lookup`\) was never called/);
    });

    it('reads calls in start order when every call has a start time', async () => {
      const v = await run(
        { required_steps: ['lookup', 'refund'] },
        ok('refund', { start_ms: 20 }),
        ok('lookup', { start_ms: 10 }),
      );
      assert.equal(v.status, 'pass');
    });
  });

  describe('forbidden tools', () => {
    it('fails when a forbidden tool was called, even if the call failed; names the tool', async () => {
      const v = await run({ forbidden_tools: ['delete', 'shell'] }, ok('lookup'), failed('delete'), ok('delete'));
      assert.equal(v.status, 'fail');
      assert.match(v.reason, /^forbidden tool called: `delete` \(2 calls, first at call 2\)$/);
    });

    it('passes when no forbidden tool was called', async () => {
      const v = await run({ forbidden_tools: ['delete'] }, ok('lookup'));
      assert.equal(v.status, 'pass');
      assert.match(v.reason, /the forbidden tool `delete` was not called/);
      assert.match(
        (await run({ forbidden_tools: ['delete', 'shell'] }, ok('lookup'))).reason,
        /none of the 2 forbidden tools was called/,
      );
    });

    it('refuses a tool that is both required and forbidden at load', () => {
      const issues = refusal(trajectory, { required_steps: ['lookup', 'delete'], forbidden_tools: ['delete'] });
      assert.deepEqual(issues[0]?.path, ['required_steps', 1]);
    });
  });

  describe('handoffs', () => {
    it('passes when each declared handoff was recorded (from is optional)', async () => {
      const v = await run(
        { handoffs: [{ to: 'billing' }, { from: 'billing', to: 'refunds' }] },
        handoff('billing', 'triage'),
        ok('lookup'),
        handoff('refunds', 'billing'),
      );
      assert.equal(v.status, 'pass');
      assert.match(v.reason, /all 2 declared handoffs were recorded/);
    });

    it('fails a handoff that was not recorded, or recorded from another agent', async () => {
      const v = await run(
        { handoffs: [{ from: 'triage', to: 'refunds' }, { to: 'legal' }] },
        handoff('refunds', 'billing'),
      );
      assert.equal(v.status, 'fail');
      assert.match(
        v.reason,
        /handoff 1 \(from `triage` to `refunds`\), handoff 2 \(to `legal`\) were not recorded \(the trace records 1 handoff\)/,
      );
      assert.deepEqual(v.details?.['handoffs'], [
        { from: 'triage', to: 'refunds', recorded: false },
        { to: 'legal', recorded: false },
      ]);
    });

    it('a trace with no handoff at all fails a declared handoff (not unsupported)', async () => {
      const v = await run({ handoffs: [{ to: 'billing' }] }, ok('lookup'));
      assert.equal(v.status, 'fail');
      assert.match(v.reason, /the trace records 0 handoffs/);
    });
  });

  describe('several rules', () => {
    it('names every rule that failed, and passes only when all hold', async () => {
      const options = {
        required_steps: ['lookup', 'refund'],
        forbidden_tools: ['delete'],
        handoffs: [{ to: 'billing' }],
      };
      const v = await run(options, ok('lookup'), ok('delete'));
      assert.equal(v.status, 'fail');
      assert.match(
        v.reason,
        /required step 2 of 2 \(`refund`\) was never called; forbidden tool called: `delete` \(1 call, first at call 2\); handoff 1 \(to `billing`\) was not recorded/,
      );
      const good = await run(options, ok('lookup'), handoff('billing'), ok('refund'));
      assert.equal(good.status, 'pass');
      assert.match(
        good.reason,
        /all 2 required steps .*; the forbidden tool `delete` was not called; the declared handoff was recorded/,
      );
    });

    it('reasons never quote arguments, results or errors', async () => {
      const v = await run({ required_steps: ['refund'] }, failed('refund'));
      for (const payload of ['argument-value', 'result-text', 'upstream 503'])
        assert.ok(!v.reason.includes(payload), v.reason);
    });
  });

  describe('missing trace parts', () => {
    it('is unsupported without a trace', async () => {
      const v = await score(trajectory, { required_steps: ['a'] }, { output: 'x' });
      assert.equal(v.status, 'unsupported');
    });

    it('is unsupported when the trace records only figures, no steps', async () => {
      const v = await score(trajectory, { forbidden_tools: ['a'] }, { output: 'x', trace: { latency_ms: 3 } });
      assert.equal(v.status, 'unsupported');
      assert.match(v.reason, /records no steps/);
    });

    it('reads a trace that is a list of tool names (no errors recorded there)', async () => {
      assert.equal(
        (await score(trajectory, { required_steps: ['a', 'c'] }, { output: 'x', trace: ['a', 'b', 'c'] })).status,
        'pass',
      );
    });
  });

  describe('schema', () => {
    it('needs at least one rule; lists are non-empty; handoffs need `to`', () => {
      assert.notDeepEqual(schemaErrors(trajectory, {}), []);
      assert.notDeepEqual(schemaErrors(trajectory, { required_steps: [] }), []);
      assert.notDeepEqual(schemaErrors(trajectory, { forbidden_tools: ['a', 'a'] }), []);
      assert.notDeepEqual(schemaErrors(trajectory, { handoffs: [{ from: 'a' }] }), []);
      assert.notDeepEqual(schemaErrors(trajectory, { handoffs: [{ to: 'a', via: 'b' }] }), []);
      assert.deepEqual(schemaErrors(trajectory, { required_steps: ['a', 'a'] }), []);
    });

    it('accepts every example in its schema', () => {
      for (const example of trajectory.schema['examples'] as { [key: string]: Json }[])
        assert.deepEqual(schemaErrors(trajectory, example), [], JSON.stringify(example));
    });
  });
});
