import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Json } from '../../../../core/case';
import { cleanQuery, regexpMatcher } from '../../../../core/scorers/builtin/sql/regexpMatcher';
import { refusal, schemaErrors, score } from '../../../support/scoring';
import { execution, rows } from './executions';

const match = (patterns: string[], output: string, options: { [key: string]: Json } = {}) =>
  score(regexpMatcher, { regexp_string_list: patterns, ...options }, { output });

describe('regexp_matcher (EvalBench)', () => {
  it('searches each pattern anywhere in the query: any match scores 100', async () => {
    const v = await match(['FROM orders'], 'SELECT id FROM orders');
    assert.deepEqual([v.status, v.score], ['pass', 100]);
    assert.equal(
      v.reason,
      'the pattern matches the cleaned query at character 11; one match suffices (21 characters after cleaning)',
    );
    const w = await match(['JOIN', 'GROUP BY'], 'SELECT id FROM orders');
    assert.deepEqual([w.status, w.score], ['fail', 0]);
    assert.match(w.reason, /^none of the 2 patterns matches the cleaned query/);
  });

  it('is case-sensitive, as re.search is, unless the pattern starts with (?i)', async () => {
    assert.equal((await match(['from'], 'SELECT 1 FROM t')).score, 0);
    assert.equal((await match(['(?i)from'], 'SELECT 1 FROM t')).score, 100);
  });

  it('cleans the query: backticks off the ends, then white space runs to one space, then trimmed', async () => {
    assert.equal(cleanQuery('```SELECT\n\t*   FROM t```'), 'SELECT * FROM t');
    assert.equal(cleanQuery('  SELECT 1\u00a0\u2028 '), 'SELECT 1');
    assert.equal(
      cleanQuery(' `SELECT 1`'),
      '`SELECT 1',
      'a leading space protects the backtick: it is cut before trimming',
    );
    assert.equal((await match(['SELECT \\* FROM t'], '`SELECT\n  * FROM t`', { match_whole_query: true })).score, 100);
    assert.equal((await match(['SELECT 1'], ' `SELECT 1`', { match_whole_query: true })).score, 0);
  });

  it('match_whole_query compares the first match with the whole query: SELECT|SELECT 1 against SELECT 1 scores 0', async () => {
    const v = await match(['SELECT|SELECT 1'], 'SELECT 1', { match_whole_query: true });
    assert.equal(v.score, 0);
    assert.match(v.reason, /first match \(at character 1, 6 characters\) is not the whole cleaned query/);
    assert.equal((await match(['SELECT 1|SELECT'], 'SELECT 1', { match_whole_query: true })).score, 100);
    assert.equal((await match(['SELECT'], 'SELECT 1', { match_whole_query: true })).score, 0);
    assert.equal((await match(['SELECT'], 'SELECT 1')).score, 100);
  });

  it('match_all_patterns needs every pattern; an empty list then scores 100 (0 of 0), without it 0', async () => {
    assert.equal((await match(['SELECT', 'FROM'], 'SELECT 1', { match_all_patterns: true })).score, 0);
    const all = await match(['SELECT', '1'], 'SELECT 1', { match_all_patterns: true });
    assert.equal(all.score, 100);
    assert.match(all.reason, /^all 2 patterns match the cleaned query/);
    const empty = await match([], 'SELECT 1', { match_all_patterns: true });
    assert.deepEqual([empty.status, empty.score], ['pass', 100]);
    assert.equal((await match([], 'SELECT 1')).score, 0);
  });

  it('invert_results gives 100 − score', async () => {
    const hit = await match(['DROP'], 'DROP TABLE t', { invert_results: true });
    assert.deepEqual([hit.status, hit.score], ['fail', 0]);
    assert.match(hit.reason, /invert_results turns 100 into 0$/);
    assert.equal((await match(['DROP'], 'SELECT 1', { invert_results: true })).score, 100);
    assert.equal((await match([], 'SELECT 1', { invert_results: true, match_all_patterns: true })).score, 0);
  });

  it('runs Python syntax: Unicode \\w and \\d, \\Z, (?P<name>) and (?P=name), {,n}, literal braces', async () => {
    assert.equal(
      (await match(['^\\w+$'], 'naïve', { match_whole_query: true })).score,
      100,
      'ï is a word character to Python',
    );
    assert.equal((await match(['\\d'], 'LIMIT ٣')).score, 100, 'Arabic-Indic three is a decimal digit to Python');
    assert.equal((await match(['(?a)\\d'], 'LIMIT ٣')).score, 0, '(?a) makes \\d ASCII');
    assert.equal((await match(['1\\Z'], 'SELECT 1')).score, 100);
    assert.equal((await match(['(?P<q>["\'])x(?P=q)'], "SELECT 'x'")).score, 100);
    assert.equal((await match(['^a{,2}$'], 'aa')).score, 100);
    assert.equal((await match(['{x}'], 'SELECT {x}')).score, 100);
    assert.equal((await match(['(?x) SELECT \\  1  # the literal'], 'SELECT 1')).score, 100);
  });

  it("lists each pattern's run and its ECMAScript form in details", async () => {
    const v = await match(['(?i)select', 'x'], 'SELECT 1');
    assert.deepEqual(v.details?.['patterns'], [
      {
        pattern: 1,
        result: 'matched',
        counted: true,
        elapsed_ms: (v.details?.['patterns'] as { elapsed_ms: number }[])[0]?.elapsed_ms ?? 0,
        at: 1,
        length: 6,
      },
    ]);
    assert.equal(v.details?.['not_run'], 1);
    assert.deepEqual((v.details?.['translations'] as { ecmascript: string; flags: string }[])[0], {
      pattern: 1,
      ecmascript: 'select',
      flags: 'iu',
      guard: 'direct',
    });
  });

  it('reads the executed SQL when the case ran, else the output', async () => {
    const v = await score(
      regexpMatcher,
      { regexp_string_list: ['JOIN'] },
      { output: 'SELECT 1', sql: execution(rows([]), rows([]), { generatedSql: 'SELECT * FROM a JOIN b' }) },
    );
    assert.equal(v.score, 100);
    assert.equal(v.details?.['query_from'], 'execution');
    const none = await score(regexpMatcher, { regexp_string_list: ['x'], invert_results: true }, {});
    assert.equal(none.status, 'unsupported', 'no generated SQL recorded: not decided, and never an inverted pass');
    assert.equal(none.score, undefined);
    const empty = await score(regexpMatcher, { regexp_string_list: ['x'], invert_results: true }, { output: '' });
    assert.equal(empty.score, 100, 'a recorded empty answer is matched as text, as EvalBench matches it');
  });

  it("refuses, at load, what ECMAScript cannot express and what Python rejects, at the pattern's index", () => {
    const issues = refusal(regexpMatcher, {
      regexp_string_list: ['ok', '(?i:a)', 'a*+', '(?>a)', '\\e', '(?<n>a)', 'a(?i)b', '[a'],
    });
    assert.deepEqual(
      issues.map((i) => i.path[1]),
      [1, 2, 3, 4, 5, 6, 7],
    );
    assert.match(issues[0]?.message ?? '', /^pattern 2 cannot be run: scoped inline flags/);
    assert.match(issues[3]?.message ?? '', /^pattern 5 cannot be run: bad escape \\e/);
  });

  it('refuses a pattern that can backtrack catastrophically, as the regex scorer does', () => {
    const issues = refusal(regexpMatcher, { regexp_string_list: ['^(a|a)*$'] });
    assert.match(
      issues[0]?.message ?? '',
      /run as the ECMAScript pattern .* can backtrack catastrophically: matching takes exponential time/,
    );
  });

  it('requires regexp_string_list (regexp_matcher: null is a config error)', () => {
    assert.notDeepEqual(schemaErrors(regexpMatcher, {}), []);
  });

  it('keeps the query text out of reasons', async () => {
    for (const options of [{}, { match_whole_query: true }, { match_all_patterns: true }]) {
      const v = await match(['hunter\\d', 'zzz'], "SELECT 'hunter2'", options);
      assert.doesNotMatch(v.reason, /SELECT|hunter2'/);
    }
  });
});
