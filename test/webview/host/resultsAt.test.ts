/**
 * Opening a row of a report whose results came without their details: the stream says where each result
 * is in the file (`resultsAt`), and the host reads the case's results there (extension/results/resultsAt.ts)
 * instead of starting the CLI (`report --details-of`), while the file is unchanged. Checked against the CLI's
 * own answer, on real streams of the built CLI.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Report } from '../../../core/report/report';
import type { ScorerResult } from '../../../core/result';
import { readReportFile } from '../../../extension/results/reportFile';
import { type ResultsAt, streamReportFile } from '../../../extension/results/reportStream';
import { readResultDetails, ResultDetailsSource } from '../../../extension/results/resultDetailsSource';
import { fileStamp, ResultsAtIndex } from '../../../extension/results/resultsAt';
import { CLI, ensureBuilt, ROOT } from '../../support/cli';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'reports', 'three-cases.report.json');
const dir = mkdtempSync(join(tmpdir(), 'evallens-results-at-'));
before(() => ensureBuilt());
after(() => rmSync(dir, { recursive: true, force: true }));

/** The fixture's results repeated `count` times under new case ids (some with non-ASCII letters), one a line. */
function report(name: string, count: number, prefix = ''): { path: string; base: Report } {
  const base = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Report;
  const { cases, results, ...head } = base;
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = results[i % results.length] as ScorerResult;
    lines.push(
      JSON.stringify({ ...r, caseId: `${r.caseId}-${Math.floor(i / results.length) % 50}${i % 7 === 0 ? 'é' : ''}` }),
    );
  }
  const text = `${prefix}${JSON.stringify(head).slice(0, -1)},"cases":${JSON.stringify(cases)},"results":[\n${lines.join(',\n')}\n]}\n`;
  const path = join(dir, name);
  writeFileSync(path, text);
  return { path, base };
}

/** Streams the file as the panel does: the index of where results are, and every result with its range. */
async function streamed(path: string): Promise<{ index: ResultsAtIndex; results: ScorerResult[]; at: number[] }> {
  const stamp = await fileStamp(path);
  assert.ok(stamp !== undefined);
  const index = new ResultsAtIndex(path, stamp);
  const results: ScorerResult[] = [];
  const at: number[] = [];
  const take = (more: readonly ScorerResult[], where: ResultsAt | undefined) => {
    index.add(more, where);
    results.push(...more);
    at.push(...(where ?? []));
  };
  await streamReportFile(CLI, path, {
    head: (r, apart, where) => {
      assert.equal(apart, true);
      take(r.results, where);
    },
    more: (_cases, more, where) => take(more, where),
  });
  return { index, results, at };
}

const cliAnswer = async (path: string, runId: string, id: string) => {
  const answer = await readResultDetails(CLI, path, runId, id);
  assert.ok(answer.ok, JSON.stringify(answer));
  return answer.results;
};

describe('where results are in a streamed report, and reading a case back from there', () => {
  for (const [name, prefix] of [
    ['plain', ''],
    ['with a byte order mark', '\ufeff'],
  ] as const) {
    it(`says, for every result of every part, the bytes in the file that are that result (${name})`, async () => {
      const { path } = report(`where-${name}.json`, 12_000, prefix);
      const { results, at } = await streamed(path);
      const whole = await readReportFile(CLI, path);
      assert.equal(results.length, 12_000);
      assert.equal(at.length, 2 * results.length, 'every part said where its results are');
      const bytes = readFileSync(path);
      whole.results.forEach((expected, i) => {
        const text = bytes.toString('utf8', at[2 * i], at[2 * i + 1]);
        assert.deepEqual(JSON.parse(text), expected, `result ${i}`);
      });
    });
  }

  it("reads each case's results and details as the CLI's --details-of answers them", async () => {
    const { path } = report('read.json', 600);
    const { index } = await streamed(path);
    const whole = await readReportFile(CLI, path);
    const ids = [...new Set(whole.results.map((r) => r.caseId))];
    assert.ok(ids.length > 50 && ids.some((id) => id.includes('é')));
    for (const id of ids.filter((_, i) => i % 9 === 0))
      assert.deepEqual(await index.read(id, 1 << 20), await cliAnswer(path, whole.runId, id), id);
    assert.equal(await index.read('no such case', 1 << 20), undefined, 'unknown: the CLI is asked');
    const first = ids[0] ?? '';
    assert.equal(await index.read(first, 10), undefined, 'more than the limit: the CLI is asked');
  });

  it('answers nothing once the file changed (rewritten, or touched), so the CLI is asked and says what changed', async () => {
    const { path, base } = report('changed.json', 300);
    const { index } = await streamed(path);
    const id = (await readReportFile(CLI, path)).results[5]?.caseId ?? '';
    assert.ok((await index.read(id, 1 << 20)) !== undefined);
    // The same bytes, a new modification time.
    const later = new Date(Date.now() + 60_000);
    utimesSync(path, later, later);
    assert.equal(await index.read(id, 1 << 20), undefined);
    // Another run's report in its place.
    const text = readFileSync(path, 'utf8').replace(base.runId, 'another-run-id-00');
    writeFileSync(path, text);
    assert.equal(await index.read(id, 1 << 20), undefined);
    const source = new ResultDetailsSource(CLI);
    assert.deepEqual(await source.lookup(path, base.runId, id, index), {
      ok: false,
      reason: `${path} is now the report of run another-run-id-00, not of run ${base.runId} shown here; open it again`,
    });
  });

  it('a part without places (an older CLI) leaves the index unused: every lookup goes to the CLI', async () => {
    const { path } = report('older.json', 60);
    const { index, results, at } = await streamed(path);
    const id = results[0]?.caseId ?? '';
    assert.ok((await index.read(id, 1 << 20)) !== undefined);
    index.add(results.slice(0, 3), undefined);
    assert.equal(await index.read(id, 1 << 20), undefined);
    index.add(results.slice(0, 3), at.slice(0, 6));
    assert.equal(await index.read(id, 1 << 20), undefined, 'stays unused');
  });

  it("a range that holds another case's result is refused (the CLI is asked)", async () => {
    const { path } = report('mixed.json', 60);
    const { results, at } = await streamed(path);
    const stamp = await fileStamp(path);
    assert.ok(stamp !== undefined);
    const wrong = new ResultsAtIndex(path, stamp);
    // Every result filed under the first result's case id.
    wrong.add(
      results.map((r) => ({ ...r, caseId: results[0]?.caseId ?? '' })),
      at,
    );
    assert.equal(await wrong.read(results[0]?.caseId ?? '', 1 << 20), undefined);
  });
});
