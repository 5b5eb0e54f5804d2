/**
 * One EvalBench CSV row → EvalLens's words: the case and trial an eval id names (`12_trial_0` is case
 * 12, trial 1), what an evals.csv row shows a person (prompt, generated and golden SQL, result rows,
 * errors; masked and cut), and a scores.csv row as a result decided as EvalBench's summary decides it.
 */
import type { Json } from '../case';
import type { ScorerResult } from '../result';
import { shownText } from './evalbenchMask';
import { parseJson } from '../text/jsonDepth';

/** Longest payload text kept per detail. */
const MAX_DETAIL = 10_000;

/** What is left to read and keep; `cut` once a payload was not kept for lack of room. */
export interface ReadBudget {
  rows: number;
  characters: number;
  cut: boolean;
}

export interface TrialPayload {
  readonly trialId: string;
  readonly caseId: string;
  /** 1-based, as EvalLens counts trials (EvalBench's `trial_index` + 1). */
  readonly trial: number;
  readonly details: { readonly [key: string]: Json };
}

export interface PairRow {
  readonly caseId: string;
  readonly comparator: string;
  readonly cells: ReadonlyMap<string, string>;
  readonly line: number;
}

/** The case and 1-based trial of an EvalBench eval id (`<prompt id>_trial_<index>`; an id without the suffix is trial 1). */
export function caseOf(id: string): { caseId: string; trial: number } {
  const m = /^(.*)_trial_(\d+)$/.exec(id);
  return m === null ? { caseId: id, trial: 1 } : { caseId: m[1] ?? id, trial: Number(m[2]) + 1 };
}

/** What a person reads about an eval, EvalBench's column → the detail it is shown as. */
const SHOWN_COLUMNS: readonly (readonly [string, string])[] = [
  ['nl_prompt', 'input'],
  ['generated_sql', 'output'],
  ['golden_sql', 'expected'],
  ['generated_result', 'generated_result'],
  ['golden_result', 'golden_result'],
  ['eval_results', 'eval_results'],
  ['golden_eval_results', 'golden_eval_results'],
  ['generated_error', 'generated_error'],
  ['golden_error', 'golden_error'],
  ['sql_generator_error', 'sql_generator_error'],
  ['prompt_generator_error', 'prompt_generator_error'],
  ['database', 'database'],
  ['query_type', 'query_type'],
  ['dialects', 'dialects'],
];

export function trialOf(
  cells: ReadonlyMap<string, string>,
  file: string,
  line: number,
  budget: ReadBudget,
): TrialPayload | undefined {
  const trialId = (cells.get('id') ?? '').trim();
  if (trialId === '') return undefined;
  const own = caseOf(trialId);
  const promptId = (cells.get('prompt_id') ?? '').trim();
  const index = (cells.get('trial_index') ?? '').trim();
  const details: { [key: string]: Json } = {};
  // A trial's fields are kept whole or not at all, so a trial never shows its output without its expected value.
  let needed = 0;
  for (const [column] of SHOWN_COLUMNS) {
    const cell = cells.get(column);
    if (cell !== undefined && cell.trim() !== '') needed += Math.min(cell.length, MAX_DETAIL);
  }
  if (needed > budget.characters) {
    budget.cut = true;
    details['payload'] = "not kept: the results are too large to hold whole; read this eval's row of evals.csv";
  } else {
    for (const [column, label] of SHOWN_COLUMNS) {
      const value = cellValue(cells.get(column), budget);
      if (value !== undefined) details[label] = value;
    }
  }
  details['evals_row'] = `${file.split(/[\\/]/).pop() ?? file}:${line}`;
  return {
    trialId,
    caseId: promptId === '' ? own.caseId : promptId,
    trial: /^\d+$/.test(index) ? Number(index) + 1 : own.trial,
    details,
  };
}

/**
 * A cell as shown: empty is absent; a Python-printed list of strings (`['SELECT 1;']`, how pandas
 * writes golden_sql and dialects) is its strings joined by lines; JSON (result rows) is parsed when
 * whole; anything else is the text. Masked and cut either way.
 */
