/**
 * Issue 13, item 8: datasets that threw out of the run (exit 70, a stack trace) or blew the stack
 * far from their file. Each is now an error record or a DatasetError at its place, and the cases
 * around it still run.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DatasetRecord } from '../../../core/case';
import { DatasetError } from '../../../core/dataset/datasetError';
import { readJson } from '../../../core/dataset/json';
import { readJsonl } from '../../../core/dataset/jsonl';
import type { DatasetReader } from '../../../core/dataset/source';
import { readYaml } from '../../../core/dataset/yaml';
import { MAX_JSON_DEPTH } from '../../../core/text/jsonDepth';
import { failed, located, readAll } from '../../support/datasetRecords';

const read = (reader: DatasetReader, path: string, text: string): Promise<DatasetRecord[]> =>
  readAll(reader, { path: `/data/${path}`, text });
const deep = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

async function refusal(run: Promise<unknown>): Promise<DatasetError> {
  try {
    await run;
  } catch (error) {
    assert.ok(error instanceof DatasetError, `expected a DatasetError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the dataset to be refused');
}

describe('JSON nested too deep', () => {
  it('JSON: a case nested 5,000 deep is an error at the bracket past the cap; the cases after it run', async () => {
    const text = `[\n{"id": "a", "expected": ${deep(5000)}},\n{"id": "b", "output": "x"}\n]\n`;
    const records = await read(readJson, 'deep.json', text);
    assert.equal(records.length, 2);
    const error = failed(records[0]);
    const column = '{"id": "a", "expected": '.length + 5 * (MAX_JSON_DEPTH - 1);
    assert.deepEqual([error.range.start.line, error.range.start.column], [1, column]);
    assert.match(
      error.message,
      new RegExp(
        `line 2, column ${column + 1} cannot be read: it has arrays and objects nested more than ${MAX_JSON_DEPTH} levels deep; expected at most ${MAX_JSON_DEPTH}`,
      ),
    );
    assert.equal(located(records[1]).case.id, 'b');
  });

  it('JSON Lines: a line nested 100,000 deep is an error at its column; the next line runs', async () => {
    const text = `{"id": "a", "output": ${'['.repeat(100_000)}${']'.repeat(100_000)}}\n{"id": "b", "output": "x"}\n`;
    const records = await read(readJsonl, 'deep.jsonl', text);
    const error = failed(records[0]);
    assert.match(
      error.message,
      /^line 1 has arrays and objects nested more than 256 levels deep; expected at most 256 \(at column 278\)$/,
    );
    assert.equal(error.range.start.column, 277);
    assert.equal(located(records[1]).case.id, 'b');
  });

  it('nesting up to the cap is read, and brackets inside strings do not count', async () => {
    const text = `{"id": "a", "expected": ${deep(MAX_JSON_DEPTH - 1)}, "output": "${'['.repeat(10_000)}"}\n`;
    const records = await read(readJsonl, 'ok.jsonl', text);
    assert.equal(located(records[0]).case.id, 'a');
  });
});

describe('YAML datasets made of aliases', () => {
  it('a dataset that is only an alias naming nothing is refused at its place, not thrown out of the run', async () => {
    const error = await refusal(read(readYaml, 'alias.yaml', '*nope\n'));
    assert.match(
      error.message,
      /must hold a list of cases .* but it holds only the alias \*nope, which names no anchor/,
    );
    assert.deepEqual(error.range?.start, { offset: 0, line: 0, column: 0 });
  });

  it('"cases" that is an alias naming nothing is refused the same way', async () => {
    const error = await refusal(read(readYaml, 'alias.yaml', 'cases: *nope\n'));
    assert.match(error.message, /its "cases" key holds only the alias \*nope, which names no anchor/);
  });

  it('an item with an unresolved alias is an error record; the other items run', async () => {
    const records = await read(readYaml, 'items.yaml', '- {id: a, output: *nope}\n- {id: b, output: x}\n');
    assert.match(failed(records[0]).message, /an alias in this item names no anchor/);
    assert.equal(located(records[1]).case.id, 'b');
  });

  it('an item that is a billion laughs is an error record; the other items run', async () => {
    const lines = ['- id: a', '  x: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let n = 1; n < 9; n++)
      lines.push(`  x${n}: &a${n} [${Array.from({ length: 9 }, () => `*a${n - 1}`).join(', ')}]`);
    const records = await read(readYaml, 'laughs.yaml', `${lines.join('\n')}\n- {id: b, output: x}\n`);
    assert.match(failed(records[0]).message, /expands too many YAML aliases/);
    assert.equal(located(records[1]).case.id, 'b');
  });

  it('a YAML dataset with brackets nested 5,000 deep stops at the line that nests too deep, with the cases before it', async () => {
    const records = await read(readYaml, 'deep.yaml', `- {id: a}\n- ${'['.repeat(5000)}${']'.repeat(5000)}\n`);
    assert.equal(located(records[0]).case.id, 'a');
    const error = failed(records[1]);
    assert.match(error.message, /brackets nested more than 100 levels deep at line 2, column 103/);
  });
});
