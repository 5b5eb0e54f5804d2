import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { DatasetRecord } from '../../../core/case';
import { DatasetError } from '../../../core/dataset/datasetError';
import { readNl2sql } from '../../../core/dataset/nl2sql';
import { pythonJsonDumps } from '../../../core/dataset/nl2sqlItems';
import { caseSelector as caseIdPredicate } from '../../../core/dataset/caseSelection';
import { openDataset } from '../../../core/dataset/open';
import { compileGlob } from '../../../core/text/glob';
import type { DatasetSource, Nl2sqlSource } from '../../../core/dataset/source';
import { failed, located, readAll } from '../../support/datasetRecords';

const evalbench = (name: string): string => join(__dirname, '..', '..', 'fixtures', 'evalbench', name);
const PROMPTS = evalbench('datasets/bat/prompts.json');
const BIRD = evalbench('datasets/bird/financial.json');

const standard = (path: string, filters: Omit<Nl2sqlSource, 'format'> = {}): DatasetSource => ({
  path,
  nl2sql: { format: 'evalbench-standard-format', ...filters },
});
const bird = (filters: Omit<Nl2sqlSource, 'format'> = {}): DatasetSource => ({
  path: BIRD,
  nl2sql: { format: 'bird-standard-format', ...filters },
});
const read = (source: DatasetSource): Promise<DatasetRecord[]> => readAll(readNl2sql, source);
const ids = (records: readonly DatasetRecord[]): string[] =>
  records.map((r) => (r.ok ? r.value.case.id : `!${r.error.id}`));

