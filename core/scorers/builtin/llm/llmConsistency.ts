import type { Json } from '../../../case';
import { readBoolean, readText } from '../../../judge/answerParser';
import { error } from '../../../result';
import schema from '../../../../schemas/scorers/llm_consistency.schema.json';
import { type Prepared, type TrialInput } from '../../scorer';
import { executionRows, percentVerdict, runError } from '../../support/sqlRows';
import { askJudge, promptText } from './judgeSupport';
import { rowsText } from './sqlRowsText';
import { defineJudgeScorer } from './defineJudgeScorer';

/** Rows of each executed trial shown to the judge. */
const ROWS_SHOWN = 50;

/**
 * EvalBench's `llm_consistency`: after every trial of a case, one judge call sees all of them (each
 * trial's error, and its SQL rows when the case was executed, else its output) and says whether
 * they agree in substance: 100 consistent, 0 not. Needs `num_trials` of at least 2 (the runner says so
 * otherwise); its result has trial 0.
 */
export const llmConsistency = defineJudgeScorer('llm_consistency', {
  acrossTrials: true,
  schema,
  prepare(judge): Prepared {
    return {
      ok: true,
      scorer: { score: () => error('llm_consistency compares trials with each other; it scores no single trial') },
      acrossTrials: {
        async scoreTrials(trials, signal) {
          const first = trials[0];
          const question = first === undefined ? '(none)' : promptText(first.case.input);
          const asked = await askJudge(
            judge,
            'llm_consistency',
            { trial_count: String(trials.length), question, trials: trials.map(trialText).join('\n\n') },
            signal,
          );
          if (!asked.ok) return asked.verdict;
          const consistent = readBoolean(asked.object, 'consistent');
          if (!consistent.ok) return error(consistent.reason, asked.details);
          const details: { [key: string]: Json } = { ...asked.details };
          const outliers = asked.object['inconsistent_trials'];
          if (Array.isArray(outliers)) details['inconsistent_trials'] = outliers;
          const explanation = readText(asked.object, 'reason');
          if (explanation !== undefined) details['judge_reason'] = explanation;
          return consistent.value
            ? percentVerdict(100, `the judge found all ${trials.length} trials consistent`, details)
            : percentVerdict(
                0,
                `the judge found the ${trials.length} trials inconsistent; consistency is all or nothing`,
                details,
              );
        },
      },
    };
  },
});

function trialText(trial: TrialInput): string {
  const lines = [`Run ${trial.trial}:`];
  const sql = trial.case.sql;
  const failure = (sql === undefined ? undefined : runError(sql.generated)) ?? trial.error;
  if (failure !== undefined && failure !== '') lines.push(`error: ${failure}`);
  if (sql !== undefined) {
    lines.push(`query: ${sql.generatedSql}`);
    const rows = rowsText(executionRows(sql.generated), ROWS_SHOWN);
    lines.push(`rows (${rows.shown}):`, rows.text);
  } else {
    lines.push(`output: ${promptText(trial.output)}`);
  }
  return lines.join('\n');
}
