import type { Json } from '../../../case';
import { readText } from '../../../judge/answerParser';
import { error, pass, unsupported } from '../../../result';
import schema from '../../../../schemas/scorers/parameter_analysis.schema.json';
import { prepared } from '../../scorer';
import { goalOf, toolCallsOf } from './conversation';
import { askJudge } from './judgeSupport';
import { defineJudgeScorer } from './defineJudgeScorer';

/**
 * EvalBench's `parameter_analysis`: one judge call reviews the arguments of every tool call and
 * gives feedback per call. It always scores 100 when the judge answers; the feedback is the point
 * and goes to `details`. A trace with no tool calls has nothing to review (`unsupported`, no call).
 */
export const parameterAnalysis = defineJudgeScorer('parameter_analysis', {
  schema,
  prepare(judge) {
    return prepared({
      async score(input, signal) {
        const calls = toolCallsOf(input.case);
        if ('reason' in calls) return unsupported(calls.reason);
        if (calls.calls === 0) return unsupported('the trace has no tool calls, so there are no arguments to review');
        const asked = await askJudge(
          judge,
          'parameter_analysis',
          { goal: goalOf(input.case) ?? '(not given)', tool_calls: calls.text },
          signal,
        );
        if (!asked.ok) return asked.verdict;
        const reviewed = asked.object['calls'];
        if (!Array.isArray(reviewed))
          return error('the judge\'s answer has no "calls" list of per-call feedback', asked.details);
        const details: { [key: string]: Json } = { ...asked.details, calls: reviewed };
        const summary = readText(asked.object, 'summary');
        if (summary !== undefined) details['summary'] = summary;
        const flagged = reviewed.filter(
          (c) =>
            typeof c === 'object' &&
            c !== null &&
            !Array.isArray(c) &&
            ['questionable', 'wrong'].includes(String((c as { [k: string]: Json })['assessment'])),
        ).length;
        const unrecorded = calls.calls - calls.withArguments;
        const note =
          unrecorded > 0 ? `; ${unrecorded} call${unrecorded === 1 ? '' : 's'} had no recorded arguments` : '';
        return pass(
          `feedback on ${calls.calls} tool call${calls.calls === 1 ? '' : 's'} (${flagged} flagged questionable or wrong) in details; parameter_analysis always scores 100${note}`,
          100,
          details,
        );
      },
    });
  },
});
