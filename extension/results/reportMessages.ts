/**
 * A report as messages for the view: the head with the first chunk, then the rest in chunks, so a
 * report of 100,000 results is a few dozen messages of bounded size rather than one huge one.
 */
import type { Report } from '../../core/report/report';
import type { HostToWebview } from '../../protocol/webview';

export const RESULTS_PER_MESSAGE = 5000;

/**
 * `complete: false`: more of the report is still coming (its last message here says so).
 * `detailsApart`: the results came without their details; the view asks for a case's when it opens one.
 */
export function reportMessages(
  report: Report,
  size = RESULTS_PER_MESSAGE,
  complete = true,
  detailsApart = false,
): HostToWebview[] {
  const chunks = Math.max(1, Math.ceil(report.results.length / size), Math.ceil(report.cases.length / size));
  const slice = (i: number) => ({
    cases: report.cases.slice(i * size, (i + 1) * size),
    results: report.results.slice(i * size, (i + 1) * size),
  });
  const first = slice(0);
  const messages: HostToWebview[] = [
    {
      type: 'report/show',
      report: { ...report, ...first },
      complete: complete && chunks === 1,
      ...(detailsApart ? { detailsApart: true as const } : {}),
    },
  ];
  for (let i = 1; i < chunks; i++)
    messages.push({ type: 'report/append', ...slice(i), complete: complete && i === chunks - 1 });
  return messages;
}
