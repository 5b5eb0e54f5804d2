import { compileGlob } from '../text/glob';

/**
 * Which cases a run includes, by id: `--case ID` (repeatable, exact ids) and `--filter GLOB`, and
 * EvalBench's `scenarios` / `scenario_pattern`. The glob reads as Python's fnmatch (`*`, `?`, `[a-z]`,
 * `[!a]`). With both, a case must satisfy both.
 */
export interface CaseSelection {
  readonly ids?: readonly string[];
  readonly filter?: string;
}

export function caseSelector(selection: CaseSelection): (id: string) => boolean {
  const ids = selection.ids !== undefined && selection.ids.length > 0 ? new Set(selection.ids) : undefined;
  const glob = selection.filter !== undefined ? compileGlob(selection.filter) : undefined;
  return (id) => (ids === undefined || ids.has(id)) && (glob === undefined || glob.test(id));
}
