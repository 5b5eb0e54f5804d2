import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { CSV_HEADER } from '../../../cli/reporters/csv';
import { csvNumber, csvRow, csvText } from '../../../cli/reporters/csvField';
import type { RunEvent } from '../../../core/runner/events';
import { sampleEvents, TRICKY_REASON } from '../../support/sampleRun';
import { assertGolden, runReporter } from './harness';

describe('csv reporter', () => {
  it('matches the golden file', async () => {
    assertGolden('three-cases.csv', await runReporter('csv'));
  });

  it('writes a header and one row per case × scorer × trial that a CSV parser reads back', async () => {
    const rows = parse(await runReporter('csv')) as string[][];
    assert.deepEqual(rows[0], [...CSV_HEADER]);
    assert.equal(rows.length, 1 + 6);
    const tricky = rows.find((row) => row[7] === TRICKY_REASON);
    assert.deepEqual(tricky, [
      'ungrounded',
      'keywords',
      '1',
      'fail',
      '0',
      'false',
      '7',
      TRICKY_REASON,
      'evals/support.jsonl',
      '2',
      '1',
      '',
      '',
      '',
    ]);
    assert.deepEqual(rows[5], [
      'broken',
      'exact_match',
      '1',
      'error',
      '',
      '',
      '0',
      'the case has no `expected` value',
      'evals/support.jsonl',
      '3',
      '1',
      '',
      '',
      '',
    ]);
  });

  it("repeats a case's trial pass rate and flaky mark on its rows when it ran several trials", async () => {
    const events = sampleEvents().map((e): RunEvent => {
      if (e.type !== 'case/end' || e.caseId !== 'ungrounded') return e;
      const trials = { trials: 4, passed: 3, passRate: 0.75, passAtK: [], passHatK: [], pass_rate: 0.75, flaky: true };
      return { ...e, trials };
    });
    const rows = parse(await runReporter('csv', { events })) as string[][];
    const ungrounded = rows.filter((row) => row[0] === 'ungrounded');
    assert.equal(ungrounded.length, 2);
    for (const row of ungrounded) assert.deepEqual(row.slice(-3, -1), ['0.75', 'true']);
    assert.deepEqual(rows[1]?.slice(-3, -1), ['', '']);
  });

  it('marks a result the result cache gave with `true` in its last column, others empty', async () => {
    const events = sampleEvents().map((e): RunEvent => {
      if (e.type !== 'case/end' || e.caseId !== 'grounded') return e;
      return { ...e, results: e.results.map((r) => (r.scorer === 'keywords' ? { ...r, cached: true as const } : r)) };
    });
    const rows = parse(await runReporter('csv', { events })) as string[][];
    assert.equal(rows[0]?.at(-1), 'cached');
    const grounded = rows.filter((row) => row[0] === 'grounded').map((row) => [row[1], row.at(-1)]);
    assert.deepEqual(grounded, [
      ['exact_match', ''],
      ['keywords', 'true'],
    ]);
  });

  it('writes just the header for a run without cases, to a file in `out`', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evallens-csv-test-'));
    try {
      const out = join(dir, 'results.csv');
      await runReporter('csv', { out, events: [] });
      assert.equal(readFileSync(out, 'utf8'), `${CSV_HEADER.join(',')}\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('csv fields', () => {
  it('quotes fields with a comma, quote, CR or LF and doubles inner quotes (RFC 4180)', () => {
    assert.equal(csvText('plain'), 'plain');
    assert.equal(csvText('a,b'), '"a,b"');
    assert.equal(csvText('say "hi"'), '"say ""hi"""');
    assert.equal(csvText('two\nlines'), '"two\nlines"');
    assert.equal(csvText('cr\rhere'), '"cr\rhere"');
    assert.equal(csvRow(['a', '"b,c"', '']), 'a,"b,c",\n');
  });

  it('guards text that a spreadsheet would run as a formula', () => {
    assert.equal(csvText('=HYPERLINK("http://x")'), `"'=HYPERLINK(""http://x"")"`);
    assert.equal(csvText('+1'), "'+1");
    assert.equal(csvText('-2+3'), "'-2+3");
    assert.equal(csvText('@SUM(A1)'), "'@SUM(A1)");
    assert.equal(csvText('\tcmd'), "'\tcmd");
    assert.equal(csvText('\rcmd'), `"'\rcmd"`);
    assert.equal(csvText('a=b'), 'a=b');
  });

  it('writes numbers as numbers, unguarded, and absent ones as empty', () => {
    assert.equal(csvNumber(-0.5), '-0.5');
    assert.equal(csvNumber(0), '0');
    assert.equal(csvNumber(undefined), '');
  });
});
