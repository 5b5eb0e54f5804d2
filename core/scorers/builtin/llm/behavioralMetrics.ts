import type { Json } from '../../../case';
import { readCount, readText } from '../../../judge/answerParser';
import { error, unsupported } from '../../../result';
import schema from '../../../../schemas/scorers/behavioral_metrics.schema.json';
import { prepared } from '../../scorer';
import { percentVerdict } from '../../support/sqlRows';
import { conversationOf, goalOf } from './conversation';
import { askJudge } from './judgeSupport';
import { defineJudgeScorer } from './defineJudgeScorer';

/** EvalBench's penalties: 50 per hallucination, 20 per unnecessary clarification, from 100, never below 0. */
export const HALLUCINATION_PENALTY = 50;
export const CLARIFICATION_PENALTY = 20;

/**
 * EvalBench's `behavioral_metrics`: one judge call counts hallucinations and unnecessary
 * clarifications. EvalBench reads the counts with a regex and takes 0 for a count it cannot find;
 * EvalLens asks for JSON and answers `error` when a count is missing, so a judge that rambles is not
 * scored as flawless.
 */
export const behavioralMetrics = defineJudgeScorer('behavioral_metrics', {
  schema,
  prepare(judge, options) {
    return prepared({
      async score(input, signal) {
        const conversation = conversationOf(input.case, input.output, options.include_tool_calls);
        if (conversation === undefined)
          return unsupported('the case has no conversation to judge: no trace messages, no input and no output');
        const asked = await askJudge(
          judge,
          'behavioral_metrics',
          { goal: goalOf(input.case) ?? '(not given)', conversation },
          signal,
        );
        if (!asked.ok) return asked.verdict;
        const hallucinations = readCount(asked.object, 'hallucinations', 0, 1000);
        if (!hallucinations.ok) return error(hallucinations.reason, asked.details);
        const clarifications = readCount(asked.object, 'unnecessary_clarifications', 0, 1000);
        if (!clarifications.ok) return error(clarifications.reason, asked.details);
        const score = Math.max(
          0,
          100 - HALLUCINATION_PENALTY * hallucinations.value - CLARIFICATION_PENALTY * clarifications.value,
        );
        const details: { [key: string]: Json } = {
          ...asked.details,
          hallucinations: hallucinations.value,
          unnecessary_clarifications: clarifications.value,
        };
        const explanation = readText(asked.object, 'explanation');
        if (explanation !== undefined) details['judge_reason'] = explanation;
        const counts = `${hallucinations.value} hallucination${hallucinations.value === 1 ? '' : 's'} and ${clarifications.value} unnecessary clarification${clarifications.value === 1 ? '' : 's'}`;
        return percentVerdict(
          score,
          `the judge found ${counts}: 100 − ${HALLUCINATION_PENALTY}×${hallucinations.value} − ${CLARIFICATION_PENALTY}×${clarifications.value} = ${score}`,
          details,
        );
      },
    });
  },
});
