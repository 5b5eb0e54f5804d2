import type { Json } from '../../../case';
import { readChoice, readText } from '../../../judge/answerParser';
import { error, unsupported } from '../../../result';
import schema from '../../../../schemas/scorers/goal_completion.schema.json';
import { prepared } from '../../scorer';
import { percentVerdict } from '../../support/sqlRows';
import { conversationOf, goalOf } from './conversation';
import { askJudge } from './judgeSupport';
import { defineJudgeScorer } from './defineJudgeScorer';

/**
 * EvalBench's `goal_completion`: one judge call on the goal (the conversation plan) and the
 * conversation; 100 for PASS, 0 for FAIL (as the seed documents it). The sub-goals the judge
 * checked go to `details`.
 */
export const goalCompletion = defineJudgeScorer('goal_completion', {
  schema,
  prepare(judge, options) {
    return prepared({
      async score(input, signal) {
        const goal = goalOf(input.case);
        if (goal === undefined)
          return unsupported(
            'the case has no conversation_plan (in its metadata) and no input, so there is no goal to judge against',
          );
        const conversation = conversationOf(input.case, input.output, options.include_tool_calls);
        if (conversation === undefined)
          return unsupported('the case has no conversation to judge: no trace messages, no input and no output');
        const asked = await askJudge(judge, 'goal_completion', { goal, conversation }, signal);
        if (!asked.ok) return asked.verdict;
        const verdict = readChoice(asked.object, 'verdict', ['PASS', 'FAIL'] as const);
        if (!verdict.ok) return error(verdict.reason, asked.details);
        const details: { [key: string]: Json } = { ...asked.details };
        const subGoals = asked.object['sub_goals'];
        let counted = '';
        if (Array.isArray(subGoals)) {
          details['sub_goals'] = subGoals;
          const met = subGoals.filter(
            (g) =>
              typeof g === 'object' && g !== null && !Array.isArray(g) && (g as { [k: string]: Json })['met'] === true,
          ).length;
          counted = ` (${met} of ${subGoals.length} sub-goal${subGoals.length === 1 ? '' : 's'} met)`;
        }
        const summary = readText(asked.object, 'summary');
        if (summary !== undefined) details['judge_reason'] = summary;
        return percentVerdict(
          verdict.value === 'PASS' ? 100 : 0,
          verdict.value === 'PASS'
            ? `the judge found the goal accomplished${counted}`
            : `the judge found the goal not accomplished${counted}`,
          details,
        );
      },
    });
  },
});
