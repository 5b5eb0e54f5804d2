import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { translatePythonPattern } from '../../../../core/scorers/builtin/sql/pythonRegex';
import {
  pyDictEquals,
  pyEquals,
  pyFloatRepr,
  pyKey,
  pySplitLines,
  pyStrip,
  pyStrRepr,
  pyTupleRepr,
} from '../../../../core/scorers/support/pythonEquality';
import { rowDicts } from '../../../../core/scorers/support/sqlRows';

// Expected values below are what CPython 3.11 prints for the same expressions.
describe('Python value semantics', () => {
  it('== : None == None, 1 == 1.0 == True, NaN != NaN, 1 != "1", lists in order, dicts in any key order', () => {
    assert.ok(pyEquals(null, null));
    assert.ok(pyEquals(1, true) && pyEquals(0, false) && pyEquals(1.0, 1));
    assert.ok(!pyEquals(Number.NaN, Number.NaN));
    assert.ok(!pyEquals(1, '1') && !pyEquals(null, 0) && !pyEquals('', null));
    assert.ok(pyEquals([1, 'a'], [true, 'a']) && !pyEquals([1, 2], [2, 1]));
    assert.ok(pyEquals({ a: 1, b: [2] }, { b: [2.0], a: true }) && !pyEquals({ a: 1 }, { a: 1, b: 2 }));
    assert.ok(pyEquals(0, -0));
  });

  it('hash keys agree with ==, and NaN never shares one', () => {
    assert.equal(pyKey(1), pyKey(true));
    assert.equal(pyKey(0), pyKey(-0));
    assert.notEqual(pyKey(1), pyKey('1'));
    assert.notEqual(pyKey(Number.NaN), pyKey(Number.NaN));
    assert.equal(pyKey({ a: 1, b: 2 }), pyKey({ b: 2, a: 1 }));
    assert.notEqual(pyKey([1, 2]), pyKey([2, 1]));
  });

  it('rows become dicts: a repeated column name is one key at the first place with the last value', () => {
    const [row] = rowDicts({ columns: ['a', 'b', 'a'], rows: [[1, 2, 3]] });
    assert.deepEqual(row, { keys: ['a', 'b'], values: [3, 2] });
    assert.ok(row !== undefined && pyDictEquals(row, { keys: ['b', 'a'], values: [2, 3] }));
  });

  it('repr of floats: 1.0, 1e+16, 1e-05, -0.0, shortest digits', () => {
    assert.deepEqual(
      [1, 1e16, 1e15, 0.0001, 0.00001, -0, 1.5e-7, 123456789012345678, 0.1 + 0.2, Number.NaN, -Infinity].map(
        pyFloatRepr,
      ),
      [
        '1.0',
        '1e+16',
        '1000000000000000.0',
        '0.0001',
        '1e-05',
        '-0.0',
        '1.5e-07',
        '1.2345678901234568e+17',
        '0.30000000000000004',
        'nan',
        '-inf',
      ],
    );
  });

  it('repr of strings and tuples', () => {
    assert.equal(pyStrRepr("it's"), `"it's"`);
    assert.equal(pyStrRepr(`both ' "`), `'both \\' "'`);
    assert.equal(pyStrRepr('tab\there\n\x00\x7f\x85\xa0é\u200b😀'), "'tab\\there\\n\\x00\\x7f\\x85\\xa0é\\u200b😀'");
    assert.equal(pyTupleRepr([1, 'a', null]), "(1.0, 'a', None)");
    assert.equal(pyTupleRepr(['x']), "('x',)");
  });

  it("strip and splitlines use Python's white space and line breaks", () => {
    assert.equal(pyStrip('\u00a0\x1c x \u3000'), 'x');
    assert.equal(pyStrip('\ufeffx'), '\ufeffx', 'U+FEFF is not white space to Python');
    assert.deepEqual(pySplitLines('a\vb\x1cc\x85d\u2028e\r\nf\n'), ['a', 'b', 'c', 'd', 'e', 'f']);
    assert.deepEqual(pySplitLines(''), []);
  });
});

describe('Python regular expressions translated to ECMAScript', () => {
  const t = (pattern: string) => translatePythonPattern(pattern);

  it('keeps plain patterns as they are', () => {
    assert.deepEqual(t('SELECT .* FROM (a|b)+$'), { ok: true, source: 'SELECT .* FROM (a|b)+$', flags: '' });
  });

  it('turns leading global flags into flags, and (?x) into dropped white space and comments', () => {
    assert.deepEqual(t('(?i)(?s)select'), { ok: true, source: 'select', flags: 'is' });
    assert.deepEqual(t('(?x) a \\  b # note\n c'), { ok: true, source: 'a bc', flags: '' });
  });

  it('makes \\d \\w \\s \\b Unicode-aware, and ASCII with (?a)', () => {
    assert.equal((t('\\d\\w') as { source: string }).source, '\\p{Nd}[\\p{L}\\p{N}_]');
    assert.equal((t('(?a)\\d\\w\\s') as { source: string }).source, '[0-9][0-9A-Za-z_][\\t-\\r ]');
    assert.match((t('\\bx') as { source: string }).source, /^\(\?:\(\?<=\[\\p\{L\}/);
  });

  it('expresses a negated class escape inside a class as an alternation', () => {
    assert.equal((t('[^\\W\\d]') as { source: string }).source, '(?:(?![\\p{Nd}]|[^\\p{L}\\p{N}_])[\\s\\S])');
  });

  it('translates \\A, \\Z, named groups, octal, \\U, {,n}, literal braces and brackets, escaped punctuation', () => {
    const source = (p: string) => (t(p) as { source: string }).source;
    assert.equal(source('\\Ax\\Z'), '(?<![\\s\\S])x(?![\\s\\S])');
    assert.equal(source('(?P<q>a)(?P=q)'), '(?<q>a)(?:\\k<q>)');
    assert.equal(source('(a)\\1'), '(a)(?:\\1)');
    assert.equal(source('\\101\\0'), '\\x41\\x00');
    assert.equal(source('\\U0001F600'), '\\u{1f600}');
    assert.equal(source('a{,3}b{2,}c{}'), 'a{0,3}b{2,}c\\{\\}');
    assert.equal(source('[]a]]'), '[\\]a]\\]');
    assert.equal(source("\\-\\'\\ "), "-' ");
    assert.equal(source('(?#note)x'), 'x');
  });

  it('refuses what ECMAScript cannot express and what Python rejects, naming the place', () => {
    const refused = (p: string) => {
      const r = t(p);
      assert.equal(r.ok, false, p);
      return r.ok ? '' : r.message;
    };
    assert.match(refused('x(?i:a)'), /scoped inline flags .* \(at character 2\)$/);
    assert.match(refused('(?>a)'), /atomic groups/);
    assert.match(refused('a++'), /possessive/);
    assert.match(refused('(a)(?(1)b|c)'), /conditional/);
    assert.match(refused('\\N{BULLET}'), /named character/);
    assert.match(refused('\\z'), /bad escape \\z/);
    assert.match(refused('(?<n>a)'), /write \(\?P<name>…\)/);
    assert.match(refused('a(?i)'), /at the start of the pattern/);
    assert.match(refused('[a-z'), /not closed/);
    assert.match(refused('a{2}*'), /multiple repeat/);
    assert.match(refused('\\x4'), /incomplete escape/);
    assert.match(refused('[\\w-z]'), /cannot end a range/);
    assert.match(refused('(?L)a'), /bytes patterns/);
  });
});