describe('evalbench-standard-format reader', () => {
  it('makes one case per item: id, nl_prompt, the recorded generated_sql, the golden SQL of the dialect, tags and other', async () => {
    const records = await read(standard(PROMPTS));
    assert.deepEqual(ids(records), ['1', '2', 'ddl-1', '4', '5']);
    assert.deepEqual(located(records[0]).case, {
      id: '1',
      input: 'How many users are there?',
      output: 'SELECT count(*) FROM users',
      expected: {
        golden_sql: ['SELECT COUNT(*) FROM users;'],
        query_type: 'dql',
        database: 'db_blog',
        dialect: 'sqlite',
      },
      metadata: {
        tags: ['easy', 'count'],
        other: {
          source: '"bat"',
          rank: '1',
          ok: 'true',
          notes: '{"lang": ["en", "fr"], "author": "Zo\\u00eb"}',
          none: 'null',
        },
      },
    });
  });

  it('reads a DML item with its eval queries (nulls kept), setup and cleanup, and generated_sql per dialect', async () => {
    const dml = located((await read(standard(PROMPTS)))[1]).case;
    assert.equal(dml.output, "INSERT INTO users (id, name) VALUES (3, 'Ada')");
    assert.deepEqual(dml.expected, {
      golden_sql: ["INSERT INTO users (id, name) VALUES (3, 'Ada');"],
      eval_query: ['SELECT id, name FROM users ORDER BY id;', null],
      setup_sql: ["DELETE FROM users WHERE name = 'Ada';"],
      cleanup_sql: ["DELETE FROM users WHERE name = 'Ada';"],
      query_type: 'dml',
      database: 'db_blog',
      dialect: 'sqlite',
    });
    assert.deepEqual(dml.metadata, { tags: [], other: {} });
  });

  it('lower-cases query_type, leaves out empty statement lists, and gives a case without generated_sql no output', async () => {
    const ddl = located((await read(standard(PROMPTS)))[2]).case;
    assert.equal(ddl.output, undefined);
    assert.ok(!('output' in ddl));
    assert.deepEqual(ddl.expected, {
      golden_sql: ['CREATE INDEX idx_posts_user ON posts (user_id);'],
      eval_query: ["SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'posts';"],
      cleanup_sql: ['DROP INDEX IF EXISTS idx_posts_user;'],
      query_type: 'ddl',
      database: 'db_blog',
      dialect: 'sqlite',
    });
    assert.deepEqual(ddl.metadata, { tags: ['ddl'], other: { reviewed: 'false' } });
  });

  it("gives each case its item's exact range", async () => {
    const records = await read(standard(PROMPTS));
    const first = located(records[0]);
    assert.deepEqual(first.range.start, { offset: 4, line: 1, column: 2 });
    assert.equal(first.range.end.line, 17);
    assert.equal(located(records[1]).range.start.line, 18);
    assert.deepEqual(
      [0, 1, 2, 3, 4].map((i) => located(records[i]).index),
      [0, 1, 2, 3, 4],
    );
  });

  it('reads each item for the first configured dialect it supports, in the order of the config', async () => {
    const records = await read(standard(PROMPTS, { dialects: ['postgres', 'sqlite'] }));
    const first = located(records[0]).case;
    assert.deepEqual(first.expected, {
      golden_sql: ['SELECT COUNT(*) FROM users;'],
      query_type: 'dql',
      database: 'db_blog',
      dialect: 'postgres',
    });
    const dml = located(records[1]).case;
    assert.equal((dml.expected as { dialect: string }).dialect, 'sqlite');
  });

  it('drops the items the dialects, query_types (any case) and databases filters leave out: they are not cases', async () => {
    assert.deepEqual(ids(await read(standard(PROMPTS, { dialects: ['sqlite'] }))), ['1', '2', 'ddl-1', '5']);
    assert.deepEqual(ids(await read(standard(PROMPTS, { dialects: ['postgres'] }))), ['1', '4']);
    assert.deepEqual(ids(await read(standard(PROMPTS, { queryTypes: ['DML', 'ddl'] }))), ['2', 'ddl-1']);
    assert.deepEqual(ids(await read(standard(PROMPTS, { databases: ['db_shop'] }))), ['5']);
    assert.deepEqual(
      ids(await read(standard(PROMPTS, { dialects: ['sqlite'], queryTypes: ['dql'], databases: ['db_blog'] }))),
      ['1'],
    );
  });

  it('keeps everything for empty dialects and databases lists, and nothing for an empty query_types list (as EvalBench)', async () => {
    assert.equal((await read(standard(PROMPTS, { dialects: [], databases: [] }))).length, 5);
    assert.deepEqual(await read(standard(PROMPTS, { queryTypes: [] })), []);
  });

  it('makes a malformed item an error record naming its line; the other items still run', async () => {
    // The filters run first, on the fields they need: item g (ddl) is dropped before its bad golden_sql is seen.
    const records = await read(standard(evalbench('malformed.json'), { queryTypes: ['dql', 'dml'] }));
    assert.deepEqual(ids(records), ['a', '!case-2', '!b', '!c', '!case-5', '!d', '!e', '!case-8', '!f', '!h']);
    const messages = records.filter((r) => !r.ok).map((r) => failed(r).message);
    assert.deepEqual(messages, [
      'item at line 3: an item must be a JSON object, not a number',
      'item at line 4: field "nl_prompt" must be a string, not a number',
      'item at line 5: field "query_type" must be dql, dml or ddl (in any case)',
      'duplicate case id "a"; first defined at line 2',
      'item at line 7: field "golden_sql" must be an object of dialect → SQL statements, not a string',
      'item at line 8: field "other" must be an object, not an array',
      'item at line 9: field "id" must be a string or a number, not null',
      'item at line 10: field "generated_sql" must be a string or an object of dialect → SQL, not a number',
      'item at line 12: field "dialects" lists no dialect, so the item runs nowhere',
    ]);
    assert.equal(failed(records[1]).range.start.line, 2);
  });

  it('makes a syntax error one error record at its position, after the items before it, and reads nothing after it', async () => {
    const records = await read(standard(evalbench('syntax-error.json')));
    assert.deepEqual(ids(records), ['a', '!case-2']);
    const error = failed(records[1]);
    assert.equal(error.range.start.line, 2);
    assert.match(
      error.message,
      /^not valid JSON at line 3, column \d+: .*; the rest of the file is not read until this is fixed$/,
    );
  });

  it('throws a DatasetError naming what the file holds when it is not an array', async () => {
    await assert.rejects(read(standard(evalbench('not-an-array.json'))), (error: unknown) => {
      assert.ok(error instanceof DatasetError);
      assert.match(
        error.message,
        /the evalbench-standard-format dataset .*not-an-array\.json must hold a JSON array of items, but it holds an object$/,
      );
      return true;
    });
  });

  it('reads recorded trials: generated_sql (or per dialect) as output, error as error', async () => {
    const [record] = await read(standard(evalbench('trials.json')));
    assert.deepEqual(located(record).case.trials, [
      { output: 'SELECT COUNT(*) FROM users' },
      { output: 'SELECT COUNT(id) FROM users' },
      { error: 'the model timed out' },
    ]);
  });
});

