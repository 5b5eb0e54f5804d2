/**
 * `evallens validate <config> --case-data <id>` prints one case's fields as one JSON line (this
 * shape), so the results view's detail pane can show a case's input, output and trace without the
 * editor loading the config itself. The extension reads it with `parseCaseLookup`.
 */
import type { CaseData } from './webview';
import { fieldsOf, parsedFields } from './jsonFields';

export type CaseLookup =
  { readonly ok: true; readonly data: CaseData } | { readonly ok: false; readonly reason: string };

/** Reads the printed lookup; undefined when the text is not one (an older CLI, a crash). */
export function parseCaseLookup(text: string): CaseLookup | undefined {
  const v = parsedFields(text);
  if (v === undefined) return undefined;
  if (v['ok'] === false) return typeof v['reason'] === 'string' ? { ok: false, reason: v['reason'] } : undefined;
  const data = fieldsOf(v['data']);
  // The view renders each field as text or a tree and never as HTML; only the id is relied on here.
  if (v['ok'] !== true || data === undefined || typeof data['id'] !== 'string') return undefined;
  return { ok: true, data: data as unknown as CaseData };
}
