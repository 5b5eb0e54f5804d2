import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Json } from '../../../core/case';
import { skillsTrajectory } from '../../../core/scorers/builtin/skillsTrajectory';
import { MAX_COMPARED_NAMES, trajectoryMatcher } from '../../../core/scorers/builtin/trajectoryMatcher';
import { interruptibleListEditDistance, listEditDistance } from '../../../core/scorers/support/listDistance';
import { assertTimesOutMidway, assertYieldsAndStops, seededPicks } from '../../support/interruptibleComparison';
import { score } from '../../support/scoring';

/** A trace in the native format with one skill step per name. */
function skills(names: readonly string[]): Json {
  return { steps: names.map((name) => ({ type: 'skill', name })) };
}

/** Seeded names from a small set, so a failure is reproducible. */
function names(seed: number): (length: number) => string[] {
  return seededPicks(seed, ['s0', 's1', 's2', 's3', 's4', 's5', 's6']);
}

describe('list comparison bounds (skills_trajectory, trajectory_matcher)', () => {
  it('refuses a list over the cap with an error naming its length and the cap, whatever the rule', async () => {
    const many = Array.from({ length: MAX_COMPARED_NAMES + 1 }, (_, i) => `s${i}`);
    for (const options of [{}, { enforce_order: true }, { allow_extra_skills: true }]) {
      const v = await score(skillsTrajectory, options, { expected: many, trace: skills(['s1']) });
      assert.equal(v.status, 'error');
      assert.match(v.reason, /the expected skills has 10001 skills, over the 10000 that are compared/);
      const w = await score(skillsTrajectory, options, { expected: ['s1'], trace: skills(many) });
      assert.match(w.reason, /the recorded skills has 10001 skills/);
    }
    const t = await score(
      trajectoryMatcher,
      { enforce_order: true, filter_native_tools: false },
      { expected: many, trace: [] },
    );
    assert.equal(t.status, 'error');
    assert.match(t.reason, /10001 tools, over the 10000/);
  });

  it('computes the same distance row by row as at once', async () => {
    const list = names(4);
    const signal = new AbortController().signal;
    for (const [n, m] of [
      [0, 5],
      [5, 0],
      [30, 70],
      [101, 99],
      [1, 1],
    ] as const) {
      const a = list(n);
      const b = list(m);
      assert.equal(
        await interruptibleListEditDistance(a, b, signal, { stepsPerChunk: 3 }),
        listEditDistance(a, b),
        `${n}×${m}`,
      );
    }
  });

  it('gives the event loop a turn between chunks and stops once the signal aborts', async () => {
    const list = names(6);
    const [a, b] = [list(2000), list(2000)];
    // One row per chunk, 2000 rows: it stops after the third.
    await assertYieldsAndStops((signal, onChunk) =>
      interruptibleListEditDistance(a, b, signal, { stepsPerChunk: 2000, onChunk }),
    );
  });

  it("lets the runner's time limit fire during a long ordered comparison", async () => {
    const list = names(8);
    await assertTimesOutMidway('scorers:\n  skills_trajectory: {enforce_order: true, timeout_ms: 1}\ncases: []\n', {
      id: 'long',
      expected: list(9000),
      trace: skills(list(9000)),
    });
  });
});
