import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { DatasetRecord } from '../../../core/case';
import { failed, fixture, located, readAll } from '../../support/datasetRecords';
import { DatasetError } from '../../../core/dataset/datasetError';
import { readJson } from '../../../core/dataset/json';
import { traceOf } from '../../../core/trace/traceOf';

const read = (name: string): Promise<DatasetRecord[]> => readAll(readJson, { path: fixture(name) });

describe('JSON reader', () => {
  it('reads an array of cases in order, with positional ids case-N', async () => {
    const records = await read('cases.json');
    assert.deepEqual(
      records.map((r) => located(r).case.id),
      ['a', 'case-2', '3'],
    );
    assert.deepEqual(located(records[0]).case, { id: 'a', input: 'x', expected: 'y' });
    assert.deepEqual(located(records[2]).case.metadata, { extra: true });
  });

  it("gives each case its element's exact range", async () => {
    const records = await read('cases.json');
    const second = located(records[1]);
    assert.deepEqual(second.range.start, { offset: 50, line: 2, column: 2 });
    assert.deepEqual(second.range.end, { offset: 68, line: 2, column: 20 });
    assert.equal(second.index, 1);
  });

  it('reads an object with a cases array', async () => {
    const records = await read('cases-object.json');
    assert.equal(records.length, 1);
    assert.equal(located(records[0]).case.id, 'only');
    assert.deepEqual(located(records[0]).range.start, { offset: 38, line: 3, column: 4 });
  });

  it('throws a DatasetError naming what the file holds when it is not an array of cases', async () => {
    await assert.rejects(read('not-an-array.json'), (error: unknown) => {
      assert.ok(error instanceof DatasetError);
      assert.match(
        error.message,
        /must hold a JSON array of cases \(or an object with a "cases" array\), but it holds an object without a "cases" field$/,
      );
      assert.deepEqual(error.range?.start, { offset: 0, line: 0, column: 0 });
      return true;
    });
  });

  it('throws a DatasetError for an empty file', async () => {
    await assert.rejects(
      read('empty.json'),
      (error: unknown) => error instanceof DatasetError && /but the file is empty$/.test(error.message),
    );
  });

  it('makes a syntax error one error record at its position, after the cases before it, and reads nothing after it', async () => {
    const records = await read('syntax-error.json');
    assert.equal(records.length, 2);
    assert.equal(located(records[0]).case.id, 'a');
    const error = failed(records[1]);
    assert.deepEqual(error.range.start, { offset: 44, line: 2, column: 27 });
    assert.equal(error.id, 'case-2');
    assert.equal(error.index, 1);
    assert.equal(
      error.message,
      `not valid JSON at line 3, column 28: expected ',' between values, found '"'; the rest of the file is not read until this is fixed`,
    );
  });

  it('makes an element that is not an object an error record, and checks duplicate ids', async () => {
    const records = await read('element-not-object.json');
    assert.equal(failed(records[1]).message, 'a case must be a JSON object, this element is a number');
    assert.equal(failed(records[1]).id, 'case-2');
    assert.equal(failed(records[2]).message, 'duplicate case id "a"; first defined at line 2');
    assert.equal(failed(records[2]).id, 'case-3');
  });

  it('throws a DatasetError for a missing file', async () => {
    await assert.rejects(
      read('missing.json'),
      (error: unknown) =>
        error instanceof DatasetError && /^cannot read dataset .*missing\.json: no such file$/.test(error.message),
    );
  });
});

