/**
 * The progress line's total without reading the cases (core/runner/records.ts): for a JSON Lines
 * dataset it must be exactly the number of records the run reads, whatever the lines hold.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parseRunConfig } from '../../../core/config/parseRunConfig';
import type { RunConfig } from '../../../core/config/runConfig';
import { MAX_CASE_CHARS } from '../../../core/dataset/jsonStream';
import { caseRecords, recordCountWithoutReading } from '../../../core/runner/records';

const dir = mkdtempSync(join(tmpdir(), 'evallens-record-count-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function config(dataset: string, name: string, inline = ''): RunConfig {
  writeFileSync(join(dir, name), dataset);
  const file = join(dir, `${name}.eval.yaml`);
  const yaml = `dataset: ${name}\n${inline}scorers:\n  contains:\n    value: a\n`;
  const parsed = parseRunConfig(yaml, file, {});
  assert.deepEqual(
    parsed.problems.filter((p) => p.severity === 'error'),
    [],
  );
  assert.ok(parsed.config);
  return parsed.config;
}

async function recordsRead(c: RunConfig): Promise<{ all: number; ok: number }> {
  let all = 0;
  let ok = 0;
  for await (const record of caseRecords(c)) {
    all++;
    if (record.ok) ok++;
  }
  return { all, ok };
}

describe('recordCountWithoutReading', () => {
  it('counts what the run reads: blank and white-space lines left out, broken and duplicate lines in', async () => {
    const lines = [
      '\uFEFF{"id":"a","output":"x"}',
      '',
      '   \t',
      '{"id":"b","output":"y"}\r',
      '\u3000\u00a0',
      'not json',
      '{"id":"a","output":"again"}',
      '[1,2]',
      ' '.repeat(MAX_CASE_CHARS + 5),
      '{"output":"no id"}',
    ];
    for (const ending of ['\n', '']) {
      const c = config(`${lines.join('\n')}${ending}`, `data${ending === '' ? '-open' : ''}.jsonl`);
      const read = await recordsRead(c);
      assert.equal(read.all, 7, 'the lines read as records: 4 cases, 3 that cannot be read');
      assert.equal(read.ok, 3);
      assert.equal(await recordCountWithoutReading(c, {}), read.all);
    }
  });

  it('adds the inline cases, and leaves a selection or another format to reading the cases', async () => {
    const inline = 'cases:\n  - id: i1\n    output: a\n  - id: i2\n    output: b\n';
    const c = config('{"id":"a"}\n{"id":"b"}\n', 'withInline.jsonl', inline);
    assert.equal(await recordCountWithoutReading(c, {}), 4);
    assert.equal(await recordCountWithoutReading(c, { ids: [] }), 4);
    assert.equal(await recordCountWithoutReading(c, { ids: ['a'] }), undefined);
    assert.equal(await recordCountWithoutReading(c, { filter: 'a*' }), undefined);
    assert.equal(await recordCountWithoutReading(config('[{"id":"a"}]', 'cases.json'), {}), undefined);
  });
});
