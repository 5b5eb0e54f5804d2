/**
 * What the detail pane shows for a selected result: the case's fields as text (for the trial the
 * result belongs to), the diff of expected against output, and a result's `details` as labelled
 * values. Pure; everything here becomes text nodes, never markup.
 */
import type { Json } from '../../core/case';
import type { ScorerResult } from '../../core/result';
import { type CaseData, isObject } from '../../protocol/webview';
import type { CaseDetailsState } from './viewState';
import { diffSides } from '../../shared/text/diffSides';
import { type DiffOutcome, diffTexts } from './diff';

/** A JSON value as a person reads it: a string as itself, anything else as indented JSON. */
export function jsonText(value: Json | undefined): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

/** Characters of one case field the detail pane shows; a longer field shows its start and its length. */
export const MAX_SHOWN_CHARS = 200_000;

/** A field's text as the pane shows it: whole, or its first MAX_SHOWN_CHARS characters and a note of the full length. */
export function shownText(value: Json | undefined): string {
  const text = jsonText(value);
  return text.length <= MAX_SHOWN_CHARS
    ? text
    : `${text.slice(0, MAX_SHOWN_CHARS)}\n… (${text.length} characters; the first ${MAX_SHOWN_CHARS} are shown)`;
}

export interface CaseFields {
  readonly input?: Json;
  readonly output?: Json;
  readonly expected?: Json;
  readonly trace?: Json;
  /** The error the recorded trial ended with, if any. */
  readonly trialError?: string;
  /** The trace is the recorded trial's own, not the case's (the host normalized only the case's). */
  readonly traceOfTrial?: true;
}

function field<T extends object>(key: string, value: Json | undefined): Partial<T> {
  return value === undefined ? {} : ({ [key]: value } as Partial<T>);
}

/** The case as trial `trial` saw it: a recorded trial's `output`/`trace` over the case's own (as the runner scores it). */
export function caseFields(data: CaseData, trial: number): CaseFields {
  const trials = Array.isArray(data.trials) ? (data.trials as readonly Json[]) : [];
  const recorded = trial >= 1 ? trials[trial - 1] : undefined;
  const own = isObject(recorded) ? recorded : {};
  const error = own['error'];
  return {
    ...field<CaseFields>('input', data.input),
    ...field<CaseFields>('output', own['output'] ?? data.output),
    ...field<CaseFields>('expected', data.expected),
    ...field<CaseFields>('trace', own['trace'] ?? data.trace),
    ...(typeof error === 'string' && error !== '' ? { trialError: error } : {}),
    ...(own['trace'] === undefined ? {} : { traceOfTrial: true as const }),
  };
}

/**
 * Expected against output, like with like only (shared/text/diffSides.ts, as the Test Explorer decides
 * it): the two sides the selected result compared (text with text, a tool sequence with a tool
 * sequence); without those, the case's expected and output when both are texts. A case's whole
 * expected object (a trajectory) against its whole output object is no diff.
 */
export function expectedOutputDiff(
  fields: CaseFields,
  result?: ScorerResult,
  scorerKey?: string,
): DiffOutcome | undefined {
  const sides = result === undefined ? undefined : diffSides(scorerKey, result.details);
  if (sides !== undefined) return diffTexts(sides.expected, sides.actual);
  if (typeof fields.expected !== 'string' || typeof fields.output !== 'string') return undefined;
  return diffTexts(fields.expected, fields.output);
}

export interface DetailEntry {
  readonly label: string;
  readonly text: string;
  /** Long or multi-line text, shown preformatted. */
  readonly block: boolean;
}

/** Keys a judge's reasoning comes under: shown first, whatever scorer wrote them. */
const REASONING_KEYS = ['reasoning', 'explanation', 'rationale', 'judge_reasoning', 'critique', 'feedback'];

/** A result's `details`, one entry per key, judge reasoning first; values shown generically. */
export function detailEntries(result: ScorerResult): DetailEntry[] {
  const details = result.details;
  if (details === undefined) return [];
  const keys = Object.keys(details);
  const first = keys.filter((k) => REASONING_KEYS.includes(k.toLowerCase()));
  const rest = keys.filter((k) => !REASONING_KEYS.includes(k.toLowerCase()));
  return [...first, ...rest].map((key) => {
    const text = jsonText(details[key]);
    return { label: key, text, block: text.includes('\n') || text.length > 80 };
  });
}

/**
 * A result with its details, for a report whose results came without them: those the host sent for
 * the case (the last entry of its scorer and trial, as the report's own last result of a key wins);
 * as it is otherwise.
 */
export function withDetails(result: ScorerResult, state: CaseDetailsState | undefined): ScorerResult {
  if (state?.status !== 'loaded' || state.caseId !== result.caseId) return result;
  let found: { readonly details?: ScorerResult['details'] } | undefined;
  for (const r of state.results) if (r.scorer === result.scorer && r.trial === result.trial) found = r;
  if (found === undefined) return result;
  const { details: _inline, ...rest } = result;
  return found.details === undefined ? rest : { ...rest, details: found.details };
}

/** What the detail pane says of the details while they are not here: loading, or why they cannot be shown. */
export function detailsNote(detailsApart: boolean, state: CaseDetailsState | undefined): string | undefined {
  if (!detailsApart) return undefined;
  if (state === undefined || state.status === 'loading') return 'Loading the details from the report…';
  if (state.status === 'unavailable') return `Details not available: ${state.reason}`;
  return undefined;
}
