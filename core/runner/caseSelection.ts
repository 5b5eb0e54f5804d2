/**
 * Which cases a run includes: `--case ID` (repeatable, exact ids) and `--filter GLOB` (over case
 * ids; `*` any run of characters, `?` one character). With both, a case must satisfy both.
 */
export interface CaseSelection {
  readonly ids?: readonly string[];
  readonly filter?: string;
}

export function caseSelector(selection: CaseSelection): (id: string) => boolean {
  const ids = selection.ids !== undefined && selection.ids.length > 0 ? new Set(selection.ids) : undefined;
  const glob = selection.filter !== undefined ? globToRegExp(selection.filter) : undefined;
  return (id) => (ids === undefined || ids.has(id)) && (glob === undefined || glob.test(id));
}

export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (const ch of glob) {
    if (ch === '*') source += '.*';
    else if (ch === '?') source += '.';
    // Only syntax characters are escaped: with the `u` flag, escaping anything else is an error.
    else source += ch.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'su');
}