describe('bird-standard-format reader', () => {
  it('joins question and evidence as EvalBench does (nothing between, backticks as double quotes), tags the difficulty, and is dql', async () => {
    const records = await read(bird());
    assert.deepEqual(ids(records), ['0', '1', 'q3', '4']);
    assert.deepEqual(located(records[0]).case, {
      id: '0',
      input: 'How many accounts are there? The "account" table holds one row per account.',
      output: 'SELECT COUNT(account_id) FROM account',
      expected: {
        golden_sql: ['SELECT COUNT(*) FROM account'],
        query_type: 'dql',
        database: 'financial',
        dialect: 'sqlite',
      },
      metadata: { tags: ['simple'], difficulty: 'simple' },
    });
  });

  it('defaults db_id to the file stem and drops items with empty SQL', async () => {
    const records = await read(bird());
    assert.deepEqual(located(records[1]).case.expected, {
      golden_sql: ['SELECT A2 FROM district'],
      query_type: 'dql',
      database: 'financial',
      dialect: 'sqlite',
    });
    assert.ok(!ids(records).includes('2'));
  });

  it('applies SQL to the first configured dialect, and reads golden_sql for the first configured dialect the item has', async () => {
    const records = await read(bird({ dialects: ['postgres', 'sqlite'] }));
    assert.equal((located(records[0]).case.expected as { dialect: string }).dialect, 'postgres');
    const q3 = located(records[2]).case;
    assert.equal(q3.input, 'Which client is the oldest?Oldest means the earliest birth_date.');
    assert.deepEqual(q3.expected, {
      golden_sql: ['SELECT client_id FROM client ORDER BY birth_date LIMIT 1'],
      query_type: 'dql',
      database: 'financial',
      dialect: 'postgres',
    });
    assert.deepEqual(q3.metadata, { tags: ['challenging'] });
    const sqliteOnly = await read(bird({ dialects: ['sqlite'] }));
    assert.deepEqual(located(sqliteOnly[2]).case.expected, {
      golden_sql: ['SELECT client_id FROM client ORDER BY birth_date ASC LIMIT 1'],
      query_type: 'dql',
      database: 'financial',
      dialect: 'sqlite',
    });
    assert.deepEqual(
      ids(await read(bird({ dialects: ['mysql'] }))),
      ['0', '1', '4'],
      'golden_sql without the dialect: dropped',
    );
  });

  it('filters BIRD items by databases (db_id) and query_types (always dql)', async () => {
    assert.deepEqual(ids(await read(bird({ databases: ['card_games'] }))), ['4']);
    assert.deepEqual(await read(bird({ queryTypes: ['dml'] })), []);
  });
});

describe('NL2SQL datasets through openDataset', () => {
  it('dispatches to the NL2SQL reader whatever the extension says', async () => {
    const records = await readAll(openDataset, bird());
    assert.equal(records.length, 4);
  });

  it('with an inferred format, reads an NL2SQL file as NL2SQL and anything else as an ordinary JSON dataset', async () => {
    const inferred = (path: string): DatasetSource => ({
      path,
      nl2sql: { format: 'evalbench-standard-format', inferred: true },
    });
    assert.deepEqual(ids(await readAll(openDataset, inferred(PROMPTS))), ['1', '2', 'ddl-1', '4', '5']);
    assert.equal(
      located((await readAll(openDataset, inferred(BIRD)))[0]).case.input,
      'How many accounts are there? The "account" table holds one row per account.',
    );
    const plain = await readAll(openDataset, inferred(evalbench('cases.json')));
    assert.deepEqual(located(plain[0]).case, { id: 'plain-1', input: '2+2', output: '4', expected: '4' });
  });

  it('keeps only the cases whose ids pass scenarios and scenario_pattern', async () => {
    const source = (caseIds: DatasetSource['caseIds']): DatasetSource => ({
      ...standard(PROMPTS),
      ...(caseIds === undefined ? {} : { caseIds }),
    });
    assert.deepEqual(ids(await readAll(openDataset, source({ ids: ['5', '1', 'nope'] }))), ['1', '5']);
    assert.deepEqual(ids(await readAll(openDataset, source({ filter: 'ddl-*' }))), ['ddl-1']);
    assert.deepEqual(ids(await readAll(openDataset, source({ ids: ['1', '2'], filter: '[!1]' }))), ['2']);
  });
});

describe('EvalBench helpers', () => {
  it("writes values as Python's json.dumps does", () => {
    assert.equal(
      pythonJsonDumps({ a: [1, 'x', null, true], 'b"': { c: 1.5 } }),
      '{"a": [1, "x", null, true], "b\\"": {"c": 1.5}}',
    );
    assert.equal(pythonJsonDumps('tab\tcafé 😀\u007f'), '"tab\\tcaf\\u00e9 \\ud83d\\ude00\\u007f"');
    assert.equal(pythonJsonDumps([]), '[]');
    assert.equal(pythonJsonDumps({}), '{}');
  });

  it('reads globs as fnmatch does', () => {
    const cases: [string, string, boolean][] = [
      ['sql_*', 'sql_1', true],
      ['sql_?', 'sql_12', false],
      ['a[!b]c', 'acc', true],
      ['a[!b]c', 'abc', false],
      ['a[b-d]', 'ac', true],
      ['[]]', ']', true],
      ['a[b', 'a[b', true],
      ['x.y', 'xzy', false],
      ['Case', 'case', false],
    ];
    for (const [glob, id, matches] of cases) assert.equal(compileGlob(glob).test(id), matches, `${glob} ~ ${id}`);
    assert.equal(caseIdPredicate({ ids: [] })('anything'), true);
  });
});