function cellValue(cell: string | undefined, budget: ReadBudget): Json | undefined {
  if (cell === undefined || cell.trim() === '') return undefined;
  const kept = Math.min(cell.length, MAX_DETAIL);
  if (kept > budget.characters) {
    budget.cut = true;
    return undefined;
  }
  budget.characters -= kept;
  const strings = pythonStrings(cell.trim());
  if (strings !== undefined) return shownText(strings.join('\n'), MAX_DETAIL);
  const text = shownText(cell, MAX_DETAIL);
  if (text === cell && /^[[{]/.test(cell.trim())) {
    try {
      return parseJson(cell) as Json;
    } catch {
      // a truncated result list (`[…]...and 12 more items truncated`) stays text
    }
  }
  return text;
}

/** The strings of a Python list literal of strings (`['a', "b's"]`), or undefined when it is not one. */
export function pythonStrings(text: string): string[] | undefined {
  if (!text.startsWith('[') || !text.endsWith(']')) return undefined;
  const out: string[] = [];
  let i = 1;
  const skipSpace = (): void => {
    while (i < text.length && /\s/.test(text[i] ?? '')) i++;
  };
  skipSpace();
  if (text[i] === ']' && i === text.length - 1) return out;
  for (;;) {
    skipSpace();
    const quote = text[i];
    if (quote !== "'" && quote !== '"') return undefined;
    i++;
    let s = '';
    for (;;) {
      const c = text[i];
      if (c === undefined) return undefined;
      if (c === '\\') {
        const next = text[i + 1];
        s += next === 'n' ? '\n' : next === 't' ? '\t' : (next ?? '');
        i += 2;
      } else if (c === quote) {
        i++;
        break;
      } else {
        s += c;
        i++;
      }
    }
    out.push(s);
    skipSpace();
    if (text[i] === ',') {
      i++;
      continue;
    }
    return text[i] === ']' && i === text.length - 1 ? out : undefined;
  }
}

function nonBlank(text: string | undefined): boolean {
  return text !== undefined && text.trim() !== '';
}

function scoreOf(text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/** A scores.csv row as a result. `measurement`: a figure EvalBench averages or leaves out of its summary (latency, tokens, 0–100 grades). */
export function resultOf(
  caseId: string,
  scorer: string,
  trial: number,
  cells: ReadonlyMap<string, string>,
  payload: TrialPayload | undefined,
  row: string,
  measurement: boolean,
  budget: ReadBudget,
): ScorerResult {
  const raw = cells.get('score') ?? '';
  const score = scoreOf(raw);
  const details: { [key: string]: Json } = { ...(payload?.details ?? {}) };
  if (payload === undefined) {
    // No evals.csv row: scores.csv still names the generated SQL and its error.
    for (const [column, label] of [
      ['generated_sql', 'output'],
      ['generated_error', 'generated_error'],
      ['database', 'database'],
    ] as const) {
      const value = cellValue(cells.get(column), budget);
      if (value !== undefined) details[label] = value;
    }
  }
  const logs = cellValue(cells.get('comparison_logs'), budget);
  if (logs !== undefined) details['comparison_logs'] = logs;
  const comparisonError =
    cellValue(cells.get('comparison_error'), budget) ??
    (nonBlank(cells.get('comparison_error')) ? 'not kept (the results are too large)' : undefined);
  if (comparisonError !== undefined) details['comparison_error'] = comparisonError;
  details['evalbench_score'] = raw;
  details['scores_row'] = row;
  const base = { caseId, scorer, trial, durationMs: 0, details };
  if (comparisonError !== undefined) {
    return {
      ...base,
      status: 'error',
      passed: false,
      reason: `EvalBench's ${scorer} raised an error on this eval (comparison_error in details); EvalBench counts it as not correct`,
    };
  }
  if (score === undefined) {
    return {
      ...base,
      status: 'error',
      passed: false,
      reason: `expected a number in the score cell, but it is ${raw.trim() === '' ? 'empty' : 'not a number'}`,
    };
  }
  if (measurement)
    return {
      ...base,
      status: 'measured',
      score,
      reason: `EvalBench gave ${score} (a figure its summary averages or leaves out; no pass mark)`,
    };
  if (score === 100)
    return {
      ...base,
      status: 'pass',
      score,
      passed: true,
      reason: 'EvalBench scored 100, which its summary counts as correct',
    };
  const ran =
    details['generated_error'] !== undefined ? '; the generated SQL failed to run (generated_error in details)' : '';
  return {
    ...base,
    status: 'fail',
    score,
    passed: false,
    reason: `EvalBench scored ${score}; its summary counts only 100 as correct${ran}`,
  };
}

/**
 * A multi-trial scorer's pairwise rows of one case (exact_match_consistency, llm_consistency) as
 * one result across trials (trial 0): EvalBench's summary takes the lowest pair score of a prompt
 * and counts the prompt as correct when it is 100.
 */
export function pairsResult(
  caseId: string,
  scorer: string,
  rows: readonly PairRow[],
  file: string,
  budget: ReadBudget,
): ScorerResult {
  const pairs: Json[] = rows.map((r) => {
    const logs = cellValue(r.cells.get('logs'), budget);
    return {
      trials: [r.cells.get('trial1_id') ?? '', r.cells.get('trial2_id') ?? ''],
      score: r.cells.get('score') ?? '',
      ...(logs === undefined ? {} : { logs }),
      row: `${file}:${r.line}`,
    };
  });
  const scores = rows.map((r) => scoreOf(r.cells.get('score')));
  const details = { pairs };
  const base = { caseId, scorer, trial: 0, durationMs: 0, details };
  if (scores.some((s) => s === undefined)) {
    return {
      ...base,
      status: 'error',
      passed: false,
      reason: 'expected a number in the score cell of every pair of trials, but one is empty or not a number',
    };
  }
  const lowest = Math.min(...scores.map((s) => s ?? 0));
  if (lowest === 100)
    return {
      ...base,
      status: 'pass',
      score: lowest,
      passed: true,
      reason: `all ${rows.length} pairs of trials scored 100 in EvalBench, which its summary counts as consistent`,
    };
  const differing = scores.filter((s) => s !== 100).length;
  return {
    ...base,
    status: 'fail',
    score: lowest,
    passed: false,
    reason: `${differing} of ${rows.length} pairs of trials scored below 100 in EvalBench (lowest ${lowest}); its summary counts the prompt as correct only when every pair is 100`,
  };
}
