/**
 * A shard's run folder put back in dataset order (cli/mergeOrder.ts) through the smallest window that
 * does it, and its lines read across the 1 MiB chunks they are read in (cli/runFolderCases.ts).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { inDatasetOrder, WINDOW } from '../../cli/mergeOrder';
import { numberedLines } from '../../cli/runFolderCases';

const work = mkdtempSync(join(tmpdir(), 'evallens-merge-order-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** A run folder whose cases were written in `order` (dataset indexes), each with two results. */
function folder(name: string, order: readonly number[]): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  const cases = order.map(
    (index) =>
      `${JSON.stringify({ id: `c${index}`, index, status: 'passed', durationMs: 1, location: { file: '/d.jsonl', line: index + 1, column: 1 } })}\n`,
  );
  const results = order.flatMap((index) =>
    ['a', 'b'].map(
      (scorer) =>
        `${JSON.stringify({ caseId: `c${index}`, scorer, trial: 1, status: 'pass', score: 1, reason: 'ok', durationMs: 0.5 })}\n`,
    ),
  );
  writeFileSync(join(dir, 'cases.jsonl'), cases.join(''));
  writeFileSync(join(dir, 'results.jsonl'), results.join(''));
  return dir;
}

/** `count` indexes in order, each block of `span` reversed: every case at most span - 1 places from its own. */
function shuffled(count: number, span: number): number[] {
  const order: number[] = [];
  for (let start = 0; start < count; start += span) {
    const block: number[] = [];
    for (let i = start; i < Math.min(count, start + span); i++) block.push(i);
    order.push(...block.reverse());
  }
  return order;
}

async function read(dir: string): Promise<{ indexes: number[]; resultsOf: string[] }> {
  const indexes: number[] = [];
  const resultsOf: string[] = [];
  for await (const item of inDatasetOrder(dir)) {
    indexes.push(item.case.index);
    for (const r of item.results()) resultsOf.push(`${r.caseId}/${r.scorer}`);
  }
  return { indexes, resultsOf };
}

describe("a shard's cases in dataset order", () => {
  const count = 6000;
  const sorted = Array.from({ length: count }, (_, i) => i);
  const cases = [
    ['in order', sorted],
    ['a few places out', shuffled(count, 5)],
    ['up to 100 places out', shuffled(count, 100)],
    ['up to 1,000 places out', shuffled(count, 1000)],
    ['further out than the window (sorted whole)', shuffled(count, WINDOW + 500)],
    ['written backwards', [...sorted].reverse()],
  ] as const;
  for (const [name, order] of cases)
    it(`${name}: every case once, in index order, with its own results`, async () => {
      const { indexes, resultsOf } = await read(folder(name.replace(/\W+/g, '-'), order));
      assert.deepEqual(indexes, sorted);
      assert.deepEqual(
        resultsOf,
        sorted.flatMap((i) => [`c${i}/a`, `c${i}/b`]),
      );
    });
});

describe("a run folder's lines across the chunks they are read in", () => {
  it('are the lines of the file, numbered from 1, blank ones left out and a \\r before a \\n dropped', async () => {
    const dir = join(work, 'lines');
    mkdirSync(dir, { recursive: true });
    // Lines of many lengths, some far longer than a chunk, CRLF and blank lines among them, no final line end.
    const lines: string[] = [];
    for (let i = 0; i < 4000; i++) {
      if (i % 97 === 0) lines.push('');
      else if (i % 500 === 7) lines.push(`{"n":${i},"long":"${'y'.repeat(1_500_000 + i)}"}`);
      else lines.push(`{"n":${i},"pad":"${'x'.repeat((i * 7919) % 3000)}"}${i % 5 === 0 ? '\r' : ''}`);
    }
    const path = join(dir, 'file.jsonl');
    writeFileSync(path, lines.join('\n'));
    const expected = lines
      .map((text, i) => ({ text: text.endsWith('\r') ? text.slice(0, -1) : text, line: i + 1 }))
      .filter((l) => l.text !== '');
    const seen: { text: string; line: number }[] = [];
    for await (const l of numberedLines(path)) seen.push({ text: l.text, line: l.line });
    assert.equal(seen.length, expected.length);
    for (let i = 0; i < expected.length; i++) assert.deepEqual(seen[i], expected[i], `line ${i}`);
  });
});
