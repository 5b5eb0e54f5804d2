import type { Json } from '../../case';
import { pass, unsupported } from '../../result';
import schema from '../../../schemas/scorers/skills_trajectory.schema.json';
import type { SkillStep } from '../../trace/trace';
import { traceOf } from '../../trace/traceOf';
import { defineScorer, prepared } from '../scorer';
import { compareNameLists, expectedNames, type NameNouns } from './trajectoryMatcher';

const NOUNS: NameNouns = { one: 'skill', many: 'skills', done: 'activated', event: 'skill activation', list: 'skills' };

/**
 * EvalBench's `skills_trajectory`: the expected skill names against the skills the trace activated.
 * Jaccard on sets by default, list Levenshtein with `enforce_order`, coverage of the expected set with
 * `allow_extra_skills` (the two cannot be combined). Score 0–100; passes at exactly 100 unless a
 * threshold is configured.
 */
export const skillsTrajectory = defineScorer('skills_trajectory', {
  origin: 'EvalBench',
  scale: { kind: 'bounded', max: 100 },
  schema,
  create(options) {
    // enforce_order with allow_extra_skills is refused by the options' schema (its `not`), when the config is checked.
    const prefix = options.ignore_prefix;
    return prepared({
      score({ case: evalCase, expected: given }, signal) {
        const expected = expectedNames(given, 'skills', NOUNS);
        if (!expected.ok) return expected.verdict;
        const lookup = traceOf(evalCase);
        if (!lookup.ok) return unsupported(lookup.reason);
        if (lookup.trace.hasSteps === false)
          return unsupported('the trace records figures but no steps, so there are no activated skills to compare');
        const recorded = lookup.trace.steps.filter((s): s is SkillStep => s.kind === 'skill').map((s) => s.name);
        const actual =
          prefix === ''
            ? recorded
            : recorded.map((name) => (name.startsWith(prefix) ? name.slice(prefix.length) : name));
        const extra: { [key: string]: Json } = {};
        if (!expected.given) extra['expected_given'] = false;
        if (prefix !== '') extra['recorded'] = recorded;
        if (expected.names.length === 0 && actual.length > 0 && options.allow_extra_skills) {
          return pass(`no skills expected and extra skills are allowed: scores 100 (${actual.length} activated)`, 100, {
            rule: 'coverage',
            expected: [],
            actual,
            ...extra,
          });
        }
        const rule = options.enforce_order ? 'levenshtein' : options.allow_extra_skills ? 'coverage' : 'jaccard';
        return compareNameLists(expected.names, actual, rule, NOUNS, '', extra, signal);
      },
    });
  },
});
