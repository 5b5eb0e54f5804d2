/**
 * The case fields of a report read from EvalBench's results, for the detail pane. Such a report has
 * no run config or dataset to read a case from (its "config" is EvalBench's job folder); what a
 * person wants to see (the prompt, the generated and golden SQL) is already in each result's
 * `details`, put there by the CLI. The first result of each trial gives that trial's output and
 * error, so the pane's expected/output diff works per trial. vscode-free.
 */
import type { Json } from '../../core/case';
import type { Report } from '../../core/report/report';
import type { CaseData } from '../../protocol/webview';

type Details = { readonly [key: string]: Json };

/** Undefined when the report is not imported or has no result with details for the case. */
export function importedCaseData(report: Report, caseId: string): CaseData | undefined {
  if (report.imported === undefined) return undefined;
  const byTrial = new Map<number, Details>();
  for (const r of report.results) {
    if (r.caseId !== caseId || r.trial < 1 || r.details === undefined || byTrial.has(r.trial)) continue;
    byTrial.set(r.trial, r.details);
  }
  const trials = [...byTrial.keys()].sort((a, b) => a - b);
  const first = trials[0] === undefined ? undefined : byTrial.get(trials[0]);
  if (first === undefined) return undefined;
  const metadata: { [key: string]: Json } = {};
  for (const key of ['database', 'query_type', 'dialects', 'evals_row']) {
    const value = first[key];
    if (value !== undefined) metadata[key] = value;
  }
  const last = trials[trials.length - 1] ?? 1;
  const recorded: Json[] = Array.from({ length: last }, (_, i) => {
    const d = byTrial.get(i + 1);
    if (d === undefined) return {};
    const error = d['generated_error'] ?? d['sql_generator_error'];
    return {
      ...(d['output'] === undefined ? {} : { output: d['output'] }),
      ...(typeof error === 'string' ? { error } : {}),
    };
  });
  return {
    id: caseId,
    ...(first['input'] === undefined ? {} : { input: first['input'] }),
    ...(first['output'] === undefined ? {} : { output: first['output'] }),
    ...(first['expected'] === undefined ? {} : { expected: first['expected'] }),
    ...(Object.keys(metadata).length === 0 ? {} : { metadata }),
    ...(last > 1 ? { trials: recorded } : {}),
  };
}
