/**
 * Issue 13, item 8: YAML that threw out of the CLI (exit 70, a stack trace). A model config with an
 * unresolved alias or an alias bomb was read with `doc.toJS()`; `${VAR}` repeated past what a string
 * can hold was a RangeError. Each is now a problem at file:line:col saying what was expected.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRunConfig } from '../../../core/config/parseRunConfig';
import { parseDatabaseConfig } from '../../../core/sql/databaseConfig';
import { parseModelConfig } from '../../../core/judge/modelConfig';
import { MAX_EXPANDED_CHARS } from '../../../core/config/envExpand';
import { parseElementText } from '../../../core/dataset/jsonStream';
import type { Problem } from '../../../core/problem';

const where = (p: Problem | undefined): string => `${p?.range.start.line ?? -1}:${p?.range.start.column ?? -1}`;

function laughs(prefix: string): string {
  const lines = [`${prefix}a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]`];
  for (let n = 1; n < 9; n++)
    lines.push(`${prefix}a${n}: &a${n} [${Array.from({ length: 9 }, () => `*a${n - 1}`).join(', ')}]`);
  return `${lines.join('\n')}\n`;
}

describe('model configs read through the guarded YAML reader', () => {
  it('an alias that names no anchor is a problem at the alias', () => {
    const loaded = parseModelConfig('provider: openai\nmodel: *nope\n', '/w/model.yaml', {});
    assert.equal(loaded.ok, false);
    assert.match(loaded.problems[0]?.message ?? '', /the alias \*nope names no anchor/);
    assert.equal(where(loaded.problems[0]), '1:7');
  });

  it('a billion laughs is a problem, not an exception', () => {
    const loaded = parseModelConfig(`provider: openai\nmodel: gpt\n${laughs('')}`, '/w/model.yaml', {});
    assert.equal(loaded.ok, false);
    assert.match(
      loaded.problems[0]?.message ?? '',
      /the aliases expand to too much data \(at most 100 alias expansions are read/,
    );
  });

  it('database configs: the same (they already used the guarded reader)', () => {
    const loaded = parseDatabaseConfig('db_type: sqlite\ndatabase_name: *nope\n', '/w/db.yaml', {});
    assert.match(JSON.stringify(loaded), /the alias \*nope names no anchor/);
  });
});

describe('${VAR} amplification', () => {
  const env = { BIG: 'x'.repeat(128 * 1024) };

  it('one string that would pass the cap is a problem at it, never a RangeError', () => {
    const text = `dataset: data.jsonl\ndescription: "${'${BIG}'.repeat(5000)}"\nscorers:\n  exact_match: null\n`;
    const parsed = parseRunConfig(text, '/w/run.eval.yaml', env);
    const problem = parsed.problems.find((p) => p.code === 'expansion-too-long');
    assert.ok(problem, JSON.stringify(parsed.problems.map((p) => p.message)));
    assert.match(
      problem.message,
      new RegExp(
        `makes a string of more than ${MAX_EXPANDED_CHARS} characters; expected at most ${MAX_EXPANDED_CHARS}`,
      ),
    );
    assert.equal(where(problem), '1:13');
    assert.equal(parsed.config, undefined);
  });

  it('many strings each under the cap still stop at the cap for the whole file', () => {
    const lines = Array.from({ length: 200 }, (_, i) => `  k${i}: "${'${BIG}'.repeat(7)}"`);
    const text = `dataset: data.jsonl\nmetadata:\n${lines.join('\n')}\nscorers:\n  exact_match: null\n`;
    const parsed = parseRunConfig(text, '/w/run.eval.yaml', env);
    const problem = parsed.problems.find((p) => p.code === 'expansion-too-long');
    assert.ok(problem, JSON.stringify(parsed.problems.map((p) => p.message)));
    assert.match(problem.message, /makes more than 16777216 characters in all/);
  });

  it('model configs stop at the cap too', () => {
    const loaded = parseModelConfig(`provider: openai\nmodel: "${'${BIG}'.repeat(5000)}"\n`, '/w/model.yaml', env);
    assert.equal(loaded.ok, false);
    assert.ok(loaded.problems.some((p) => p.code === 'expansion-too-long'));
  });

  it("an evalset element whose ${VAR}s expand past a case is that element's error, at the placeholder", () => {
    const text = `{"id": "a", "starting_prompt": "${'${BIG}'.repeat(600)}"}`;
    const parsed = parseElementText(text, { offset: 100, line: 4, column: 2 }, '/w/evalset.json', env);
    assert.equal(parsed.ok, false);
    assert.ok(!parsed.ok && parsed.skip === true);
    assert.match(
      !parsed.ok ? parsed.what : '',
      /expanding \$\{BIG\} here makes the text longer than 67108864 characters/,
    );
  });
});
