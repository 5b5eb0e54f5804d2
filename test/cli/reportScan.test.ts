import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ReportScan, scanReport } from '../../cli/reportStream';

const text = (value: string): Buffer => Buffer.from(value, 'utf8');

/** A report-shaped text: some fields, `cases` and `results` of n elements each, then `tail`. */
function report(n: number, tail = ''): string {
  const items = (prefix: string) =>
    Array.from({ length: n }, (_, i) => `{"id":"${prefix}${i}","s":"a \\" ] } , [ {"}`).join(',\n');
  return `{"version":1,"summary":{"total":${n}},\n"cases":[\n${items('c')}\n],\n"results":[\n${items('r')}\n]${tail}\n}\n`;
}

describe('ReportScan (the stream scans a report only as far as each part needs)', () => {
  it('stops once enough elements are found, and resumes to the layout a whole scan finds', () => {
    const body = text(report(50, ',"imported":{"a":[1]}'));
    const scan = new ReportScan(body);
    scan.advance(() => scan.results.length >= 10);
    assert.equal(scan.done, false);
    assert.equal(scan.cases.length, 50, 'the cases come first, so all of them');
    assert.equal(scan.results.length, 10);
    assert.deepEqual([...scan.fields.keys()], ['version', 'summary'], 'the field after the results is not reached yet');
    scan.advance();
    const whole = scanReport(body);
    assert.equal(scan.done, true);
    assert.deepEqual(scan.cases, whole.cases);
    assert.deepEqual(scan.results, whole.results);
    assert.deepEqual([...scan.fields], [...whole.fields]);
    assert.equal(scan.brokenAt, undefined);
    assert.deepEqual(
      scan.afterResults.map((f) => f.key),
      ['imported'],
    );
    const [first] = scan.results;
    assert.deepEqual(JSON.parse(body.toString('utf8', ...(first ?? [0, 0]))), { id: 'r0', s: 'a " ] } , [ {' });
  });

  it('resuming element by element finds the same elements as one pass', () => {
    const body = text(report(7));
    const scan = new ReportScan(body);
    let steps = 0;
    while (!scan.done) {
      const seen = scan.cases.length + scan.results.length;
      scan.advance(() => scan.cases.length + scan.results.length > seen);
      steps++;
    }
    assert.ok(steps >= 14, `one element a step (${steps} steps)`);
    const whole = scanReport(body);
    assert.deepEqual(scan.cases, whole.cases);
    assert.deepEqual(scan.results, whole.results);
  });

  it('notes the elements nested deeper than a report allows, and only those', () => {
    const deep = `{"x":${'['.repeat(254)}${']'.repeat(254)}}`;
    const limit = `{"x":${'['.repeat(253)}${']'.repeat(253)}}`;
    const scan = new ReportScan(text(`{"cases":[${limit}],"results":[{"s":"[[["},${deep}]}`)).advance();
    assert.deepEqual(
      [...scan.tooDeep],
      [scan.results[1]],
      '254 levels inside the element plus its two is past 256; 253 is not; brackets in strings count for nothing',
    );
  });

  it('notes where the structure breaks, and cases after the results are no field the head misses', () => {
    const cut = report(20).slice(0, 300);
    const scan = new ReportScan(text(cut)).advance();
    assert.equal(scan.done, true);
    assert.ok(scan.brokenAt !== undefined && scan.brokenAt > 0);
    const reordered = new ReportScan(text('{"results":[{"a":1}],"cases":[{"b":2}],"results":[]}')).advance();
    assert.deepEqual(
      reordered.afterResults.map((f) => f.key),
      ['results'],
      'a second results is noted; the first cases are not',
    );
  });
});
