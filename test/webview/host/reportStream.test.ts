import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Report, ReportCase } from '../../../core/report/report';
import type { ScorerResult } from '../../../core/result';
import { readReportFile } from '../../../extension/results/reportFile';
import { streamEntry, streamReportFile, streamWholeReport } from '../../../extension/results/reportStream';
import { readResultDetails } from '../../../extension/results/resultDetailsSource';
import { CLI, ensureBuilt, ROOT } from '../../support/cli';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'reports', 'three-cases.report.json');
const dir = mkdtempSync(join(tmpdir(), 'evallens-stream-'));
before(() => ensureBuilt());
after(() => rmSync(dir, { recursive: true, force: true }));

const RESULTS = 12_000;

/** The fixture's report with RESULTS results (its own, repeated), written one result a line; `edit` changes result i's line. */
function bigReport(name: string, edit?: (line: string, i: number) => string): { path: string; text: string } {
  const base = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Report;
  const { cases, results, ...head } = base;
  const lines: string[] = [];
  for (let i = 0; i < RESULTS; i++) {
    const r = results[i % results.length] as ScorerResult;
    const line = JSON.stringify({ ...r, reason: `${r.reason ?? ''} #${i}` });
    lines.push(edit === undefined ? line : edit(line, i));
  }
  const text = `${JSON.stringify(head).slice(0, -1)},\n"cases":${JSON.stringify(cases)},\n"results":[\n${lines.join(',\n')}\n]}\n`;
  const path = join(dir, name);
  writeFileSync(path, text);
  return { path, text };
}

/** The report as the stream hands it on: its results without their details. */
function withoutDetails(report: Report): Report {
  return { ...report, results: report.results.map(({ details: _d, ...r }) => r) };
}

/** What the host was handed, in order, beside the CLI's exit. */
async function stream(path: string): Promise<{ events: string[]; results: number; error?: string }> {
  const events: string[] = [];
  let results = 0;
  const parts = {
    head: (report: Report) => {
      events.push('head');
      results += report.results.length;
    },
    more: (_cases: readonly ReportCase[], more: readonly ScorerResult[]) => {
      events.push('more');
      results += more.length;
    },
  };
  try {
    await streamReportFile(CLI, path, parts, { started: (child) => child.on('exit', () => events.push('cli exited')) });
    return { events, results };
  } catch (e) {
    return { events, results, error: e instanceof Error ? e.message : String(e) };
  }
}

