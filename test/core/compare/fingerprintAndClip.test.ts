import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import type { Json } from '../../../core/case';
import { CollectedRun } from '../../../core/compare/collectRun';
import { compareRuns } from '../../../core/compare/compareRuns';
import { canonicalJson, caseFingerprint } from '../../../core/compare/fingerprint';
import { clipToRange } from '../../../core/stats/clip';

describe('caseFingerprint', () => {
  it('hashes the canonical JSON of input and expected: keys sorted, first 16 hex of SHA-256', () => {
    // Written out by hand: keys "expected" < "input", and inside input "a" < "b".
    const text = '{"expected":"yes","input":{"a":[1,2],"b":"q"}}';
    const expected = createHash('sha256').update(text).digest('hex').slice(0, 16);
    assert.equal(caseFingerprint({ input: { b: 'q', a: [1, 2] }, expected: 'yes' }), expected);
    assert.equal(canonicalJson({ b: 'q', a: [1, 2] }), '{"a":[1,2],"b":"q"}');
  });

  it('leaves out a missing field and counts nothing else', () => {
    const inputOnly = createHash('sha256').update('{"input":"q"}').digest('hex').slice(0, 16);
    assert.equal(caseFingerprint({ input: 'q' }), inputOnly);
    // Output, context and metadata are not part of what is asked.
    const withOthers = { input: 'q', output: 'a', metadata: { tag: 1 } } as Parameters<typeof caseFingerprint>[0];
    assert.equal(caseFingerprint(withOthers), inputOnly);
    assert.notEqual(caseFingerprint({ input: 'q', expected: null }), inputOnly);
  });

  it('gives the values baselines hold: the canonical JSON of the two-field object, whatever the fields hold', () => {
    const reference = (c: Parameters<typeof caseFingerprint>[0]) => {
      const fields: { [key: string]: Json } = {};
      if (c.expected !== undefined) fields['expected'] = c.expected;
      if (c.input !== undefined) fields['input'] = c.input;
      return createHash('sha256').update(canonicalJson(fields)).digest('hex').slice(0, 16);
    };
    const values: (Json | undefined)[] = [
      undefined,
      null,
      '',
      'é "quoted" \\ \n \u2028 😀',
      0,
      -1.5e-7,
      true,
      [],
      {},
      { z: 1, a: [{ y: 'x', b: null }] },
    ];
    for (const input of values)
      for (const expected of values) {
        const c = { ...(input === undefined ? {} : { input }), ...(expected === undefined ? {} : { expected }) };
        assert.equal(caseFingerprint(c), reference(c), JSON.stringify(c));
      }
    // One value written out, as a baseline in git holds it.
    assert.equal(caseFingerprint({}), createHash('sha256').update('{}').digest('hex').slice(0, 16));
    assert.equal(caseFingerprint({ input: 'q', expected: 'a' }), 'bc5fbe0ddb53c473');
  });
});

describe('a shared case whose fingerprint changed', () => {
  function run(ids: readonly string[], passed: (i: number) => boolean, fingerprint: (i: number) => string | undefined) {
    const collected = new CollectedRun(['ok']);
    ids.forEach((id, i) => {
      const f = fingerprint(i);
      collected.addCase({
        id,
        status: passed(i) ? 'passed' : 'failed',
        ...(f === undefined ? {} : { fingerprint: f }),
      });
      collected.addResult({ caseId: id, scorer: 'ok', score: passed(i) ? 1 : 0, passed: passed(i) });
    });
    return collected;
  }
  const ids = Array.from({ length: 12 }, (_, i) => `c${String(i).padStart(2, '0')}`);
  const side = [{ name: 'ok', lowerIsBetter: false }];

  it('keeps its transition, is flagged `changed` and is left out of the statistics', () => {
    // c00 regressed but asks something else now: only c01 regressed among the 11 compared cases.
    const baseline = run(
      ids,
      () => true,
      (i) => `${String(i).padStart(16, '0')}`,
    );
    const candidate = run(
      ids,
      (i) => i > 1,
      (i) => (i === 0 ? 'ffffffffffffffff' : `${String(i).padStart(16, '0')}`),
    );
    const comparison = compareRuns(baseline, candidate, side, side);
    assert.equal(comparison.changed, 1);
    const cases = [...comparison.cases()];
    assert.deepEqual(cases[0], { id: 'c00', transition: 'regressed', changed: true });
    assert.deepEqual(cases[1], { id: 'c01', transition: 'regressed' });
    const [row] = comparison.scorers;
    assert.equal(row?.delta.n, 11);
    assert.deepEqual(row?.discordant, { regressed: 1, fixed: 0 });
    // The pass rate fell by 1 of the 11 compared cases.
    assert.ok(Math.abs((row?.delta.mean ?? 0) + 1 / 11) < 1e-12);
  });

  it('compares as before when a side has no fingerprints (an older report)', () => {
    const baseline = run(
      ids,
      () => true,
      () => undefined,
    );
    const candidate = run(
      ids,
      (i) => i > 1,
      (i) => (i === 0 ? 'ffffffffffffffff' : '0000000000000000'),
    );
    const comparison = compareRuns(baseline, candidate, side, side);
    assert.equal(comparison.changed, 0);
    assert.equal(comparison.scorers[0]?.delta.n, 12);
    assert.deepEqual(comparison.scorers[0]?.discordant, { regressed: 2, fixed: 0 });
  });
});

describe('intervals on a bounded scale', () => {
  it('clips the reported ends to the scale', () => {
    // The brief's example: 3 cases of a 0–100 score gave [−97.7, 217.7].
    assert.deepEqual(clipToRange(-97.7, 217.7, 0, 100), { ci_low: 0, ci_high: 100 });
    assert.deepEqual(clipToRange(12, 80, 0, 100), { ci_low: 12, ci_high: 80 });
    assert.deepEqual(clipToRange(null, null, 0, 1), { ci_low: null, ci_high: null });
  });

  it('clips a comparison of a 0–100 score: each mean to [0, 100], the delta to ±100', () => {
    // Three cases 0, 100, 100 then 100, 0, 0: means 66.7 and 33.3, each with a t(2) interval far past
    // the scale (66.7 ± 4.303 · 33.3 = [−76.8, 210.1]); d = +100, −100, −100: d̄ = −33.3 ± 4.303 · 66.7.
    const make = (scores: number[]) => {
      const r = new CollectedRun(['score']);
      scores.forEach((s, i) => {
        r.addCase({ id: `c${i}`, status: 'passed' });
        r.addResult({ caseId: `c${i}`, scorer: 'score', score: s });
      });
      return r;
    };
    const side = [{ name: 'score', lowerIsBetter: false, max: 100 }];
    const [row] = compareRuns(make([0, 100, 100]), make([100, 0, 0]), side, side).scorers;
    assert.ok(row !== undefined);
    assert.deepEqual([row.baseline.ci_low, row.baseline.ci_high], [0, 100]);
    assert.deepEqual([row.candidate.ci_low, row.candidate.ci_high], [0, 100]);
    assert.deepEqual([row.delta.ci_low, row.delta.ci_high], [-100, 100]);
    assert.equal(row.verdict, 'not enough data');
  });
});
