/**
 * A threshold must lie on its scorer's scale, and `pass_criteria.threshold` must have a job score to
 * test (issue 13, item 15): both are load-time problems at the key's line and column, never a run
 * whose summary contradicts itself.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRunConfig } from '../../../core/config/parseRunConfig';
import type { Problem } from '../../../core/problem';
import { BUILTIN_SCORERS } from '../../../core/scorers/builtinScorers';

const FILE = '/tmp/threshold-scale/config.eval.yaml';

function problems(text: string): Problem[] {
  return parseRunConfig(`cases: [{id: a, output: x, expected: x}]\n${text}`, FILE, {}).problems;
}

function only(found: readonly Problem[], code: string): Problem {
  const matching = found.filter((p) => p.code === code);
  assert.equal(matching.length, 1, JSON.stringify(found));
  return matching[0] as Problem;
}

describe('a threshold on its scorer’s scale', () => {
  it('refuses threshold: 80 on a 0–1 scorer, at the value, saying the scale', () => {
    const found = problems('scorers:\n  exact_match:\n    threshold: 80\n');
    const problem = only(found, 'threshold-off-scale');
    assert.equal(problem.severity, 'error');
    assert.deepEqual([problem.range.start.line, problem.range.start.column], [3, 15]);
    assert.equal(
      problem.message,
      'exact_match: the threshold must lie between 0 and 1: exact_match scores from 0 to 1 (for 80%, write 0.8)',
    );
  });

  it('refuses a negative threshold, in the list form too', () => {
    const problem = only(problems('scorers:\n  - type: edit_similarity\n    threshold: -0.1\n'), 'threshold-off-scale');
    assert.deepEqual([problem.range.start.line, problem.range.start.column], [3, 15]);
  });

  it('accepts the ends of a 0–100 scale and refuses what is past them', () => {
    const ok = problems('scorers:\n  python_scorer: {script_path: s.py, threshold: 100}\n');
    assert.equal(ok.filter((p) => p.code === 'threshold-off-scale').length, 0, JSON.stringify(ok));
    const problem = only(
      problems('scorers:\n  python_scorer: {script_path: s.py, threshold: 101}\n'),
      'threshold-off-scale',
    );
    assert.match(problem.message, /0 to 100/);
  });

  it('accepts any threshold of 0 or more on a count, and refuses a negative one', () => {
    const ok = problems('scorers:\n  mcp_token_cost: {threshold: 50000, lower_is_better: true}\n');
    assert.equal(ok.filter((p) => p.code === 'threshold-off-scale').length, 0, JSON.stringify(ok));
    assert.match(
      only(problems('scorers:\n  mcp_token_cost: {threshold: -1}\n'), 'threshold-off-scale').message,
      /0 or more/,
    );
  });
});

describe('pass_criteria.threshold', () => {
  it('is a warning when no scorer has a threshold, so there is no job score to test', () => {
    const found = problems('pass_criteria:\n  threshold: 0.7\nscorers:\n  exact_match: {}\n');
    const problem = only(found, 'pass-criteria-unused');
    assert.equal(problem.severity, 'warning');
    assert.deepEqual([problem.range.start.line, problem.range.start.column], [2, 2]);
    assert.match(problem.message, /does nothing/);
  });

  it('is quiet when a scorer has a threshold (its own or its default)', () => {
    for (const scorers of ['  exact_match: {threshold: 0.9}\n', '  edit_similarity: {}\n']) {
      const found = problems(`pass_criteria:\n  threshold: 0.7\nscorers:\n${scorers}`);
      assert.equal(found.filter((p) => p.code === 'pass-criteria-unused').length, 0, JSON.stringify(found));
    }
  });

  it('is a warning when only counts have thresholds (they stay out of the job score)', () => {
    only(
      problems('pass_criteria:\n  threshold: 0.7\nscorers:\n  mcp_token_cost: {threshold: 10}\n'),
      'pass-criteria-unused',
    );
  });

  it('must lie on the job score’s 0–1 scale', () => {
    const problem = only(
      problems('pass_criteria:\n  threshold: 70\nscorers:\n  exact_match: {threshold: 1}\n'),
      'threshold-off-scale',
    );
    assert.deepEqual([problem.range.start.line, problem.range.start.column], [2, 13]);
    assert.match(problem.message, /0 to 1/);
  });
});

describe('the scale check is the one place a threshold is checked (issue 14, item 4)', () => {
  it('refuses a threshold past the scale of every built-in scorer, once, saying its scale', () => {
    for (const definition of BUILTIN_SCORERS) {
      const { key, scale } = definition;
      const examples = definition.schema['examples'];
      const example = Array.isArray(examples) && typeof examples[0] === 'object' ? (examples[0] as object) : {};
      const threshold = scale.kind === 'count' ? -1 : scale.max + 1;
      const found = problems(`scorers:\n  ${key}: ${JSON.stringify({ ...example, threshold })}\n`).filter(
        (p) => p.code === 'threshold-off-scale' || p.code === 'invalid-option',
      );
      assert.equal(found.length, 1, `${key}: ${JSON.stringify(found)}`);
      const expected =
        scale.kind === 'count'
          ? `${key}: the threshold must be 0 or more`
          : `${key}: the threshold must lie between 0 and ${scale.max}: ${key} scores from 0 to ${scale.max}`;
      assert.ok(found[0]?.message.startsWith(expected), `${key}: ${found[0]?.message}`);
    }
  });
});