describe('JSON reader: EvalBench agentic evalsets', () => {
  const evalset = (name: string): string => join(__dirname, '..', '..', 'fixtures', 'traces', name);
  const readEvalset = (name: string): Promise<DatasetRecord[]> => readAll(readJson, { path: evalset(name) });
  const ENV = { EVALLENS_TEST_PROJECT: 'acme-prod', EVALLENS_TEST_MAX_TURNS: '5' } as const;
  let saved: { [key: string]: string | undefined } = {};
  beforeEach(() => {
    saved = Object.fromEntries(Object.keys(ENV).map((key) => [key, process.env[key]]));
    Object.assign(process.env, ENV);
  });
  afterEach(() => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });

  it('reads each scenario as a case: id, input, expected, trace, and the rest but env as metadata', async () => {
    const records = await readEvalset('agent-evalset.json');
    assert.deepEqual(
      records.map((r) => located(r).case.id),
      ['list-instances', 'skills-only', 'case-3'],
    );
    const first = located(records[0]).case;
    assert.equal(first.input, 'Which Cloud SQL instances do we have?');
    assert.deepEqual(first.expected, {
      trajectory: ['cloud-sql__list_instances', 'bigquery__run_query'],
      skills: ['sql-analyst'],
    });
    assert.deepEqual(first.metadata, {
      conversation_plan: 'Ask for the instances, then ask how many orders orders-db got last week.',
      max_turns: 5,
      binary_rubric: ['Names both instances', 'Reports the order count'],
    });
    assert.deepEqual(Object.keys(first.trace as object), ['conversation_history']);

    assert.deepEqual(located(records[1]).case, {
      id: 'skills-only',
      input: 'Draft a dbt model for daily revenue.',
      expected: { trajectory: [], skills: ['dbt-author'] },
      metadata: {
        conversation_plan: 'Ask for the model; accept the first reasonable draft.',
        max_turns: 3,
        kind: 'skills',
        work_dir: 'projects/revenue',
      },
    });
    assert.deepEqual(located(records[2]).case, {
      id: 'case-3',
      input: 'Show the schema of the orders table in acme-prod.',
      expected: { trajectory: ['bigquery__get_table_info'] },
      trace: { accumulated_tools: ['mcp_bigquery_get_table_info'], accumulated_skills: [] },
      metadata: { conversation_plan: 'Ask once.', max_turns: 1 },
    });
  });

  it("gives each scenario its element's range in the file as written, placeholders and all", async () => {
    const text = await readFile(evalset('agent-evalset.json'), 'utf8');
    const records = await readEvalset('agent-evalset.json');
    const starts = [...text.matchAll(/^ {4}\{$/gm)].map((m) => m.index + 4);
    const ends = [...text.matchAll(/^ {4}\},?$/gm)].map((m) => m.index + 5);
    assert.deepEqual(
      records.map((r) => located(r).range.start.offset),
      starts,
    );
    assert.deepEqual(
      records.map((r) => located(r).range.end.offset),
      ends,
    );
    assert.deepEqual(
      records.map((r) => [located(r).range.start.line, located(r).range.end.line]),
      [
        [2, 35],
        [36, 47],
        [48, 59],
      ],
    );
    assert.deepEqual(located(records[0]).range.start, { offset: starts[0], line: 2, column: 4 });
  });

  it('gives the trace scorers the recorded conversation in canonical names', async () => {
    const [record] = await readEvalset('agent-evalset.json');
    const lookup = traceOf(located(record).case);
    assert.ok(lookup.ok);
    const calls = lookup.trace.steps.flatMap((s) => (s.kind === 'tool_call' ? [`${s.turn}:${s.name}`] : []));
    assert.deepEqual(calls, [
      '0:cloud-sql__list_instances',
      '0:read_file',
      '2:bigquery__run_query',
      '2:bigquery__run_query',
    ]);
    assert.equal(lookup.trace.skippedTurns, 1);
    assert.equal(lookup.trace.turns.length, 3);
    assert.deepEqual(lookup.trace.turns[2], {
      tokens: { input: 1700, prompt: 12800, candidates: 160, total: 13210, cached: 11100, thoughts: 250, tool: 12 },
      modelLatencyMs: 4400,
      toolDurationMs: 1630,
      toolCalls: 2,
    });
  });

  it('throws a DatasetError naming an unset variable and its line, before reading any scenario', async () => {
    delete process.env['EVALLENS_TEST_UNSET_TOKEN'];
    await assert.rejects(readEvalset('agent-evalset-unresolved.json'), (error: unknown) => {
      assert.ok(error instanceof DatasetError);
      assert.match(
        error.message,
        /^dataset .*agent-evalset-unresolved\.json uses \$\{EVALLENS_TEST_UNSET_TOKEN\} at line 10, column 31, but EVALLENS_TEST_UNSET_TOKEN is not set in the environment; set it, or remove the placeholder$/,
      );
      assert.deepEqual(error.range?.start, { offset: 165, line: 9, column: 30 });
      return true;
    });
  });

  it('makes a value that breaks the JSON a syntax error at its placeholder, without quoting the value', async () => {
    process.env['EVALLENS_TEST_MAX_TURNS'] = '5 "secret"';
    const records = await readEvalset('agent-evalset.json');
    assert.equal(records.length, 1);
    const error = failed(records[0]);
    assert.equal(
      error.message,
      'not valid JSON at line 14, column 20: the value of ${EVALLENS_TEST_MAX_TURNS} does not fit into the JSON there; the rest of the file is not read until this is fixed',
    );
    assert.doesNotMatch(error.message, /secret/);
  });

  it('leaves ${…} alone in a dataset that is not an evalset, and reads `cases` first when a file has both', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evallens-json-'));
    try {
      const plain = join(dir, 'plain.json');
      await writeFile(plain, '[{"id": "a", "input": "${EVALLENS_TEST_UNSET_TOKEN}"}]');
      assert.equal(located((await readAll(readJson, { path: plain }))[0]).case.input, '${EVALLENS_TEST_UNSET_TOKEN}');
      const both = join(dir, 'both.json');
      await writeFile(both, '{"cases": [{"id": "c"}], "scenarios": [{"id": "s"}]}');
      assert.deepEqual(
        (await readAll(readJson, { path: both })).map((r) => located(r).case.id),
        ['c'],
      );
      const wrong = join(dir, 'wrong.json');
      await writeFile(wrong, '{"scenarios": {"id": "s"}}');
      await assert.rejects(
        readAll(readJson, { path: wrong }),
        (error: unknown) =>
          error instanceof DatasetError && /but its "scenarios" field is an object$/.test(error.message),
      );
      const notObject = join(dir, 'not-object.json');
      await writeFile(notObject, '{"scenarios": [3]}');
      assert.equal(
        failed((await readAll(readJson, { path: notObject }))[0]).message,
        'a case must be a JSON object, this scenario is a number',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
