/**
 * The summary band: what run this is, the job score against its threshold, per-scorer pass rates and
 * tests, and each scorer's score distribution (bars sized through the CSSOM, which the CSP allows, not style markup).
 */
import { type JobLine, type RunTitle, type ScorerDistribution, type ScorerLine, formatScore } from '../model/summary';
import { el } from './dom';
import { errorBarSvg } from './errorBarSvg';

export interface SummaryModel {
  readonly title: RunTitle;
  readonly status: string;
  readonly job: JobLine;
  readonly counts: string;
  readonly scorers: readonly ScorerLine[];
  readonly distributions: readonly ScorerDistribution[];
}

export function renderSummary(target: HTMLElement, model: SummaryModel): void {
  const head = el(
    'div',
    { className: 'run-head' },
    el('span', { className: 'run-title', attrs: { title: model.title.tooltip } }, model.title.text),
    el('span', { className: 'run-when muted' }, model.title.when),
    el('span', { className: 'run-status' }, model.status),
  );
  const job = el('div', { className: `job verdict-${model.job.verdict}`, attrs: { role: 'status' } }, model.job.text);
  const counts = el('div', { className: 'case-counts' }, model.counts);
  const left = el(
    'div',
    { className: 'summary-left' },
    head,
    job,
    counts,
    scorerTable(model.scorers, model.distributions),
  );
  target.replaceChildren(left);
}

function scorerTable(lines: readonly ScorerLine[], distributions: readonly ScorerDistribution[]): HTMLElement {
  const byScorer = new Map(distributions.map((d) => [d.scorer, d]));
  const header = el(
    'tr',
    {},
    ...['Scorer', 'Pass rate · 95%', 'Mean · 95%', 'Test', 'Scores', 'Results'].map((h) =>
      el('th', { attrs: { scope: 'col' } }, h),
    ),
  );
  const rows = lines.map((line) => {
    const distribution = byScorer.get(line.name);
    return el(
      'tr',
      {},
      el('td', {}, line.name),
      el('td', { className: 'figure-cell' }, figure(line.passRate, line.passRateBar)),
      el('td', { className: 'figure-cell' }, figure(line.meanScore, line.meanBar)),
      el('td', { className: `verdict-${line.verdict}` }, line.test),
      el('td', { className: 'distribution-cell' }, distribution === undefined ? '' : distributionChart(distribution)),
      el('td', { className: 'muted' }, line.counts),
    );
  });
  return el('table', { className: 'scorers' }, el('thead', {}, header), el('tbody', {}, ...rows));
}

/** A figure, and under it its 95% interval drawn when the report has one. */
function figure(text: string, bar: ScorerLine['meanBar']): HTMLElement {
  return el(
    'div',
    { className: 'figure' },
    el('span', { className: 'figure-value' }, text),
    bar === undefined ? undefined : errorBarSvg(bar),
  );
}

/** One scorer's scores: ten bars on its own scale, the scale's ends written under them, each bar's range and count in its tooltip. */
function distributionChart(model: ScorerDistribution): HTMLElement {
  if (model.counted === 0) return el('span', { className: 'muted' }, 'no scores');
  const max = Math.max(1, ...model.bins.map((b) => b.count));
  const bars = model.bins.map((bin) => {
    const bar = el('div', { className: 'bar' });
    bar.style.height = `${(bin.count / max) * 100}%`;
    const label = `${formatScore(bin.from)}–${formatScore(bin.to)}: ${bin.count}`;
    return el('div', { className: 'bin', attrs: { title: label, role: 'img', 'aria-label': label } }, bar);
  });
  const first = model.bins[0];
  const last = model.bins[model.bins.length - 1];
  return el(
    'figure',
    { className: 'distribution', attrs: { 'aria-label': `${model.scorer}: ${model.counted} scores, ${model.axis}` } },
    el('div', { className: 'bins' }, ...bars),
    el(
      'figcaption',
      {},
      el('span', {}, formatScore(first?.from)),
      el('span', {}, `${model.counted} scores`),
      el('span', {}, formatScore(last?.to)),
    ),
  );
}