describe('streamReportFile (the CLI reads the report in parts, the host hands each on as it comes)', () => {
  it('hands the head on while the CLI is still reading, then the rest; the whole equals the report', async () => {
    const { path } = bigReport('big.json');
    const seen = await stream(path);
    assert.equal(seen.error, undefined);
    assert.equal(seen.events[0], 'head');
    assert.ok(seen.events.includes('more'), 'more than one part');
    assert.ok(
      seen.events.indexOf('head') < seen.events.indexOf('cli exited'),
      `the head was handed on before the CLI finished: ${seen.events.join(', ')}`,
    );
    assert.equal(seen.results, RESULTS);
    assert.deepEqual(await streamWholeReport(CLI, path), withoutDetails(await readReportFile(CLI, path)));
  });

  it("hands the results on without their details, and the CLI reads a case's back from the file (--details-of)", async () => {
    const { path } = bigReport('details.json');
    let apart: boolean | undefined;
    const streamed: ScorerResult[] = [];
    await streamReportFile(CLI, path, {
      head: (report, detailsApart) => {
        apart = detailsApart;
        streamed.push(...report.results);
      },
      more: (_cases, results) => streamed.push(...results),
    });
    assert.equal(apart, true);
    const whole = await readReportFile(CLI, path);
    assert.ok(
      whole.results.some((r) => r.details !== undefined),
      'the fixture has details',
    );
    assert.ok(streamed.every((r) => r.details === undefined));
    for (const id of [...new Set(whole.results.map((r) => r.caseId))]) {
      const answer = await readResultDetails(CLI, path, whole.runId, id);
      assert.ok(answer.ok, JSON.stringify(answer));
      const expected = whole.results
        .filter((r) => r.caseId === id)
        .map((r) => ({ scorer: r.scorer, trial: r.trial, ...(r.details === undefined ? {} : { details: r.details }) }));
      assert.deepEqual(answer.results, expected, id);
    }
    const other = await readResultDetails(CLI, path, 'another-run', 'c1');
    assert.deepEqual(other, {
      ok: false,
      reason: `${path} is now the report of run ${whole.runId}, not of run another-run shown here; open it again`,
    });
    const gone = await readResultDetails(CLI, join(dir, 'gone.json'), whole.runId, 'c1');
    assert.equal(gone.ok, false);
    assert.match(gone.ok ? '' : gone.reason, /gone\.json:1:1: cannot read the report file \(it does not exist\)/);
  });

  it('leaves out a details member wherever it is in the result, spaced or not; a result with two keeps both', async () => {
    const { path: source } = bigReport('places-source.json');
    const base = await readReportFile(CLI, source);
    const details = '{"expected":"a","actual":["b",{"c":"}"}]}';
    const shapes = [
      (r: string) => `{"details":${details},${r.slice(1)}`,
      (r: string) => `{ "details" : ${details} ,\n ${r.slice(1)}`,
      (r: string) => `${r.slice(0, -1)},"details":${details}}`,
      (r: string) => `${r.slice(0, -1)} ,\n"details":${details} }`,
      (r: string) => r.replace('"trial"', `"details":${details},"trial"`),
      (r: string) => `${r.slice(0, -1)},"details":{"first":1},"details":${details}}`,
    ];
    const lines = base.results.slice(0, 60).map((r, i) => {
      const { details: _d, ...bare } = r;
      return (shapes[i % shapes.length] ?? String)(JSON.stringify(bare));
    });
    const { cases, results: _r, ...head } = base;
    const path = join(dir, 'places.json');
    writeFileSync(
      path,
      `${JSON.stringify(head).slice(0, -1)},"cases":${JSON.stringify(cases)},"results":[\n${lines.join(',\n')}\n]}\n`,
    );
    const whole = await readReportFile(CLI, path);
    const streamed = await streamWholeReport(CLI, path);
    assert.equal(streamed.results.length, 60);
    streamed.results.forEach((r, i) => {
      const expected = whole.results[i] as ScorerResult;
      if (i % shapes.length === shapes.length - 1) assert.deepEqual(r, expected, 'two details members: printed whole');
      else
        assert.deepEqual(r, withoutDetails({ ...whole, results: [expected] }).results[0], `shape ${i % shapes.length}`);
    });
    const answer = await readResultDetails(CLI, path, whole.runId, whole.results[0]?.caseId ?? '');
    assert.ok(answer.ok);
    assert.deepEqual(
      answer.results.map((r) => r.details),
      whole.results.filter((r) => r.caseId === whole.results[0]?.caseId).map((r) => r.details),
    );
  });

  it('a report read from EvalBench results keeps its details inline (its case data comes from them)', async () => {
    const base = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Report;
    const imported = { format: 'evalbench-csv', note: 'test', jobs: [] };
    const path = join(dir, 'imported.json');
    writeFileSync(path, JSON.stringify({ ...base, imported }));
    let apart: boolean | undefined;
    await streamReportFile(CLI, path, { head: (_r, detailsApart) => (apart = detailsApart), more: () => undefined });
    assert.equal(apart, false);
    assert.deepEqual(await streamWholeReport(CLI, path), await readReportFile(CLI, path));
  });

  it('finds a case whose id the file spells with escapes', async () => {
    const base = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Report;
    const first = base.results[0] as ScorerResult;
    const id = first.caseId;
    const text = JSON.stringify(base);
    const escaped = text
      .split(`"caseId":${JSON.stringify(id)}`)
      .join(`"caseId":"\\u${id.charCodeAt(0).toString(16).padStart(4, '0')}${id.slice(1)}"`);
    assert.notEqual(escaped, text);
    const path = join(dir, 'escaped.json');
    writeFileSync(path, escaped);
    const answer = await readResultDetails(CLI, path, base.runId, id);
    assert.ok(answer.ok);
    assert.equal(answer.results.length, base.results.filter((r) => r.caseId === id).length);
  });

  it('a report cut off half-way: the results before the cut are handed on, then the error at file:line:col', async () => {
    const { text } = bigReport('whole.json');
    const at = text.indexOf('#7500');
    const cut = text.slice(0, at);
    const path = join(dir, 'cut.json');
    writeFileSync(path, cut);
    const seen = await stream(path);
    assert.equal(seen.results, 7500, 'every result before the cut');
    // Named as --reporter json names it: the cut string's line, where the string starts.
    const expected = await readReportFile(CLI, path).then(
      () => 'read',
      (e: Error) => e.message,
    );
    assert.equal(seen.error, expected);
    assert.match(
      expected,
      new RegExp(`^${path}:${cut.split('\n').length}:\\d+: expected a JSON report, saw a JSON syntax error`),
    );
  });

  it('a result half-way that does not fit the schema: the parts before it are handed on, then the error names its line and column', async () => {
    const { path, text } = bigReport('bad.json', (line, i) =>
      i === 7500 ? line.replace('"score":1', '"score":"high"') : line,
    );
    const seen = await stream(path);
    assert.equal(
      seen.results,
      6000,
      'the first two parts (1,000 + 5,000 results); the part holding the bad one is not handed on',
    );
    const lines = text.split('\n');
    const line = lines.findIndex((l) => l.includes('"score":"high"'));
    const column = (lines[line] ?? '').indexOf('"high"') + 1;
    assert.match(
      seen.error ?? '',
      new RegExp(
        `^${path}:${line + 1}:${column}: expected an EvalLens report \\(schemas/report.schema.json\\), but at /results/7500/score the value must be number`,
      ),
    );
  });

  it('a result half-way nested too deep: the parts before it are handed on, then the error --reporter json gives', async () => {
    const { path } = bigReport('deep-later.json', (line, i) =>
      i === 9000 ? line.replace(/\}$/, `,"details":${'['.repeat(300)}${']'.repeat(300)}}`) : line,
    );
    const seen = await stream(path);
    assert.equal(seen.results, 6000, 'the parts before the one holding it');
    const expected = await readReportFile(CLI, path).then(
      () => 'read',
      (e: Error) => e.message,
    );
    assert.match(expected, /nested more than 256 levels deep/);
    assert.equal(seen.error, expected);
  });

  it('says what --reporter json says for a report broken before its results', async () => {
    const text = readFileSync(FIXTURE, 'utf8');
    for (const [name, broken] of [
      ['comma.json', text.replace('"cancelled":false,', '"cancelled":false')],
      ['schema.json', text.replace('"numTrials":1', '"numTrials":"one"')],
      ['notjson.json', 'hello'],
      // Positions count characters as editors do (UTF-16 units), after a byte order mark and non-ASCII text.
      [
        'bom-schema.json',
        `\ufeff${text.replace('texts are equal', 'tëxts 😀 are equal').replace('"numTrials":1', '"numTrials":"one"')}`,
      ],
      [
        'bom-deep.json',
        `\ufeff${text
          .replace('texts are equal', 'tëxts 😀 are equal')
          .replace('"durationMs":1}', `"durationMs":1,"details":${'['.repeat(300)}${']'.repeat(300)}}`)}`,
      ],
      ['deep.json', text.replace('"durationMs":1}', `"durationMs":1,"details":${'['.repeat(300)}${']'.repeat(300)}}`)],
      ['empty.json', ''],
    ] as const) {
      const path = join(dir, name);
      writeFileSync(path, broken);
      const seen = await stream(path);
      assert.deepEqual(
        seen.events.filter((e) => e !== 'cli exited'),
        [],
        `${name}: nothing handed on`,
      );
      const expected = await readReportFile(CLI, path).then(
        () => 'read',
        (e: Error) => e.message,
      );
      assert.equal(seen.error, expected, name);
    }
  });

  it('a report whose fields come after its results (another order than the CLI writes) streams as it reads whole', async () => {
    const { text } = bigReport('order.json');
    const base = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Report;
    const scorers = JSON.stringify(base.scorers);
    // `scorers` moved after the results: the file still ends "]}", so the first part is tried early, misses
    // the scorers, and the whole layout is read first instead.
    const moved = `${text.replace(`"scorers":${scorers},`, '').replace(/\n\]\}\n$/, '')}\n],"scorers":${scorers}}\n`;
    assert.notEqual(moved, text);
    const path = join(dir, 'order-moved.json');
    writeFileSync(path, moved);
    const seen = await stream(path);
    assert.equal(seen.error, undefined);
    assert.equal(seen.results, RESULTS);
    assert.deepEqual(await streamWholeReport(CLI, path), withoutDetails(await readReportFile(CLI, path)));
  });

  it('a report with a second "results" after its results: the error names it at file:line:col', async () => {
    const { text } = bigReport('twice.json');
    const twice = text.replace(/\n\]\}\n$/, '\n],\n"results":[]}\n');
    const path = join(dir, 'twice-results.json');
    writeFileSync(path, twice);
    const seen = await stream(path);
    const line = twice.split('\n').findIndex((l) => l.startsWith('"results":[]')) + 1;
    assert.match(
      seen.error ?? '',
      new RegExp(
        `^${path}:${line}:1: expected the results to be the report's last field.*saw the field "results" after them`,
      ),
    );
  });

  it('prints bidi and C1 characters of a report as \\u escapes, as --reporter json does', () => {
    const text = readFileSync(FIXTURE, 'utf8').replace('texts are equal', 'texts \u202e are\u0085 equal');
    const path = join(dir, 'bidi.json');
    writeFileSync(path, text);
    const printed = spawnSync(process.execPath, [CLI, 'report', path, '--stream'], { encoding: 'utf8' }).stdout;
    assert.ok(printed.includes('texts \\u202e are\\u0085 equal'), printed.slice(0, 300));
    assert.doesNotMatch(printed, /[\u202e\u0085]/);
  });

  it("forks the CLI's report --stream bundled alone (dist/reportStream.js), which prints what the CLI prints", () => {
    const alone = join(dirname(CLI), 'reportStream.js');
    assert.equal(streamEntry(CLI), alone);
    assert.equal(streamEntry(join(dir, 'cli.js')), join(dir, 'cli.js'), 'an older build without it: the CLI itself');
    const { path } = bigReport('alone.json');
    const args = ['report', path, '--stream', '--no-color'];
    const byCli = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
    const byAlone = spawnSync(process.execPath, [alone, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
    assert.equal(byAlone.status, 0);
    assert.equal(byAlone.stdout, byCli.stdout);
    const id = '-c1';
    const detailsByCli = spawnSync(process.execPath, [CLI, 'report', path, `--details-of=${id}`], { encoding: 'utf8' });
    const detailsByAlone = spawnSync(process.execPath, [alone, 'report', path, `--details-of=${id}`], {
      encoding: 'utf8',
    });
    assert.equal(detailsByAlone.status, 0);
    assert.equal(detailsByAlone.stdout, detailsByCli.stdout);
    assert.match(detailsByAlone.stdout, /^\{"ok":true,"runId":/);
    const wrong = spawnSync(process.execPath, [alone, 'report', path], { encoding: 'utf8' });
    assert.equal(wrong.status, 2);
    assert.match(wrong.stderr, /usage: reportStream\.js report/);
  });

  it('stops a CLI whose line is longer than the cap', async () => {
    const { path } = bigReport('capped.json');
    await assert.rejects(
      streamWholeReport(CLI, path, { maxLineChars: 1000 }),
      /a part of the report is larger than 1000 bytes/,
    );
  });
});
