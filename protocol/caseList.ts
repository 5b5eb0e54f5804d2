/**
 * `evallens validate <config>… --cases` prints each config's cases as one JSON line (this shape), so an
 * editor can list them — with the engine's ids and lines — without loading the engine in its own
 * process. The extension's Test Explorer and CodeLens read it.
 */
import { isObject } from '../shared/isObject';
import { type SourceRange } from '../core/text/position';
import { fromDisplayRange } from '../shared/text/displayPosition';

export interface ListedCase {
  readonly id: string;
  /** Printed with 1-based lines and columns, as the CLI prints every position; `parseCaseList` gives core's 0-based ones. */
  readonly range: SourceRange;
  /** Set for a record that could not be read as a case: a run reports it as an `error` result. */
  readonly readError?: string;
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
}

type Fields = { readonly [key: string]: unknown };

function fieldsOf(value: unknown): Fields | undefined {
  return isObject(value) ? value : undefined;
}

function isPosition(value: unknown): boolean {
  const p = fieldsOf(value);
  return p !== undefined && typeof p['line'] === 'number' && typeof p['column'] === 'number' && typeof p['offset'] === 'number';
}

function isRange(value: unknown): value is SourceRange {
  const r = fieldsOf(value);
  return r !== undefined && typeof r['file'] === 'string' && isPosition(r['start']) && isPosition(r['end']);
}

/** Reads the printed list; undefined when the text is not one (an older CLI, a crash). */
export function parseCaseList(text: string): CaseList | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const v = fieldsOf(value);
  if (v === undefined || typeof v['configFile'] !== 'string' || !Array.isArray(v['cases']) || !Array.isArray(v['reaches'])) return undefined;
  const cases: ListedCase[] = [];
  for (const entry of v['cases']) {
    const c = fieldsOf(entry);
    if (c === undefined || typeof c['id'] !== 'string' || !isRange(c['range'])) return undefined;
    const readError = c['readError'];
    cases.push({ id: c['id'], range: fromDisplayRange(c['range']), ...(typeof readError === 'string' ? { readError } : {}) });
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
  };
}
