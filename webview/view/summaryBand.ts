/**
 * The summary band: what run this is, the job score against its threshold, per-scorer pass rates and
 * tests, and the score histogram (bars sized through the CSSOM, which the CSP allows, not style markup).
 */
import { type Histogram, type JobLine, type ScorerLine, formatScore } from '../model/summary';
import { el } from './dom';

export interface SummaryModel {
  readonly title: string;
  readonly status: string;
  readonly job: JobLine;
  readonly counts: string;
  readonly scorers: readonly ScorerLine[];
  readonly histogram: Histogram;
}

export function renderSummary(target: HTMLElement, model: SummaryModel): void {
  const head = el('div', { className: 'run-head' }, el('span', { className: 'run-title', attrs: { title: model.title } }, model.title), el('span', { className: 'run-status' }, model.status));
  const job = el('div', { className: `job verdict-${model.job.verdict}`, attrs: { role: 'status' } }, model.job.text);
  const counts = el('div', { className: 'case-counts' }, model.counts);
  const left = el('div', { className: 'summary-left' }, head, job, counts, scorerTable(model.scorers));
  target.replaceChildren(left, histogram(model.histogram));
}

function scorerTable(lines: readonly ScorerLine[]): HTMLElement {
  const header = el('tr', {}, ...['Scorer', 'Pass rate', 'Mean', 'Test', 'Results'].map((h) => el('th', { attrs: { scope: 'col' } }, h)));
  const rows = lines.map((line) =>
    el('tr', {}, el('td', {}, line.name), el('td', {}, line.passRate), el('td', {}, line.meanScore), el('td', { className: `verdict-${line.verdict}` }, line.test), el('td', { className: 'muted' }, line.counts)),
  );
  return el('table', { className: 'scorers' }, el('thead', {}, header), el('tbody', {}, ...rows));
}

function histogram(model: Histogram): HTMLElement {
  const max = Math.max(1, ...model.bins.map((b) => b.count));
  const bars = model.bins.map((bin) => {
    const bar = el('div', { className: 'bar' });
    bar.style.height = `${(bin.count / max) * 100}%`;
    const label = `${formatScore(bin.from)}–${formatScore(bin.to)}: ${bin.count}`;
    return el('div', { className: 'bin', attrs: { title: label, role: 'img', 'aria-label': label } }, bar);
  });
  const note = model.leftOut > 0 ? ` (${model.leftOut} count-valued scores left out)` : '';
  const first = model.bins[0];
  const last = model.bins[model.bins.length - 1];
  const axis = first === undefined || last === undefined ? '' : `${formatScore(first.from)} … ${formatScore(last.to)}`;
  return el(
    'figure',
    { className: 'histogram' },
    el('div', { className: 'bins' }, ...bars),
    el('figcaption', {}, `${model.counted} scores, ${model.axis}${note}`, el('span', { className: 'axis' }, axis)),
  );
}
