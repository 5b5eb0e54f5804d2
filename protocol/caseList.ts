/**
 * `evallens validate <config>… --cases` prints each config's cases as one JSON line (this shape), so an
 * editor can list them — with the engine's ids and lines — without loading the engine in its own
 * process. The extension's Test Explorer and CodeLens read it.
 */
import { type SourceRange } from '../core/text/position';
import { fromDisplayRange } from '../shared/text/displayPosition';
import { fieldsOf, parsedFields } from './jsonFields';

export interface ListedCase {
  readonly id: string;
  /** Printed with 1-based lines and columns, as the CLI prints every position; `parseCaseList` gives core's 0-based ones. */
  readonly range: SourceRange;
  /** Set for a record that could not be read as a case: a run reports it as an `error` result. */
  readonly readError?: string;
  /**
   * Judge calls one evaluation of this case makes, per scorer of `plan.scorers` (same order); left out
   * when the case makes none. The CLI counts them as `evallens plan` does (core/judge/judgeCallPlan.ts).
   */
  readonly judgeCalls?: readonly number[];
}

/** A scorer as the plan names it; `acrossTrials`: it judges once per case, comparing the trials (llm_consistency). */
export interface ListedScorer {
  readonly name: string;
  readonly key: string;
  readonly reaches?: string;
  readonly acrossTrials: boolean;
}

/** What a run plan needs besides the cases, so the editor plans a run without a second CLI process (`planFromDiscovery`). */
export interface ListedPlan {
  /** The config's own trials (`--trials` overrides them). */
  readonly trials: number;
  readonly scorers: readonly ListedScorer[];
  /** What the run reaches besides its scorers: `network` for a server database config (the plan's top-level `reaches`). */
  readonly reaches: readonly string[];
}

export interface CaseList {
  readonly configFile: string;
  /** Absolute path of the dataset file, when the config names one. */
  readonly datasetFile?: string;
  readonly cases: readonly ListedCase[];
  /** Why the config lists no (or not all) cases: its first error, or a dataset that cannot be read. `line:column: message`, 1-based. */
  readonly problem?: string;
  /** What the config's scorers reach beyond the case (`network`, `workspace-code`), without repeats. */
  readonly reaches: readonly string[];
  /** Whether the config has a `target:` (the run calls the system under test). */
  readonly target?: boolean;
  /** Set when the config loaded; an older CLI leaves it out (the editor then asks `evallens plan`). */
  readonly plan?: ListedPlan;
}

function isPosition(value: unknown): boolean {
  const p = fieldsOf(value);
  return (
    p !== undefined &&
    typeof p['line'] === 'number' &&
    typeof p['column'] === 'number' &&
    typeof p['offset'] === 'number'
  );
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

/** The listing's plan part, or undefined when it is missing or not in shape (the editor then asks `evallens plan`). */
function parsePlanPart(value: unknown): ListedPlan | undefined {
  const p = fieldsOf(value);
  if (p === undefined || !isCount(p['trials']) || !Array.isArray(p['scorers']) || !isStringArray(p['reaches']))
    return undefined;
  const scorers: ListedScorer[] = [];
  for (const entry of p['scorers']) {
    const s = fieldsOf(entry);
    if (
      s === undefined ||
      typeof s['name'] !== 'string' ||
      typeof s['key'] !== 'string' ||
      typeof s['acrossTrials'] !== 'boolean'
    )
      return undefined;
    const reaches = s['reaches'];
    if (reaches !== undefined && typeof reaches !== 'string') return undefined;
    scorers.push({
      name: s['name'],
      key: s['key'],
      acrossTrials: s['acrossTrials'],
      ...(reaches === undefined ? {} : { reaches }),
    });
  }
  return { trials: p['trials'], scorers, reaches: p['reaches'] };
}

function isRange(value: unknown): value is SourceRange {
  const r = fieldsOf(value);
  return r !== undefined && typeof r['file'] === 'string' && isPosition(r['start']) && isPosition(r['end']);
}

/** Reads the printed list; undefined when the text is not one (an older CLI, a crash). */
export function parseCaseList(text: string): CaseList | undefined {
  const v = parsedFields(text);
  if (
    v === undefined ||
    typeof v['configFile'] !== 'string' ||
    !Array.isArray(v['cases']) ||
    !Array.isArray(v['reaches'])
  )
    return undefined;
  let plan = v['plan'] === undefined ? undefined : parsePlanPart(v['plan']);
  const cases: ListedCase[] = [];
  for (const entry of v['cases']) {
    const c = fieldsOf(entry);
    if (c === undefined || typeof c['id'] !== 'string' || !isRange(c['range'])) return undefined;
    const readError = c['readError'];
    const judgeCalls = c['judgeCalls'];
    // Counts that do not fit the scorers make the plan part unusable, not the listing.
    if (
      judgeCalls !== undefined &&
      !(Array.isArray(judgeCalls) && judgeCalls.length === plan?.scorers.length && judgeCalls.every(isCount))
    )
      plan = undefined;
    const counts = Array.isArray(judgeCalls) && judgeCalls.every(isCount) ? { judgeCalls } : {};
    cases.push({
      id: c['id'],
      range: fromDisplayRange(c['range']),
      ...(typeof readError === 'string' ? { readError } : {}),
      ...counts,
    });
  }
  const datasetFile = v['datasetFile'];
  const problem = v['problem'];
  const target = v['target'];
  return {
    configFile: v['configFile'],
    cases,
    reaches: v['reaches'].filter((r): r is string => typeof r === 'string'),
    ...(typeof datasetFile === 'string' ? { datasetFile } : {}),
    ...(typeof problem === 'string' ? { problem } : {}),
    ...(typeof target === 'boolean' ? { target } : {}),
    ...(plan === undefined ? {} : { plan }),
  };
}
