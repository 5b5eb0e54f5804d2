/**
 * Every dataset and EvalBench-results message that names a line (and column) shows the 1-based form
 * of the 0-based range the record carries: the number a person reads is where the editor's squiggle is.
 * The messages' wording is free; the first `line N` (`, column C`) in each must match the range.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { CaseReadError } from '../../../core/case';
import { readCsv } from '../../../core/dataset/csv';
import { readJson } from '../../../core/dataset/json';
import { readJsonl } from '../../../core/dataset/jsonl';
import type { DatasetReader, DatasetSource } from '../../../core/dataset/source';
import { readYaml } from '../../../core/dataset/yaml';
import { evalBenchCsvRows } from '../../../core/report/evalbenchCsv';
import { jsonParseError } from '../../../core/text/jsonError';
import { failed, readAll } from '../../support/datasetRecords';

/** The first `line N` and, when it follows, `column C` a message prints. */
function shownPosition(message: string): { line: number; column?: number } {
  const m = /\bline (\d+)(?:, column (\d+))?/.exec(message);
  assert.ok(m, `expected a line in: ${message}`);
  return m[2] === undefined ? { line: Number(m[1]) } : { line: Number(m[1]), column: Number(m[2]) };
}

/** The message's printed position is the record's range start, counted from 1. */
function assertShownAtRange(error: CaseReadError, withColumn = true): void {
  const shown = shownPosition(error.message);
  const expected = withColumn
    ? { line: error.range.start.line + 1, column: error.range.start.column + 1 }
    : { line: error.range.start.line + 1 };
  assert.deepEqual(shown, expected, `${error.message}\nrange start: ${JSON.stringify(error.range.start)}`);
}

async function errors(
  reader: DatasetReader,
  name: string,
  text: string,
  extra: Partial<DatasetSource> = {},
): Promise<CaseReadError[]> {
  const records = await readAll(reader, { path: join(tmpdir(), name), text, ...extra });
  return records.filter((r) => !r.ok).map((r) => failed(r));
}

describe('positions in dataset messages are the range, counted from 1', () => {
  it('JSON Lines: a line that is not JSON names its line and the column of the mistake', async () => {
    const [error] = await errors(readJsonl, 'a.jsonl', '{"id":"a"}\n\n  {"id": }\n');
    assert.ok(error);
    assert.equal(error.range.start.line, 2);
    assert.deepEqual(/line (\d+) is not valid JSON: .* at column (\d+)/.exec(error.message)?.slice(1).map(Number), [
      error.range.start.line + 1,
      error.range.start.column + 1,
    ]);
  });

  it('JSON Lines: a duplicate id names the line of the first case that has it', async () => {
    const records = await readAll(readJsonl, { path: join(tmpdir(), 'b.jsonl'), text: '\n{"id":"a"}\n{"id":"a"}\n' });
    assert.ok(records[0]?.ok);
    const first = records[0].value.range.start;
    assert.deepEqual(shownPosition(failed(records[1]).message), { line: first.line + 1 });
  });

  it('CSV: a cell that does not read as its type names its line and column', async () => {
    const [error] = await errors(readCsv, 'c.csv', 'id,n\na,1\nb,  x\n', { columns: { n: 'number' } });
    assert.ok(error);
    assert.match(error.message, /the "n" cell at line/);
    assertShownAtRange(error);
  });

  it('CSV: a quote left open names its row and where the quoted cell starts', async () => {
    const [error] = await errors(readCsv, 'd.csv', 'id,input\na,b\nc,"open\nmore\n');
    assert.ok(error);
    assertShownAtRange(error, false);
    const where = /never closed .*, at line (\d+), column (\d+)$/.exec(error.message)?.slice(1).map(Number);
    assert.deepEqual(where, [error.range.start.line + 1, error.range.start.column + 1], error.message);
  });

  it('CSV: a row with a stray quote names the line and column of the mistake', async () => {
    const [error] = await errors(readCsv, 'e.csv', 'id,input\na,b"c\nd,e\n');
    assert.ok(error);
    const where = /, at line (\d+), column (\d+)/.exec(error.message)?.slice(1).map(Number);
    assert.deepEqual(where, [error.range.start.line + 1, error.range.start.column + 1], error.message);
  });

  it('JSON: a syntax error names its line and column', async () => {
    const [error] = await errors(readJson, 'f.json', '[\n  {"id": "a"},\n  {"id": }\n]\n');
    assert.ok(error);
    assertShownAtRange(error);
  });

  it('YAML: a syntax error names its line and column', async () => {
    const [error] = await errors(readYaml, 'g.yaml', '- id: a\n- id: b\n  input: "open\n');
    assert.ok(error);
    assert.match(error.message, /YAML syntax error at line/);
    assertShownAtRange(error);
  });
});

describe('positions in other engine messages are counted from 1', () => {
  it("EvalBench's CSV rows: a row with too few cells is at its end, 1-based", async () => {
    const folder = fs.mkdtempSync(join(tmpdir(), 'evallens-positions-'));
    try {
      const file = join(folder, 'scores.csv');
      fs.writeFileSync(file, 'id,score\n1,2\n\n345\n');
      const rows = [];
      for await (const row of evalBenchCsvRows(file, 10)) rows.push(row);
      // Row "345" starts at 0-based line 3; its missing cell is at 0-based column 3 (the row's end).
      assert.deepEqual(
        rows.map((r) => (r.ok ? { line: r.line } : { line: r.line, column: r.column })),
        [{ line: 2 }, { line: 4, column: 4 }],
      );
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('a JSON parse error names the line and column of the offset, 1-based', () => {
    const text = '{\n  "a": x}';
    let error: unknown;
    try {
      JSON.parse(text);
    } catch (e) {
      error = e;
    }
    // `x` is at offset 9: 0-based line 1, column 7.
    assert.match(jsonParseError(text, error), /^invalid JSON at line 2, column 8: /);
  });
});
