/**
 * A run folder read back as bytes (cli/runFolderCases.ts) and its report.json written from it by
 * copying lines (cli/runStore.ts): the same values and the same report text as parsing every line
 * and writing it again, and a bounded line length.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, describe, it } from 'node:test';
import type { Report, ReportCase } from '../../core/report/report';
import type { ScorerResult } from '../../core/result';
import { writeReportJson } from '../../cli/reporters/json';
import { folderCases, MAX_LINE, RunFolderError, type FolderCase } from '../../cli/runFolderCases';
import { writeFolderReport } from '../../cli/runStore';

const work = mkdtempSync(join(tmpdir(), 'evallens-folder-cases-'));
after(() => rmSync(work, { recursive: true, force: true }));

function folder(name: string, cases: readonly ReportCase[], results: readonly ScorerResult[]): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'cases.jsonl'), cases.map((c) => `${JSON.stringify(c)}\n`).join(''));
  writeFileSync(join(dir, 'results.jsonl'), results.map((r) => `${JSON.stringify(r)}\n`).join(''));
  return dir;
}

function reportCase(id: string, index: number): ReportCase {
  return {
    id,
    index,
    status: 'failed',
    durationMs: 1.5,
    location: { file: '/d/cases.jsonl', line: index + 1, column: 1 },
  };
}

async function all(dir: string): Promise<FolderCase[]> {
  const items: FolderCase[] = [];
  for await (const item of folderCases(dir)) items.push(item);
  return items;
}

const base = { trial: 1, reason: 'r', durationMs: 0.25 } as const;

describe('a run folder read as bytes', () => {
  it("reads scorer, status and score from a line's front as parsing it whole does, and parses whole what the front does not say", async () => {
    const odd = 'ca"se\\ü\u202e';
    const results: ScorerResult[] = [
      { ...base, caseId: 'a', scorer: 'exact', status: 'pass', score: 1, passed: true },
      { ...base, caseId: 'a', scorer: 'edit', status: 'fail', score: 1.2345678901234567e-7, passed: false },
      { ...base, caseId: 'a', scorer: 'count', status: 'measured', score: -250.5 },
      { ...base, caseId: 'a', scorer: 'judge', status: 'error' },
      {
        ...base,
        caseId: 'a',
        scorer: 'judge2',
        status: 'skipped',
        reason: 'no key',
        details: { missing_credentials: true },
      },
      { ...base, caseId: odd, scorer: 'ünïcode', status: 'pass', score: 0.5, passed: true },
      // A scored status whose score is not right after it: read whole.
      { caseId: odd, status: 'fail', scorer: 'reordered', trial: 2, score: 0.25, reason: 'x', durationMs: 1 },
    ];
    const dir = folder('front', [reportCase('a', 0), reportCase(odd, 1)], results);
    const items = await all(dir);
    assert.deepEqual(
      items.map((item) => item.case.id),
      ['a', odd],
    );
    const whole = (r: ScorerResult) => ({ scorer: r.scorer, status: r.status, score: r.score });
    for (const item of items) {
      const folded = item.foldResults(() => false).map((r) => ({ scorer: r.scorer, status: r.status, score: r.score }));
      assert.deepEqual(folded, item.results().map(whole));
      assert.deepEqual(
        item.results(),
        results.filter((r) => r.caseId === item.case.id),
      );
    }
    // The skipped result comes whole: the fold reads its details.
    assert.deepEqual(items[0]?.foldResults(() => false)[4], results[4]);
  });

  it('reads the fields the console and JUnit print (scorer, trial, status, reason) from the lines as parsing them whole does', async () => {
    const reasons = [
      'plain',
      'a "quoted" word and a back\\slash\\',
      'ünïcode — 日本語 😀 and \u202e bidi',
      'two\nlines\tand a tab',
      'ends with a backslash \\',
      '',
    ];
    const results: ScorerResult[] = [
      ...reasons.map((reason, i): ScorerResult => ({
        caseId: 'a',
        scorer: `s${i}`,
        trial: i + 1,
        status: 'fail',
        score: i / 7,
        passed: false,
        reason,
        details: { reason: 'not this one', quote: '"' },
        durationMs: 1,
      })),
      // The caseId first, as RunStore writes every result.
      { caseId: 'a', scorer: 'ok', trial: 1, status: 'pass', score: 1, passed: true, reason: 'r', durationMs: 1 },
      { caseId: 'a', scorer: 'judge', trial: 1, status: 'error', reason: 'judge "down"', durationMs: 1 },
      { caseId: 'a', scorer: 'late', trial: 1, status: 'timeout', reason: 'took 30 s', durationMs: 1 },
      { caseId: 'a', scorer: 'undecided', trial: 1, status: 'inconclusive', reason: 'no test: x', durationMs: 1 },
      {
        caseId: 'a',
        scorer: 'nan',
        trial: 1,
        status: 'fail',
        score: Number.NaN,
        passed: false,
        reason: 'NaN',
        durationMs: 1,
      },
      // The other fields in another order than RunStore writes them: read whole.
      { caseId: 'a', reason: 'reordered', status: 'fail', scorer: 'reordered', trial: 3, durationMs: 1 },
    ];
    const dir = folder('shown', [reportCase('a', 0)], results);
    const printed = (r: Pick<ScorerResult, 'scorer' | 'trial' | 'status' | 'reason'>) => ({
      scorer: r.scorer,
      trial: r.trial,
      status: r.status,
      reason: r.reason,
    });
    for (const statuses of [new Set(['fail', 'error', 'timeout']), new Set(['inconclusive']), new Set<string>()]) {
      const [item] = await all(dir);
      assert.ok(item !== undefined);
      assert.deepEqual(
        item.shownResults(statuses).map(printed),
        results.filter((r) => statuses.has(r.status)).map(printed),
      );
    }
  });

  it('reads each case line as JSON.parse does and hands on every line as written, across 1 MB chunks', async () => {
    const cases: ReportCase[] = [
      reportCase('plain', 0),
      { ...reportCase('with fingerprint', 1), fingerprint: '0123abcd' },
      {
        ...reportCase('tri"als\\', 2),
        trials: { trials: 3, passed: 2, passRate: 2 / 3, passAtK: [2 / 3, 1, 1], passHatK: [2 / 3, 1 / 3, 0] },
      },
      { ...reportCase('ünïcode 日本', 3), location: { file: '/d/ünï cases.jsonl', line: 4, column: 7 } },
      { ...reportCase('odd numbers', 4), durationMs: 1.5e-7, status: 'errored' },
      { ...reportCase('zero', 5), durationMs: 0, status: 'skipped' },
    ];
    // Enough results that lines are cut by the 1 MB chunks they are read in.
    for (let i = 6; i < 3000; i++) cases.push({ ...reportCase(`c${i}`, i), fingerprint: `f${i}` });
    const results: ScorerResult[] = cases.flatMap((c, i) =>
      ['exact', 'edit', 'regex'].map((scorer, j): ScorerResult => ({
        ...base,
        caseId: c.id,
        scorer,
        status: (i + j) % 3 === 0 ? 'pass' : 'fail',
        score: ((i * 7 + j) % 11) / 10,
        reason: `${scorer} of ${c.id}: ${'x'.repeat((i * 31) % 500)}`,
      })),
    );
    const dir = folder('lines', cases, results);
    const caseLines = readFileSync(join(dir, 'cases.jsonl'), 'utf8').split('\n');
    const resultLines = readFileSync(join(dir, 'results.jsonl'), 'utf8').split('\n');
    const text = (put: (p: (bytes: Buffer, start: number, end: number) => void) => void) => {
      const pieces: string[] = [];
      put((bytes, start, end) => pieces.push(bytes.toString('utf8', start, end)));
      return pieces.join('\n');
    };
    const items = await all(dir);
    assert.equal(items.length, cases.length);
    let at = 0;
    for (const [i, item] of items.entries()) {
      const parsed: unknown = JSON.parse(caseLines[i] as string);
      assert.deepEqual(item.case, parsed);
      // The same fields in the same order: the JSON reporters write the case as it is.
      assert.equal(JSON.stringify(item.case), caseLines[i]);
      assert.equal(
        text((p) => item.putCaseLine(p)),
        caseLines[i],
      );
      assert.equal(
        text((p) => item.putResultLines(p)),
        resultLines.slice(at, at + 3).join('\n'),
      );
      assert.deepEqual(item.resultLines, resultLines.slice(at, at + 3));
      at += 3;
    }
  });

  it('refuses a line longer than 16 MiB, naming the file and line, without holding it', async () => {
    const long: ScorerResult = {
      ...base,
      caseId: 'b',
      scorer: 'exact',
      status: 'fail',
      score: 0,
      reason: 'x'.repeat(MAX_LINE),
    };
    const dir = folder(
      'long',
      [reportCase('a', 0), reportCase('b', 1)],
      [{ ...base, caseId: 'a', scorer: 'exact', status: 'pass', score: 1 }, long],
    );
    await assert.rejects(all(dir), (e: unknown) => {
      assert.ok(e instanceof RunFolderError);
      assert.match(
        e.message,
        /results\.jsonl:2:1: expected one JSON object per line, but this line is longer than 16777216 bytes/,
      );
      return true;
    });
  });
});

describe("a run folder's report.json written by copying its lines", () => {
  it('is the text writeReportJson writes from the parsed lines: escapes, blank lines and CRLF alike', async () => {
    const cases = [reportCase('a', 0), reportCase('b\u0085\u202e', 1), reportCase('c', 2)];
    const results: ScorerResult[] = [
      { ...base, caseId: 'a', scorer: 'exact', status: 'pass', score: 1, reason: 'plain' },
      {
        ...base,
        caseId: 'b\u0085\u202e',
        scorer: 'exact',
        status: 'fail',
        score: 0,
        reason: 'bidi \u2066 and del \u007f',
      },
      { ...base, caseId: 'c', scorer: 'exact', status: 'pass', score: 1, reason: 'ü' },
    ];
    const dir = folder('report', cases, results);
    // A blank line and a CRLF line end, as a hand-edited folder may have.
    const lines = readFileSync(join(dir, 'results.jsonl'), 'utf8').split('\n');
    writeFileSync(join(dir, 'results.jsonl'), `${lines[0]}\n\n${lines[1]}\r\n${lines[2]}`);
    const head: Omit<Report, 'cases' | 'results'> = {
      version: 1,
      tool: { name: 'evallens', version: '0.0.0' },
      runId: 'run-\u202e',
      configFile: '/c.yaml',
      startedAt: 's',
      finishedAt: 'f',
      durationMs: 1,
      cancelled: false,
      numTrials: 1,
      summary: { passed: 2, failed: 1, errored: 0, skipped: 0, total: 3 },
      job: {},
      scorers: [],
    };
    await writeFolderReport(dir, head, async (stream) => {
      stream.write('{"compared":true}');
    });
    let expected = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        expected += chunk.toString('utf8');
        done();
      },
    });
    const text = (items: readonly object[]) =>
      (async function* () {
        for (const item of items) yield JSON.stringify(item);
      })();
    await writeReportJson(
      {
        head,
        cases: () => text([]) as AsyncIterable<never>,
        results: () => text([]) as AsyncIterable<never>,
        lines: { cases: () => text(cases), results: () => text(results) },
      },
      sink,
      async (stream) => {
        stream.write('{"compared":true}');
      },
    );
    const written = readFileSync(join(dir, 'report.json'), 'utf8');
    assert.equal(written, expected);
    assert.match(written, /\\u202e/);
    assert.deepEqual((JSON.parse(written) as Report).results, results);
  });

  it('writes the same report text across 1 MB chunks: lines cut by a chunk, CRLF, blank and non-ASCII lines among them', async () => {
    const results: ScorerResult[] = [];
    // ~3.5 MB of results of varied lengths, so lines straddle every chunk boundary at varied offsets;
    // one line longer than a chunk, and a few that need the slow paths.
    for (let i = 0; i < 9000; i++)
      results.push({
        ...base,
        caseId: `c${i}`,
        scorer: 'exact',
        status: 'fail',
        score: 0,
        reason: 'x'.repeat(i % 700),
      });
    results.push({ ...base, caseId: 'long', scorer: 'exact', status: 'fail', score: 0, reason: 'y'.repeat(1_200_000) });
    results.push({ ...base, caseId: 'ü', scorer: 'exact', status: 'pass', score: 1, reason: 'ok' });
    const dir = folder('chunks', [reportCase('c0', 0)], results);
    const lines = readFileSync(join(dir, 'results.jsonl'), 'utf8').split('\n');
    // CRLF and blank lines in the second chunk, and the last line without its \n.
    const edited = lines.map((line, i) => (i === 4000 ? `${line}\r` : i === 4001 ? `\n\n${line}` : line));
    writeFileSync(join(dir, 'results.jsonl'), edited.join('\n').replace(/\n$/, ''));
    const head: Omit<Report, 'cases' | 'results'> = {
      version: 1,
      tool: { name: 'evallens', version: '0.0.0' },
      runId: 'r',
      configFile: '/c.yaml',
      startedAt: 's',
      finishedAt: 'f',
      durationMs: 1,
      cancelled: false,
      numTrials: 1,
      summary: { passed: 1, failed: 0, errored: 0, skipped: 0, total: 1 },
      job: {},
      scorers: [],
    };
    await writeFolderReport(dir, head);
    let expected = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        expected += chunk.toString('utf8');
        done();
      },
    });
    const text = (items: readonly object[]) =>
      (async function* () {
        for (const item of items) yield JSON.stringify(item);
      })();
    await writeReportJson(
      {
        head,
        cases: () => text([]) as AsyncIterable<never>,
        results: () => text([]) as AsyncIterable<never>,
        lines: { cases: () => text([reportCase('c0', 0)]), results: () => text(results) },
      },
      sink,
    );
    const written = readFileSync(join(dir, 'report.json'), 'utf8');
    assert.equal(written.length, expected.length);
    assert.ok(written === expected, 'the report text differs');
    assert.equal((JSON.parse(written) as Report).results.length, results.length);
  });
});
