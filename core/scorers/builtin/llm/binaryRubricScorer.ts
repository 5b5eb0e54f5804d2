import type { EvalCase, Json } from '../../../case';
import { readChoice, readText } from '../../../judge/answerParser';
import { error, unsupported, type ScorerVerdictPart } from '../../../result';
import schema from '../../../../schemas/scorers/binary_rubric_scorer.schema.json';
import { prepared } from '../../scorer';
import { percentVerdict } from '../../support/sqlRows';
import { conversationOf } from './conversation';
import { askJudge, promptText } from './judgeSupport';
import { defineJudgeScorer } from './defineJudgeScorer';

/**
 * EvalBench's `binary_rubric_scorer`: one judge call per item of the scenario's `binary_rubric`
 * (the case's `metadata.binary_rubric`), each its own result `<name>_<index>` (0-based, as EvalBench
 * enumerates them): PASS 100, FAIL 0. A case with no rubric is one unindexed `unsupported` result
 * with no call: EvalBench scores it 100, but nothing was judged.
 */
export const binaryRubricScorer = defineJudgeScorer('binary_rubric_scorer', {
  itemized: true,
  judgeCalls: (_options, evalCase) => {
    if (evalCase === undefined) return 1;
    const rubric = rubricOf(evalCase);
    return rubric.ok ? rubric.items.length : 0;
  },
  schema,
  prepare(judge, options) {
    return prepared({
      async score(input, signal) {
        const rubric = rubricOf(input.case);
        if (!rubric.ok) return rubric.verdict;
        const conversation = conversationOf(input.case, input.output, options.include_tool_calls);
        if (conversation === undefined)
          return unsupported('the case has no conversation to judge: no trace messages, no input and no output');
        const parts: ScorerVerdictPart[] = [];
        for (const [index, criterion] of rubric.items.entries()) {
          const asked = await askJudge(judge, 'binary_rubric_scorer', { criterion, conversation }, signal);
          const criterionDetail = { criterion };
          if (!asked.ok) {
            parts.push({ index, ...asked.verdict, details: { ...asked.verdict.details, ...criterionDetail } });
            continue;
          }
          const verdict = readChoice(asked.object, 'verdict', ['PASS', 'FAIL'] as const);
          if (!verdict.ok) {
            parts.push({ index, ...error(verdict.reason, { ...asked.details, ...criterionDetail }) });
            continue;
          }
          const details: { [key: string]: Json } = { ...asked.details, ...criterionDetail };
          const explanation = readText(asked.object, 'reason');
          if (explanation !== undefined) details['judge_reason'] = explanation;
          parts.push({
            index,
            ...percentVerdict(
              verdict.value === 'PASS' ? 100 : 0,
              `the judge found rubric item ${index} ${verdict.value === 'PASS' ? 'met' : 'not met'}`,
              details,
            ),
          });
        }
        const passed = parts.filter((p) => p.status === 'pass').length;
        return {
          status: passed === parts.length ? 'pass' : 'fail',
          reason: `${passed} of ${parts.length} rubric items passed`,
          parts,
        };
      },
    });
  },
});

/** The case's rubric: a non-empty list of criteria (strings; any other item as its JSON text). */
function rubricOf(
  evalCase: EvalCase,
):
  | { readonly ok: true; readonly items: readonly string[] }
  | { readonly ok: false; readonly verdict: ReturnType<typeof unsupported> } {
  const metadata = evalCase.metadata;
  const rubric =
    typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata)
      ? (metadata as { readonly [k: string]: Json })['binary_rubric']
      : undefined;
  if (rubric === undefined || rubric === null || (Array.isArray(rubric) && rubric.length === 0)) {
    return {
      ok: false,
      verdict: unsupported(
        'the case declares no binary_rubric (in its metadata), so there is nothing to judge (EvalBench scores this 100)',
      ),
    };
  }
  if (!Array.isArray(rubric))
    return { ok: false, verdict: error(`the case's binary_rubric is not a list of criteria`) };
  return { ok: true, items: (rubric as readonly Json[]).map((item) => promptText(item)) };
}
