import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { regex } from '../../../core/scorers/builtin/regex';
import { refusal, schemaErrors, score } from '../../support/scoring';

describe('regex', () => {
  it('mode match (default) passes when the pattern is found anywhere, not only at the start', async () => {
    const v = await score(regex, { pattern: 'order #\\d+' }, { output: 'Thanks! Your order #123 is confirmed.' });
    assert.equal(v.status, 'pass');
    assert.equal(v.score, 1);
    assert.match(v.reason, /at character 14/);
  });

  it('mode match fails when the pattern is found nowhere', async () => {
    const v = await score(regex, { pattern: 'order #\\d+' }, { output: 'No order here.' });
    assert.equal(v.status, 'fail');
    assert.equal(v.score, 0);
    assert.match(v.reason, /matches nowhere/);
  });

  it('full_match needs the whole output to match', async () => {
    assert.equal(
      (await score(regex, { pattern: '\\d{3}-\\d{4}', mode: 'full_match' }, { output: '555-1234' })).status,
      'pass',
    );
    const v = await score(regex, { pattern: '\\d{3}-\\d{4}', mode: 'full_match' }, { output: 'call 555-1234' });
    assert.equal(v.status, 'fail');
    assert.match(v.reason, /does not match the whole output/);
  });

  it('full_match anchors the pattern (^(?:p)$) instead of comparing the first match', async () => {
    // The first match of a|ab in "ab" is "a", which is not the output; anchored, the alternation backtracks to "ab".
    assert.equal((await score(regex, { pattern: 'a|ab', mode: 'full_match' }, { output: 'ab' })).status, 'pass');
    assert.equal((await score(regex, { pattern: 'a|b', mode: 'full_match' }, { output: 'ab' })).status, 'fail');
  });

  it('full_match with the m flag still needs the whole output, while ^ and $ inside match at lines', async () => {
    assert.equal(
      (await score(regex, { pattern: 'foo', mode: 'full_match', flags: 'm' }, { output: 'foo\nbar' })).status,
      'fail',
    );
    assert.equal(
      (await score(regex, { pattern: '(?:^\\w+$\\n?)+', mode: 'full_match', flags: 'm' }, { output: 'foo\nbar' }))
        .status,
      'pass',
    );
  });

  it('no_match passes when the pattern is absent and fails where it is found', async () => {
    assert.equal(
      (await score(regex, { pattern: '\\bpassword\\b', mode: 'no_match' }, { output: 'all clear' })).status,
      'pass',
    );
    const v = await score(regex, { pattern: '\\bpassword\\b', mode: 'no_match' }, { output: 'the password is x' });
    assert.equal(v.status, 'fail');
    assert.match(v.reason, /at character 5, and mode is no_match/);
  });

  it('applies the i and s flags, and always compiles with u', async () => {
    assert.equal((await score(regex, { pattern: 'hello', flags: 'i' }, { output: 'HELLO' })).status, 'pass');
    assert.equal((await score(regex, { pattern: 'a.b', flags: 's' }, { output: 'a\nb' })).status, 'pass');
    assert.equal((await score(regex, { pattern: 'a.b' }, { output: 'a\nb' })).status, 'fail');
    // With u, . is one code point, so an emoji is one character.
    assert.equal((await score(regex, { pattern: '^.$' }, { output: '😀' })).status, 'pass');
  });

  it('with several patterns and match_all true (default), every pattern must match', async () => {
    const options = { patterns: ['\\d', '[a-z]', '!'] };
    assert.equal((await score(regex, options, { output: 'a1!' })).status, 'pass');
    const v = await score(regex, options, { output: 'a1' });
    assert.equal(v.status, 'fail');
    assert.match(v.reason, /pattern 3 of 3 matches nowhere/);
  });

  it('with match_all false, any one pattern suffices', async () => {
    const options = { patterns: ['cat', 'dog'], match_all: false };
    const v = await score(regex, options, { output: 'hotdog' });
    assert.equal(v.status, 'pass');
    assert.match(v.reason, /pattern 2 of 2/);
    assert.equal((await score(regex, options, { output: 'bird' })).status, 'fail');
  });

  it('no_match with match_all true passes only when no pattern is found; with false, when one is not', async () => {
    const output = 'token: abc';
    assert.equal((await score(regex, { patterns: ['token', 'secret'], mode: 'no_match' }, { output })).status, 'fail');
    assert.equal(
      (await score(regex, { patterns: ['token', 'secret'], mode: 'no_match', match_all: false }, { output })).status,
      'pass',
    );
    assert.equal(
      (await score(regex, { patterns: ['token', 'abc'], mode: 'no_match', match_all: false }, { output })).status,
      'fail',
    );
  });

  it('converts nothing: a number output fails and names the kind it saw', async () => {
    const v = await score(regex, { pattern: '^\\d+$' }, { output: 42 });
    assert.equal(v.status, 'fail');
    assert.match(v.reason, /the output is a number, not a string; nothing is converted/);
  });

  it('fails a case without an output', async () => {
    assert.equal((await score(regex, { pattern: 'x', mode: 'no_match' }, {})).status, 'fail');
  });

  it('is an error, not a match, when the output is longer than max_input_chars; at the limit it is matched', async () => {
    const over = await score(regex, { pattern: 'a', max_input_chars: 5 }, { output: 'aaaaaa' });
    assert.equal(over.status, 'error');
    assert.match(over.reason, /6 characters, longer than max_input_chars \(5\)/);
    assert.equal((await score(regex, { pattern: 'a$', max_input_chars: 5 }, { output: 'aaaaa' })).status, 'pass');
  });

  it('counts max_input_chars in code points', async () => {
    assert.equal((await score(regex, { pattern: '😀', max_input_chars: 3 }, { output: '😀😀😀' })).status, 'pass');
  });

  it('runs a pattern recheck cannot decide in isolation, and answers timeout when it is interrupted', async () => {
    // recheck cannot decide ^(a|\1a)+$ (config load waits for its time limit), yet it is exponential in V8.
    const options = { pattern: '^(a|\\1a)+$', match_timeout_ms: 100 };
    assert.equal((await score(regex, options, { output: 'aaa' })).status, 'pass');
    const v = await score(regex, options, { output: `${'a'.repeat(40)}!` });
    assert.equal(v.status, 'timeout');
    assert.match(v.reason, /was stopped at the match time limit of 100 ms/);
    const patterns = v.details?.['patterns'] as { guard: string; interrupted: boolean }[];
    assert.deepEqual([patterns[0]?.guard, patterns[0]?.interrupted], ['isolated', true]);
  });

  it('lets another pattern decide when one times out', async () => {
    const options = { patterns: ['^(a|\\1a)+$', 'b'], match_all: true, match_timeout_ms: 50 };
    assert.equal((await score(regex, options, { output: `${'a'.repeat(40)}!` })).status, 'fail');
    assert.equal(
      (await score(regex, { ...options, match_all: false }, { output: `${'a'.repeat(40)}!` })).status,
      'timeout',
    );
  });

  it('reads the field picked with output_path', async () => {
    const v = await score(
      regex,
      { pattern: '^[A-Z]{3}$', mode: 'full_match', output_path: 'code' },
      { output: { code: 'OSL', name: 'Oslo' } },
    );
    assert.equal(v.status, 'pass');
  });

  it('keeps payload text out of reasons', async () => {
    const output = 'customer secret: hunter2';
    for (const options of [
      { pattern: 'hunter\\d' },
      { pattern: 'zzz' },
      { pattern: 'hunter2', mode: 'no_match' },
      { pattern: 'x', mode: 'full_match' },
    ]) {
      const v = await score(regex, options, { output });
      assert.doesNotMatch(v.reason, /customer|secret|hunter/);
    }
  });

  it('refuses a pattern that does not compile, at load, saying why', () => {
    const issues = refusal(regex, { pattern: '(unclosed' });
    assert.deepEqual(issues[0]?.path, ['pattern']);
    assert.match(issues[0]?.message ?? '', /does not compile as an ECMAScript regular expression.*Unterminated group/);
  });

  it('refuses an escape that is only invalid with the u flag', () => {
    assert.deepEqual(refusal(regex, { pattern: '\\-' })[0]?.path, ['pattern']);
  });

  it('refuses each bad pattern of a list at its index', () => {
    const issues = refusal(regex, { patterns: ['ok', '[', '^(a|a)*$'] });
    assert.deepEqual(
      issues.map((i) => i.path),
      [
        ['patterns', 1],
        ['patterns', 2],
      ],
    );
  });

  it('refuses exponential backtracking, quoting the part of the pattern at fault', () => {
    const issues = refusal(regex, { pattern: '^(\\w+\\s?)+$' });
    assert.deepEqual(issues[0]?.path, ['pattern']);
    assert.match(issues[0]?.message ?? '', /catastrophically.*exponential/);
    assert.match(issues[0]?.message ?? '', /"\\w" at characters 3-4/);
  });

  it('refuses polynomial backtracking too, naming the complexity', () => {
    const issues = refusal(regex, { pattern: '\\s*#\\s*$' });
    assert.match(issues[0]?.message ?? '', /polynomial \(degree 2\)/);
  });

  it('checks full_match patterns as they run: anchoring can make a harmless pattern vulnerable', async () => {
    assert.equal((await score(regex, { pattern: '(a+)+' }, { output: 'aaa' })).status, 'pass');
    const issues = refusal(regex, { pattern: '(a+)+', mode: 'full_match' });
    assert.match(issues[0]?.message ?? '', /exponential/);
  });

  it('schema: needs exactly one of pattern and patterns', () => {
    assert.notDeepEqual(schemaErrors(regex, {}), []);
    assert.notDeepEqual(schemaErrors(regex, { pattern: 'a', patterns: ['b'] }), []);
    assert.deepEqual(schemaErrors(regex, { patterns: ['b'] }), []);
  });

  it('schema: rejects empty patterns and an empty list', () => {
    assert.notDeepEqual(schemaErrors(regex, { pattern: '' }), []);
    assert.notDeepEqual(schemaErrors(regex, { patterns: [] }), []);
    assert.notDeepEqual(schemaErrors(regex, { patterns: ['a', ''] }), []);
  });

  it('schema: flags are a subset of imsu, each at most once', () => {
    assert.deepEqual(schemaErrors(regex, { pattern: 'a', flags: 'si' }), []);
    assert.notDeepEqual(schemaErrors(regex, { pattern: 'a', flags: 'g' }), []);
    assert.notDeepEqual(schemaErrors(regex, { pattern: 'a', flags: 'y' }), []);
    assert.notDeepEqual(schemaErrors(regex, { pattern: 'a', flags: 'ii' }), []);
  });

  it('schema: rejects an unknown mode and out-of-range limits', () => {
    assert.notDeepEqual(schemaErrors(regex, { pattern: 'a', mode: 'search' }), []);
    assert.notDeepEqual(schemaErrors(regex, { pattern: 'a', match_timeout_ms: 0 }), []);
    assert.notDeepEqual(schemaErrors(regex, { pattern: 'a', match_timeout_ms: 2001 }), []);
    assert.notDeepEqual(schemaErrors(regex, { pattern: 'a', match_timeout_ms: 1.5 }), []);
    assert.notDeepEqual(schemaErrors(regex, { pattern: 'a', max_input_chars: 0 }), []);
    assert.deepEqual(schemaErrors(regex, { pattern: 'a', match_timeout_ms: 2000 }), []);
  });
});
