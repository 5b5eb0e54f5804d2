import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { writeReportJson } from '../../../cli/reporters/json';
import type { ReportCase, ReportSource } from '../../../core/report/report';
import type { ScorerResult } from '../../../core/result';
import reportSchema from '../../../schemas/report.schema.json';
import compareSchema from '../../../schemas/compare-report.schema.json';
import { SAMPLE_HEAD, sampleSource } from '../../support/sampleRun';
import { assertGolden, runReporter } from './harness';

const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
addFormats(ajv);
ajv.addSchema(compareSchema); // report.json's `comparison` refers to it
const validate = ajv.compile(reportSchema);

function assertValid(report: unknown): void {
  assert.ok(validate(report), JSON.stringify(validate.errors, null, 2));
}

/** A lazily generated report of `n` cases × 5 scorers; `pulled` counts the items handed out. */
function bigSource(n: number): { source: ReportSource; pulled: () => number } {
  let pulled = 0;
  const location = { file: '/data/big.jsonl', line: 1, column: 1 };
  const source: ReportSource = {
    head: { ...SAMPLE_HEAD, summary: { passed: n, failed: 0, errored: 0, skipped: 0, total: n } },
    async *cases(): AsyncIterable<ReportCase> {
      for (let i = 0; i < n; i++, pulled++)
        yield { id: `case-${i}`, index: i, status: 'passed', durationMs: 1, location: { ...location, line: i + 1 } };
    },
    async *results(): AsyncIterable<ScorerResult> {
      for (let i = 0; i < n; i++) {
        for (let s = 0; s < 5; s++, pulled++)
          yield {
            caseId: `case-${i}`,
            scorer: `scorer_${s}`,
            trial: 1,
            status: 'pass',
            score: 1,
            passed: true,
            reason: 'texts are equal',
            durationMs: 0,
          };
      }
    },
  };
  return { source, pulled: () => pulled };
}

describe('json reporter', () => {
  it('matches the golden report', async () => {
    assertGolden('three-cases.report.json', await runReporter('json'));
  });

  it('writes a report that the report schema accepts and that round-trips the run', async () => {
    const report: unknown = JSON.parse(await runReporter('json'));
    assertValid(report);
    const { head } = sampleSource();
    assert.deepEqual(report, {
      ...head,
      verdict: 'failed',
      cases: await collect(sampleSource().cases()),
      results: await collect(sampleSource().results()),
    });
  });

  it('accepts count scales and a run without tests, and rejects unknown properties', async () => {
    const head = {
      ...SAMPLE_HEAD,
      job: {},
      scorers: SAMPLE_HEAD.scorers.map(({ test: _test, threshold: _threshold, ...s }) => ({
        ...s,
        scale: { kind: 'count' as const, unit: 'tokens' },
      })),
    };
    const report: unknown = JSON.parse(await runReporter('json', { source: { ...sampleSource(), head } }));
    assertValid(report);
    assert.equal(validate({ ...(report as object), extra: true }), false);
  });

  it('writes to the file in `out`, making its folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evallens-json-test-'));
    try {
      const out = join(dir, 'nested', 'report.json');
      assert.equal(await runReporter('json', { out }), '');
      assertValid(JSON.parse(readFileSync(out, 'utf8')));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('streams: waits for a full stream to drain instead of reading the whole run ahead', async () => {
    const { source, pulled } = bigSource(20_000);
    const held: (() => void)[] = [];
    let holding = true;
    let bytes = 0;
    const sink = new Writable({
      highWaterMark: 16 * 1024,
      write(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        if (holding) held.push(() => done());
        else done();
      },
    });
    let finished = false;
    const writing = writeReportJson(source, sink).then(() => {
      finished = true;
    });
    // Let the writer run until it blocks on the held write.
    while (held.length === 0) await new Promise((resolve) => setImmediate(resolve));
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(finished, false);
    assert.ok(pulled() < 2_000, `read ${pulled()} items ahead of a blocked stream`);
    holding = false;
    for (const release of held.splice(0)) release();
    await writing;
    assert.equal(pulled(), 20_000 * 6);
    assert.ok(bytes > 20_000 * 6 * 50);
  });

  it('writes valid JSON for an empty run', async () => {
    const chunks: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk.toString());
        done();
      },
    });
    const empty: ReportSource = {
      head: { ...SAMPLE_HEAD, scorers: [] },
      cases: async function* () {},
      results: async function* () {},
    };
    await writeReportJson(empty, sink);
    const report: unknown = JSON.parse(chunks.join(''));
    assertValid(report);
    assert.deepEqual((report as { cases: unknown[] }).cases, []);
  });
});

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

describe('writeReportJson on a failing stream', () => {
  it('rejects instead of waiting forever when the stream is destroyed while full', async () => {
    const { source } = bigSource(1_000);
    const sink = new Writable({
      highWaterMark: 1024,
      write(_chunk: Buffer, _encoding, _done) {
        // Never completes: the stream stays full until it is destroyed.
        sink.destroy();
      },
    });
    await assert.rejects(writeReportJson(source, sink));
  });
});
