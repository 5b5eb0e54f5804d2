/**
 * The summary band's line for a report read from another tool's results (EvalBench's CSV files):
 * that tool's own summary numbers, as it wrote them, labelled as such, so no one takes them for
 * EvalLens's pass rates or the other way round. Pure text.
 */
import type { ImportedResults } from '../../core/report/report';

export function importedSummaryLine(imported: ImportedResults): string {
  const jobs = imported.jobs.map((job) => {
    const rows = job.summary.map((row) => `${row.metric} ${row.correct ?? '—'}/${row.total ?? '—'}`).join(' · ');
    const label = imported.jobs.length > 1 ? `job ${job.jobId}: ` : '';
    return `${label}${rows === '' ? 'no summary.csv' : rows}`;
  });
  return `EvalBench's own summary (as written, not re-scored): ${jobs.join('; ')}`;
}
