import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Json } from '../../../core/case';
import type { ScorerVerdict } from '../../../core/result';
import { toolCallMatch } from '../../../core/scorers/builtin/toolCallMatch';
import { refusal, schemaErrors, score } from '../../support/scoring';

type Step = { readonly [key: string]: Json };

const call = (name: string, args?: Json, extra: Step = {}): Step =>
  args === undefined ? { type: 'tool_call', name, ...extra } : { type: 'tool_call', name, arguments: args, ...extra };
const trace = (...steps: Step[]): Json => ({ steps });

/** Scores one trace with the given options. */
function run(options: { [key: string]: Json }, ...steps: Step[]): Promise<ScorerVerdict> {
  return score(toolCallMatch, options, { output: 'done', trace: trace(...steps) });
}

const searchRule = (rule: string, value?: Json, path = 'query'): { [key: string]: Json } => ({
  tool: 'search',
  params: [value === undefined ? { path, rule } : { path, rule, value }],
});

function assertNoLeak(v: ScorerVerdict, ...values: string[]): void {
  for (const value of values) assert.ok(!v.reason.includes(value), `the reason must not quote "${value}": ${v.reason}`);
}

describe('tool_call_match', () => {
  describe('rules', () => {
    it('equals: passes on canonical-JSON equality (key order and 1.0 vs 1 do not matter), fails otherwise', async () => {
      const options = searchRule('equals', { lang: 'en', limit: 1 }, 'opts');
      assert.equal((await run(options, call('search', { opts: { limit: 1.0, lang: 'en' } }))).status, 'pass');
      const v = await run(options, call('search', { opts: { limit: 2, lang: 'en' } }));
      assert.equal(v.status, 'fail');
      assert.match(v.reason, /`opts` fails equals \(is an object that differs from the rule's value\)/);
    });

    it('equals: a missing value fails, and a string never equals a number (nothing is converted)', async () => {
      assert.match(
        (await run(searchRule('equals', 5, 'limit'), call('search', {}))).reason,
        /`limit` fails equals \(is missing\)/,
      );
      assert.equal((await run(searchRule('equals', 5, 'limit'), call('search', { limit: '5' }))).status, 'fail');
    });

    it('equals null matches a recorded null', async () => {
      assert.equal((await run(searchRule('equals', null, 'cursor'), call('search', { cursor: null }))).status, 'pass');
    });

    it('not_equals: fails on an equal value, passes on another value and on a missing one', async () => {
      const options = searchRule('not_equals', 'force', 'mode');
      const v = await run(options, call('search', { mode: 'force' }));
      assert.equal(v.status, 'fail');
      assert.match(v.reason, /`mode` fails not_equals \(equals the excluded value\)/);
      assert.equal((await run(options, call('search', { mode: 'safe' }))).status, 'pass');
      assert.equal((await run(options, call('search', {}))).status, 'pass');
    });

    it('matches: a pattern search in a string argument, with flags', async () => {
      assert.equal(
        (await run(searchRule('matches', 'refund'), call('search', { query: 'how do I get a refund?' }))).status,
        'pass',
      );
      assert.equal(
        (await run(searchRule('matches', '^refund$'), call('search', { query: 'a refund' }))).status,
        'fail',
      );
      const insensitive = { tool: 'search', params: [{ path: 'query', rule: 'matches', value: 'REFUND', flags: 'i' }] };
      assert.equal((await run(insensitive, call('search', { query: 'refund policy' }))).status, 'pass');
    });

    it('matches: a number argument fails naming its kind, and an unmatched string fails without quoting it', async () => {
      const v = await run(searchRule('matches', '\\d+'), call('search', { query: 12345 }));
      assert.equal(v.status, 'fail');
      assert.match(v.reason, /`query` fails matches \(is a number, not a string; nothing is converted\)/);
      const secret = await run(searchRule('matches', '^\\d+$'), call('search', { query: 'top-secret-words' }));
      assert.equal(secret.status, 'fail');
      assert.match(secret.reason, /is a string of 16 characters that the pattern matches nowhere/);
      assertNoLeak(secret, 'top-secret-words');
    });

    it('matches: a pattern that can backtrack catastrophically or does not compile is refused at load', () => {
      const redos = refusal(toolCallMatch, searchRule('matches', '^(a+)+$'));
      assert.deepEqual(redos[0]?.path, ['params', 0, 'value']);
      assert.match(redos[0]?.message ?? '', /rule 1 \(matches\): the pattern can backtrack catastrophically/);
      const invalid = refusal(toolCallMatch, searchRule('matches', '(unclosed'));
      assert.match(invalid[0]?.message ?? '', /does not compile/);
    });

    it('one_of: passes when the value is one of the listed values (canonical JSON), fails otherwise', async () => {
      const options = searchRule('one_of', ['EUR', 'USD', 1], 'currency');
      assert.equal((await run(options, call('search', { currency: 'USD' }))).status, 'pass');
      assert.equal((await run(options, call('search', { currency: 1.0 }))).status, 'pass');
      const v = await run(options, call('search', { currency: 'GBP' }));
      assert.equal(v.status, 'fail');
      assert.match(
        v.reason,
        /`currency` fails one_of \(is a string of 3 characters that is none of the 3 listed values\)/,
      );
      assertNoLeak(v, 'GBP');
    });

    it('min and max: inclusive bounds on numbers', async () => {
      assert.equal((await run(searchRule('min', 1, 'limit'), call('search', { limit: 1 }))).status, 'pass');
      assert.equal((await run(searchRule('max', 10, 'limit'), call('search', { limit: 10 }))).status, 'pass');
      const low = await run(searchRule('min', 1, 'limit'), call('search', { limit: 0 }));
      assert.equal(low.status, 'fail');
      assert.match(low.reason, /`limit` fails min \(is below the minimum 1\)/);
      const high = await run(searchRule('max', 10, 'limit'), call('search', { limit: 11 }));
      assert.match(high.reason, /`limit` fails max \(is above the maximum 10\)/);
    });

    it('min and max: a numeric string is not a number (nothing is converted)', async () => {
      const v = await run(searchRule('max', 10, 'limit'), call('search', { limit: '5' }));
      assert.equal(v.status, 'fail');
      assert.match(v.reason, /is a string of 1 character, not a number; nothing is converted/);
    });

    it('present: the path exists (a recorded null is present); missing fails', async () => {
      assert.equal(
        (await run(searchRule('present', undefined, 'cursor'), call('search', { cursor: null }))).status,
        'pass',
      );
      const v = await run(searchRule('present', undefined, 'cursor'), call('search', {}));
      assert.equal(v.status, 'fail');
      assert.match(v.reason, /`cursor` fails present \(is missing\)/);
    });

    it('absent: the path does not exist; a present value fails naming its kind, not its value', async () => {
      assert.equal(
        (await run(searchRule('absent', undefined, 'debug'), call('search', { query: 'x' }))).status,
        'pass',
      );
      const v = await run(searchRule('absent', undefined, 'password'), call('search', { password: 'hunter2' }));
      assert.equal(v.status, 'fail');
      assert.match(v.reason, /`password` fails absent \(is present \(a string of 7 characters\)\)/);
      assertNoLeak(v, 'hunter2');
    });

    it('type: string, number, integer, boolean, object, array and null, one or a list', async () => {
      const args = { s: 'x', n: 1.5, i: 150.0, b: false, o: { a: 1 }, a: [1], z: null };
      for (const [path, type] of [
        ['s', 'string'],
        ['n', 'number'],
        ['i', 'integer'],
        ['i', 'number'],
        ['b', 'boolean'],
        ['o', 'object'],
        ['a', 'array'],
        ['z', 'null'],
      ] as const) {
        const v = await run(searchRule('type', type, path), call('search', args));
        assert.equal(v.status, 'pass', `${path} should be ${type}: ${v.reason}`);
      }
      assert.equal((await run(searchRule('type', ['string', 'null'], 'z'), call('search', args))).status, 'pass');
      const fractional = await run(searchRule('type', 'integer', 'n'), call('search', args));
      assert.match(fractional.reason, /`n` fails type \(is a number with a fractional part, not integer\)/);
      assert.equal(
        (await run(searchRule('type', 'object', 'a'), call('search', args))).status,
        'fail',
        'an array is not an object',
      );
      assert.equal(
        (await run(searchRule('type', 'object', 'z'), call('search', args))).status,
        'fail',
        'null is not an object',
      );
    });

    it('paths reach into nested objects and arrays with the field-path syntax', async () => {
      const options = {
        tool: 'search',
        params: [
          { path: 'filters.dates[1]', rule: 'equals', value: '2026-02-01' },
          { path: 'filters.tags.0', rule: 'equals', value: 'billing' },
        ],
      };
      const v = await run(
        options,
        call('search', { filters: { dates: ['2026-01-01', '2026-02-01'], tags: ['billing'] } }),
      );
      assert.equal(v.status, 'pass', v.reason);
    });

    it('a call satisfies its rules only when it satisfies every one', async () => {
      const options = {
        tool: 'search',
        params: [
          { path: 'query', rule: 'present' },
          { path: 'limit', rule: 'max', value: 10 },
        ],
      };
      const v = await run(options, call('search', { query: 'x', limit: 50 }));
      assert.equal(v.status, 'fail');
      assert.match(v.reason, /call 1: `limit` fails max/);
      assert.doesNotMatch(v.reason, /`query` fails/);
    });

    it('matches: a pattern stopped at match_timeout_ms leaves its call undecided; timeout only when that call could change the answer', async () => {
      // recheck cannot decide ^(a|\1a)+$, so it runs isolated, and it is exponential in V8 (see regex.test.ts).
      const slow = { path: 'query', rule: 'matches', value: '^(a|\\1a)+$' };
      const runaway = `${'a'.repeat(40)}!`;
      const any = { tool: 'search', params: [slow], match_timeout_ms: 50 };
      const v = await run(any, call('search', { query: runaway }));
      assert.equal(v.status, 'timeout');
      assert.match(v.reason, /took longer than match_timeout_ms \(50 ms\) on call 1 of `search`/);
      assert.equal(
        (await run(any, call('search', { query: runaway }), call('search', { query: 'aa' }))).status,
        'pass',
        'a satisfying call decides any',
      );
      const all = { ...any, occurrence: 'all' };
      assert.equal(
        (await run(all, call('search', { query: runaway }), call('search', { query: 'b' }))).status,
        'fail',
        'a failing call decides all',
      );
      assert.equal(
        (await run(all, call('search', { query: runaway }), call('search', { query: 'aa' }))).status,
        'timeout',
      );
    });

    it('refuses a malformed path at load', () => {
      const issues = refusal(toolCallMatch, searchRule('present', undefined, 'a..b'));
      assert.deepEqual(issues[0]?.path, ['params', 0, 'path']);
      assert.match(issues[0]?.message ?? '', /rule 1: the field path "a\.\.b" is malformed/);
    });
  });

  describe('occurrence', () => {
    const options = (occurrence: string) => ({
      tool: 'search',
      occurrence,
      params: [{ path: 'limit', rule: 'max', value: 10 }],
    });

    it('any (default): passes when one call of several satisfies the rules', async () => {
      const v = await run(
        { tool: 'search', params: [{ path: 'limit', rule: 'max', value: 10 }] },
        call('search', { limit: 50 }),
        call('search', { limit: 5 }),
      );
      assert.equal(v.status, 'pass');
      assert.match(v.reason, /call 2 of the 2 calls of `search` satisfies the rule \(occurrence any\)/);
    });

    it('any: fails when no call satisfies, naming each call and rule', async () => {
      const v = await run(options('any'), call('search', { limit: 50 }), call('search', { limit: 70 }));
      assert.equal(v.status, 'fail');
      assert.equal(v.score, 0);
      assert.match(
        v.reason,
        /none of the 2 calls of `search` satisfies every rule \(occurrence any\): call 1: `limit` fails max .*; call 2: `limit` fails max/,
      );
    });

    it('all: passes when every call satisfies, fails when one does not', async () => {
      assert.equal(
        (await run(options('all'), call('search', { limit: 1 }), call('search', { limit: 2 }))).status,
        'pass',
      );
      const v = await run(options('all'), call('search', { limit: 1 }), call('search', { limit: 20 }));
      assert.equal(v.status, 'fail');
      assert.match(v.reason, /1 of the 2 calls of `search` fails a rule \(occurrence all\): call 2: `limit` fails max/);
    });

    it('all: zero calls of the tool fails (not vacuously true)', async () => {
      const v = await run(options('all'), call('lookup', {}));
      assert.equal(v.status, 'fail');
      assert.match(v.reason, /`search` was not called \(the trace has 1 tool call\)/);
    });

    it('exactly_one: passes with one satisfying call among others', async () => {
      const v = await run(
        options('exactly_one'),
        call('search', { limit: 50 }),
        call('search', { limit: 5 }),
        call('search', { limit: 99 }),
      );
      assert.equal(v.status, 'pass');
      assert.match(v.reason, /exactly one of the 3 calls of `search` \(call 2\)/);
    });

    it('exactly_one: two satisfying calls fail, and so do none', async () => {
      const two = await run(options('exactly_one'), call('search', { limit: 1 }), call('search', { limit: 2 }));
      assert.equal(two.status, 'fail');
      assert.match(
        two.reason,
        /2 of the 2 calls of `search` satisfy every rule \(call 1, call 2\); occurrence exactly_one needs exactly one/,
      );
      assert.equal((await run(options('exactly_one'), call('search', { limit: 50 }))).status, 'fail');
    });

    it('without params, checks that the tool was called (exactly_one: exactly once)', async () => {
      assert.equal((await run({ tool: 'search' }, call('lookup', {}), call('search', {}))).status, 'pass');
      assert.equal(
        (await run({ tool: 'search', occurrence: 'exactly_one' }, call('search', {}), call('search', {}))).status,
        'fail',
      );
      assert.equal((await run({ tool: 'search', occurrence: 'exactly_one' }, call('search', {}))).status, 'pass');
    });

    it('a call that ended with an error is still judged on its arguments', async () => {
      const v = await run(options('any'), call('search', { limit: 5 }, { error: 'timeout' }));
      assert.equal(v.status, 'pass');
    });

    it('fails when the tool was not called at all', async () => {
      const v = await run(options('any'));
      assert.equal(v.status, 'fail');
      assert.match(v.reason, /`search` was not called \(the trace has 0 tool calls\)/);
    });

    it('numbers calls in start order when every call has a start time', async () => {
      const v = await run(
        options('any'),
        call('search', { limit: 5 }, { start_ms: 200 }),
        call('search', { limit: 50 }, { start_ms: 100 }),
      );
      assert.equal(v.status, 'pass');
      assert.match(v.reason, /call 2 of the 2 calls/);
    });
  });

  describe('forbidden tools', () => {
    it('forbidden_tools: one call of a listed tool fails, even an errored one', async () => {
      const v = await run(
        { tool: 'search', forbidden_tools: ['delete'] },
        call('search', {}),
        call('delete', {}, { error: 'denied' }),
      );
      assert.equal(v.status, 'fail');
      assert.match(v.reason, /a forbidden tool was called: `delete` \(step 2\)/);
      assert.equal(
        (await run({ tool: 'search', forbidden_tools: ['delete'] }, call('search', {}), call('lookup', {}))).status,
        'pass',
      );
    });

    it('forbid_other_tools: any other tool fails; only the tool itself passes', async () => {
      const v = await run({ tool: 'search', forbid_other_tools: true }, call('search', {}), call('lookup', {}));
      assert.equal(v.status, 'fail');
      assert.match(v.reason, /other tools were called and forbid_other_tools is on: `lookup` \(step 2\)/);
      assert.equal(
        (await run({ tool: 'search', forbid_other_tools: true }, call('search', {}), call('search', {}))).status,
        'pass',
      );
    });

    it('a forbidden call fails even when arguments were not recorded (it needs none)', async () => {
      const v = await run(
        { tool: 'search', params: [{ path: 'q', rule: 'present' }], forbidden_tools: ['delete'] },
        call('search'),
        call('delete'),
      );
      assert.equal(v.status, 'fail');
    });

    it('the schema refuses forbid_other_tools together with forbidden_tools; create refuses forbidding the tool itself', () => {
      assert.notDeepEqual(
        schemaErrors(toolCallMatch, { tool: 'search', forbid_other_tools: true, forbidden_tools: ['x'] }),
        [],
      );
      assert.deepEqual(
        schemaErrors(toolCallMatch, { tool: 'search', forbid_other_tools: false, forbidden_tools: ['x'] }),
        [],
      );
      const issues = refusal(toolCallMatch, { tool: 'search', forbidden_tools: ['search'] });
      assert.deepEqual(issues[0]?.path, ['forbidden_tools']);
    });
  });

  describe('missing trace parts', () => {
    it('is unsupported without a trace', async () => {
      const v = await score(toolCallMatch, { tool: 'search' }, { output: 'x' });
      assert.equal(v.status, 'unsupported');
      assert.match(v.reason, /the case has no trace/);
    });

    it('is unsupported when the trace records no steps, only figures', async () => {
      const v = await score(toolCallMatch, { tool: 'search' }, { output: 'x', trace: { latency_ms: 120 } });
      assert.equal(v.status, 'unsupported');
      assert.match(v.reason, /records no steps/);
    });

    it('ARGUMENTS_UNAVAILABLE: a call whose arguments were not recorded makes the case unsupported, never "no arguments"', async () => {
      const v = await run(
        searchRule('present', undefined, 'query'),
        call('lookup', {}),
        call('search', { query: 'x' }),
        call('search'),
      );
      assert.equal(v.status, 'unsupported');
      assert.match(
        v.reason,
        /^ARGUMENTS_UNAVAILABLE: the recording did not keep the arguments of call 2 of `search` \(step 3\)/,
      );
      assert.doesNotMatch(v.reason, /no arguments/);
      assert.equal(v.details?.['code'], 'ARGUMENTS_UNAVAILABLE');
    });

    it('recorded empty arguments ({}) are read normally, not as unavailable', async () => {
      const v = await run(searchRule('present', undefined, 'query'), call('search', {}));
      assert.equal(v.status, 'fail');
    });

    it('a trace that is a list of tool names keeps no arguments: rules are unsupported, a bare call check is not', async () => {
      const v = await score(toolCallMatch, searchRule('present', undefined, 'query'), {
        output: 'x',
        trace: ['lookup', 'search'],
      });
      assert.equal(v.status, 'unsupported');
      assert.match(v.reason, /ARGUMENTS_UNAVAILABLE.*a list of tool names, which keeps no arguments/);
      assert.equal(
        (await score(toolCallMatch, { tool: 'search' }, { output: 'x', trace: ['lookup', 'search'] })).status,
        'pass',
      );
    });

    it('arguments recorded as text that is not JSON have no fields, and the reason says so', async () => {
      const v = await run(searchRule('present', undefined, 'query'), call('search', 'query=refunds'));
      assert.equal(v.status, 'fail');
      assert.match(
        v.reason,
        /`query` fails present \(is missing: the call's arguments are a string of 13 characters, not an object\)/,
      );
    });

    it('calls of other tools need no recorded arguments', async () => {
      assert.equal(
        (await run(searchRule('present', undefined, 'query'), call('lookup'), call('search', { query: 'x' }))).status,
        'pass',
      );
    });
  });

  describe('reasons and details', () => {
    it('reasons never quote argument values; details do', async () => {
      const options = {
        tool: 'search',
        params: [
          { path: 'query', rule: 'equals', value: 'public' },
          { path: 'token', rule: 'absent' },
          { path: 'limit', rule: 'one_of', value: [1, 2] },
        ],
      };
      const v = await run(options, call('search', { query: 'secret-query-text', token: 'sk-live-XYZ', limit: 777 }));
      assert.equal(v.status, 'fail');
      assertNoLeak(v, 'secret-query-text', 'sk-live-XYZ', '777');
      const calls = v.details?.['calls'] as { rules: { path: string; result: string; actual?: Json }[] }[];
      assert.deepEqual(
        calls[0]?.rules.map((r) => [r.path, r.result, r.actual]),
        [
          ['query', 'unsatisfied', 'secret-query-text'],
          ['token', 'unsatisfied', 'sk-live-XYZ'],
          ['limit', 'unsatisfied', 777],
        ],
      );
    });

    it('is binary: score 1 on pass, 0 on fail', async () => {
      assert.equal((await run({ tool: 'search' }, call('search', {}))).score, 1);
      assert.equal((await run({ tool: 'search' }, call('lookup', {}))).score, 0);
    });
  });

  describe('schema', () => {
    it('needs a tool; rules need the right kind of value', () => {
      assert.notDeepEqual(schemaErrors(toolCallMatch, {}), []);
      assert.notDeepEqual(
        schemaErrors(toolCallMatch, { tool: 'search', params: [{ path: 'q', rule: 'equals' }] }),
        [],
        'equals needs a value',
      );
      assert.notDeepEqual(
        schemaErrors(toolCallMatch, { tool: 'search', params: [{ path: 'q', rule: 'min', value: '5' }] }),
        [],
        'min needs a number',
      );
      assert.notDeepEqual(
        schemaErrors(toolCallMatch, { tool: 'search', params: [{ path: 'q', rule: 'one_of', value: [] }] }),
        [],
        'one_of needs a non-empty list',
      );
      assert.notDeepEqual(
        schemaErrors(toolCallMatch, { tool: 'search', params: [{ path: 'q', rule: 'present', value: 1 }] }),
        [],
        'present takes no value',
      );
      assert.notDeepEqual(
        schemaErrors(toolCallMatch, { tool: 'search', params: [{ path: 'q', rule: 'type', value: 'float' }] }),
        [],
        'unknown type name',
      );
      assert.notDeepEqual(
        schemaErrors(toolCallMatch, { tool: 'search', params: [{ path: 'q', rule: 'equals', value: 1, flags: 'i' }] }),
        [],
        'flags only with matches',
      );
      assert.notDeepEqual(
        schemaErrors(toolCallMatch, { tool: 'search', params: [{ path: 'q', rule: 'near', value: 1 }] }),
        [],
        'unknown rule',
      );
      assert.notDeepEqual(schemaErrors(toolCallMatch, { tool: 'search', occurrence: 'some' }), []);
      assert.deepEqual(
        schemaErrors(toolCallMatch, {
          tool: 'search',
          params: [
            { path: 'q', rule: 'equals', value: null },
            { path: 'q', rule: 'type', value: ['string', 'null'] },
          ],
        }),
        [],
      );
    });

    it('accepts every example in its schema', () => {
      for (const example of (toolCallMatch.schema['examples'] as { [key: string]: Json }[]) ?? [])
        assert.deepEqual(schemaErrors(toolCallMatch, example), [], JSON.stringify(example));
    });
  });
});
