import type { Problem } from '../problem';
import { DatasetError } from '../dataset/datasetError';
import { caseRecords } from '../runner/records';
import { sqlTarget, type SqlTarget } from '../sql/databasePreparer';
import type { SourceRange } from '../text/position';
import type { RunConfig } from './runConfig';

/**
 * What a config names besides itself, checked as a run would find it, without running anything:
 * `validate` and `plan` call these so that they refuse what `run` refuses, with the same messages.
 */

/** Cases whose read problems are listed one by one; past that, one line says how many more. */
const LISTED_CASE_PROBLEMS = 20;

/** A dataset that cannot be read at all, as a problem: where in the dataset when known, else the config's `dataset:` value. */
export function datasetErrorProblem(error: DatasetError, config: RunConfig): Problem | undefined {
  const range = error.range ?? config.dataset?.range;
  return range === undefined ? undefined : { code: 'dataset', severity: 'error', message: error.message, range };
}

export interface DatasetCheck {
  readonly problems: Problem[];
  /** Cases read (inline and from the dataset, after the scenario filters). */
  readonly cases: number;
  /** Of them, the cases with something recorded to score: an output, a trace or recorded trials. */
  readonly recorded: number;
  /** The distinct databases (and dialects) the cases' SQL runs on, up to 1,000. */
  readonly sqlTargets: SqlTarget[];
}

const LISTED_SQL_TARGETS = 1_000;

/**
 * Reads every case of the config as a run reads them, streamed (memory does not grow with the file;
 * the time is the time of reading it): a dataset that cannot be read at all is an error (a run stops
 * on it too); a case that cannot be read is a warning (a run scores it as an `error` and goes on),
 * the first twenty listed; and when no case has anything recorded and nothing produces outputs (no
 * `target:`), a warning that a run would score nothing.
 */
export async function checkDataset(config: RunConfig): Promise<DatasetCheck> {
  const problems: Problem[] = [];
  let cases = 0;
  let recorded = 0;
  let unreadable = 0;
  const targets = new Map<string, SqlTarget>();
  try {
    for await (const record of caseRecords(config)) {
      cases++;
      if (record.ok) {
        const c = record.value.case;
        if (c.output !== undefined || c.trace !== undefined || c.trials !== undefined) recorded++;
        const target = sqlTarget(c);
        if (target !== undefined && targets.size < LISTED_SQL_TARGETS)
          targets.set(JSON.stringify([target.database, target.dialect]), target);
        continue;
      }
      unreadable++;
      if (unreadable <= LISTED_CASE_PROBLEMS) {
        problems.push({
          code: 'dataset-case',
          severity: 'warning',
          message: `${record.error.message} (a run scores case ${record.error.id} as an error)`,
          range: record.error.range,
        });
      }
    }
  } catch (error) {
    if (!(error instanceof DatasetError)) throw error;
    const problem = datasetErrorProblem(error, config);
    if (problem !== undefined) problems.push(problem);
    return { problems, cases, recorded, sqlTargets: [...targets.values()] };
  }
  const anchor: SourceRange | undefined = config.dataset?.range;
  if (unreadable > LISTED_CASE_PROBLEMS && anchor !== undefined) {
    problems.push({
      code: 'dataset-case',
      severity: 'warning',
      message: `${unreadable - LISTED_CASE_PROBLEMS} more cases of the dataset cannot be read (the first ${LISTED_CASE_PROBLEMS} are listed)`,
      range: anchor,
    });
  }
  if (cases > 0 && recorded === 0 && unreadable < cases && config.target === undefined && anchor !== undefined) {
    problems.push({
      code: 'nothing-recorded',
      severity: 'warning',
      message: `none of the ${cases} cases has a recorded output or conversation, and the config has no \`target:\`: EvalLens scores what a system recorded and does not run the agent or the SQL generator itself, so a run scores nothing (and exits 3). Point the dataset at recorded runs (EvalBench scenarios with \`conversation_history\` and \`accumulated_tools\`, NL2SQL items with \`generated_sql\`), or add a \`target:\` that calls the system for each case`,
      range: anchor,
    });
  }
  return { problems, cases, recorded, sqlTargets: [...targets.values()] };
}
