import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Json } from '../../../core/case';
import { skillsTrajectory } from '../../../core/scorers/builtin/skillsTrajectory';
import { schemaErrors, score } from '../../support/scoring';
import { parseRunConfig } from '../../../core/config/parseRunConfig';
import { displayLineColumn } from '../../../shared/text/displayPosition';
import { thresholdOffScale } from '../../../core/config/thresholdScale';

/** A trace in the native format with one skill step per name. */
function skills(...names: string[]): Json {
  return { steps: names.map((name) => ({ type: 'skill', name })) };
}

// Expected numbers are EvalBench's formulas worked by hand (and checked with Python's floats).
describe('skills_trajectory', () => {
  it('scores Jaccard on sets by default: 1 shared of 3 distinct skills', async () => {
    const v = await score(skillsTrajectory, {}, { expected: ['pdf', 'docx'], trace: skills('pdf', 'xlsx', 'pdf') });
    assert.equal(v.status, 'fail');
    assert.equal(v.score, 33.33333333333333);
    assert.equal(v.reason, '1 of 2 expected skills was activated; 1 unexpected (Jaccard 33.33)');
    assert.deepEqual(v.details?.['missing'], ['docx']);
    assert.deepEqual(v.details?.['unexpected'], ['xlsx']);
  });

  it('passes at exactly 100', async () => {
    const v = await score(skillsTrajectory, {}, { expected: ['pdf', 'docx'], trace: skills('docx', 'pdf') });
    assert.equal(v.status, 'pass');
    assert.equal(v.score, 100);
  });

  it('with enforce_order, uses Levenshtein over the lists: a swap is 2 edits of 3', async () => {
    const v = await score(
      skillsTrajectory,
      { enforce_order: true },
      { expected: ['a', 'b', 'c'], trace: skills('a', 'c', 'b') },
    );
    assert.equal(v.score, 33.333333333333336);
    assert.equal(
      v.reason,
      'the 3 skill activations are 2 edits from the 3 expected, in order (Levenshtein similarity 33.33)',
    );
    // A repeat counts: [a, b] against [a, b, b] is one insertion of 3.
    assert.equal(
      (await score(skillsTrajectory, { enforce_order: true }, { expected: ['a', 'b'], trace: skills('a', 'b', 'b') }))
        .score,
      66.66666666666667,
    );
  });

  it('with allow_extra_skills, scores coverage of the expected set: extras do not lower it', async () => {
    const half = await score(
      skillsTrajectory,
      { allow_extra_skills: true },
      { expected: ['a', 'b'], trace: skills('a', 'c', 'd') },
    );
    assert.equal(half.score, 50);
    assert.equal(half.reason, '1 of 2 expected skills was activated; extra skills allowed (coverage 50)');
    const all = await score(
      skillsTrajectory,
      { allow_extra_skills: true },
      { expected: ['a'], trace: skills('a', 'b', 'c') },
    );
    assert.equal(all.status, 'pass');
    assert.equal(all.score, 100);
  });

  it('with allow_extra_skills, an empty expected list scores 100 whatever was activated; without it, 0', async () => {
    const allowed = await score(
      skillsTrajectory,
      { allow_extra_skills: true },
      { expected: [], trace: skills('a', 'b') },
    );
    assert.equal(allowed.status, 'pass');
    assert.equal(allowed.score, 100);
    const strict = await score(skillsTrajectory, {}, { expected: [], trace: skills('a', 'b') });
    assert.equal(strict.score, 0);
  });

  it('scores two empty lists 100 under every rule', async () => {
    for (const options of [{}, { enforce_order: true }, { allow_extra_skills: true }]) {
      const v = await score(skillsTrajectory, options, { expected: [], trace: { steps: [] } });
      assert.equal(v.score, 100, JSON.stringify(options));
      assert.equal(v.status, 'pass');
    }
  });

  it('strips ignore_prefix from the activated names only, never from the expected ones', async () => {
    const v = await score(
      skillsTrajectory,
      { ignore_prefix: 'plugin:' },
      { expected: ['pdf', 'docx'], trace: skills('plugin:pdf', 'plugin:docx', 'other') },
    );
    assert.equal(v.score, 66.66666666666666);
    assert.deepEqual(v.details?.['actual'], ['pdf', 'docx', 'other']);
    assert.deepEqual(v.details?.['recorded'], ['plugin:pdf', 'plugin:docx', 'other']);
    const prefixedExpected = await score(
      skillsTrajectory,
      { ignore_prefix: 'plugin:' },
      { expected: ['plugin:pdf'], trace: skills('plugin:pdf') },
    );
    assert.equal(prefixedExpected.score, 0);
  });

  it('refuses enforce_order with allow_extra_skills when the config is checked: a schema rule, at the options, naming both', () => {
    // The options' schema says it, so the check refuses it before any scorer is prepared (and the editor as you type).
    assert.notDeepEqual(schemaErrors(skillsTrajectory, { enforce_order: true, allow_extra_skills: true }), []);
    for (const options of [
      { enforce_order: true },
      { allow_extra_skills: true },
      { enforce_order: true, allow_extra_skills: false },
      { enforce_order: false, allow_extra_skills: true },
    ]) {
      assert.deepEqual(schemaErrors(skillsTrajectory, options), [], JSON.stringify(options));
    }
    const text =
      'dataset: d.jsonl\nscorers:\n  skills_trajectory:\n    enforce_order: true\n    allow_extra_skills: true\n';
    const problems = parseRunConfig(text, '/evals/c.eval.yaml', {}, { fileExists: () => true }).problems.filter(
      (p) => p.severity === 'error',
    );
    assert.deepEqual(
      problems.map((p) => `${displayLineColumn(p.range.start)} ${p.code}: ${p.message}`),
      [
        '5:5 conflicting-options: `scorers.skills_trajectory` takes `enforce_order: true` or `allow_extra_skills: true`, not both',
      ],
    );
    assert.deepEqual(problems[0]?.suggestions, ['enforce_order', 'allow_extra_skills']);
  });

  it('refuses a threshold off the 0–100 scale; the schema rejects unknown options', () => {
    assert.match(thresholdOffScale(skillsTrajectory, -1) ?? '', /between 0 and 100/);
    assert.notDeepEqual(schemaErrors(skillsTrajectory, { ignore_extra_skills: true }), []);
  });

  it('reads expected.skills when the expected value is an object', async () => {
    const v = await score(
      skillsTrajectory,
      {},
      { expected: { skills: ['pdf'], trajectory: ['a__x'] }, trace: skills('pdf') },
    );
    assert.equal(v.status, 'pass');
  });

  it('treats a missing expected list as empty (EvalBench: None is [])', async () => {
    assert.equal((await score(skillsTrajectory, {}, { trace: { steps: [] } })).score, 100);
    assert.equal((await score(skillsTrajectory, {}, { expected: { answer: 'x' }, trace: skills('pdf') })).score, 0);
  });

  it('is an error when a present expected value is not a list of skill names', async () => {
    assert.equal((await score(skillsTrajectory, {}, { expected: 'pdf', trace: skills('pdf') })).status, 'error');
    assert.equal(
      (await score(skillsTrajectory, {}, { expected: { skills: { pdf: true } }, trace: skills('pdf') })).status,
      'error',
    );
    const item = await score(skillsTrajectory, {}, { expected: [null], trace: skills('pdf') });
    assert.equal(item.status, 'error');
    assert.match(item.reason, /item 1 .* is null, not a skill name/);
  });

  it('reads skill steps only: tool calls are not skills', async () => {
    const trace = {
      steps: [
        { type: 'tool_call', name: 'pdf' },
        { type: 'skill', name: 'pdf' },
        { type: 'tool_call', name: 'a__x' },
      ],
    };
    assert.equal((await score(skillsTrajectory, {}, { expected: ['pdf'], trace })).status, 'pass');
  });

  it('is unsupported when the case has no trace, or a trace with figures but no steps', async () => {
    assert.equal((await score(skillsTrajectory, {}, { expected: ['pdf'] })).status, 'unsupported');
    assert.equal(
      (await score(skillsTrajectory, {}, { expected: ['pdf'], trace: { turns: [] } })).status,
      'unsupported',
    );
  });

  it('reads the skills of an EvalBench record (accumulated_skills)', async () => {
    const record = { conversation_history: [], accumulated_skills: ['pdf', 'docx'] };
    assert.equal((await score(skillsTrajectory, {}, { expected: ['docx', 'pdf'], trace: record })).status, 'pass');
  });

  it('is a 0–100 EvalBench scorer', () => {
    assert.deepEqual(skillsTrajectory.scale, { kind: 'bounded', max: 100 });
    assert.equal(skillsTrajectory.origin, 'EvalBench');
  });
});
