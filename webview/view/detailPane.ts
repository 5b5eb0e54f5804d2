/**
 * The detail pane of the selected result: the case's results (reason and `details`, where a judge's
 * reasoning is), and the case's data from the host: input, output, expected, their diff, the trace
 * steps and metadata. Every value is a text node; outputs are shown, never interpreted.
 */
import type { ScorerResult } from '../../core/result';
import type { TraceStep } from '../../core/trace/trace';
import { type CaseFields, caseFields, detailEntries, expectedOutputDiff, jsonText, shownText } from '../model/caseView';
import type { DiffOutcome } from '../model/diff';
import { formatScore } from '../model/summary';
import type { CaseDataState, CaseEntry } from '../model/viewState';
import { trialName } from '../../shared/text/trialName';
import { button, el } from './dom';

export interface DetailModel {
  readonly result: ScorerResult;
  readonly caseEntry?: CaseEntry;
  /** Every result of the case, in arrival order. */
  readonly caseResults: readonly ScorerResult[];
  readonly caseData?: CaseDataState;
  /** The selected result's scorer kind (registry key), which decides what its diff compares. */
  readonly scorerKey?: string;
  /** The results' details are not here (yet): loading, or why not (a report whose results came without them). */
  readonly detailsNote?: string;
}

export interface DetailHandlers {
  reveal(caseId: string): void;
  close(): void;
}

export function renderDetail(target: HTMLElement, model: DetailModel, handlers: DetailHandlers): void {
  const { result, caseEntry } = model;
  const where =
    caseEntry?.location === undefined
      ? 'location unknown'
      : `${caseEntry.location.file}:${caseEntry.location.line}:${caseEntry.location.column}`;
  const title = el('h2', {}, result.caseId);
  const actions = el(
    'div',
    { className: 'actions' },
    button('Reveal in dataset', () => handlers.reveal(result.caseId)),
    button('Close (Esc)', () => handlers.close(), { className: 'plain' }),
  );
  const meta = el(
    'div',
    { className: 'muted' },
    `case ${caseEntry?.status ?? 'unknown'} · ${where}`,
    caseEntry?.trials === undefined ? '' : ` · trials passed ${caseEntry.trials.passed}/${caseEntry.trials.trials}`,
  );
  // The selected result's verdict, then the case's own fields (input, output, expected, diff, trace),
  // and only then every result with its details, which can be long raw JSON (a judge's whole answer).
  target.replaceChildren(
    el('div', { className: 'detail-head' }, title, actions),
    meta,
    resultBlock(result, true, false),
    ...caseSections(model.caseData, result, model.scorerKey, model.detailsNote),
    section(
      `Results of this case, with their details (${model.caseResults.length})`,
      model.caseResults.length <= 20,
      ...(model.detailsNote === undefined ? [] : [el('p', { className: 'muted details-note' }, model.detailsNote)]),
      ...model.caseResults.map((r) => resultBlock(r, isSameResult(r, result), true)),
    ),
  );
}

function isSameResult(a: ScorerResult, b: ScorerResult): boolean {
  return a.caseId === b.caseId && a.scorer === b.scorer && a.trial === b.trial;
}

function resultBlock(result: ScorerResult, current: boolean, withDetails: boolean): HTMLElement {
  const head = el(
    'div',
    { className: 'result-head' },
    el('span', { className: `badge status-${result.status}` }, result.status),
    ...cachedBadge(result),
    ` ${result.scorer}`,
    result.trial === 0 || result.trial > 1 ? ` · ${trialName(result.trial)}` : '',
    ` · score ${formatScore(result.score)}`,
  );
  const entries = (withDetails ? detailEntries(result) : []).map((entry) =>
    entry.block
      ? el('div', { className: 'entry' }, el('div', { className: 'label' }, entry.label), el('pre', {}, entry.text))
      : el('div', { className: 'entry' }, el('span', { className: 'label' }, `${entry.label}: `), entry.text),
  );
  return el(
    'div',
    { className: `result${current ? ' current' : ''}` },
    head,
    el('div', { className: 'reason' }, result.reason),
    ...entries,
  );
}

/** A verdict the result cache gave (docs/cache.md) is marked: the scorer was not called this run. */
function cachedBadge(result: ScorerResult): (HTMLElement | string)[] {
  if (result.cached !== true) return [];
  const title = 'From the result cache: kept from an earlier run with the same scorer, options, case and trial';
  return [' ', el('span', { className: 'badge cached', attrs: { title } }, 'cached')];
}

function section(title: string, open: boolean, ...children: (Node | string)[]): HTMLElement {
  const details = el('details', {}, el('summary', {}, title), ...children);
  details.open = open;
  return details;
}

function caseSections(
  state: CaseDataState | undefined,
  result: ScorerResult,
  scorerKey: string | undefined,
  detailsNote: string | undefined,
): HTMLElement[] {
  const trial = result.trial;
  if (state === undefined || state.status === 'loading')
    return [el('p', { className: 'muted' }, 'Loading the case from its dataset…')];
  if (state.status === 'unavailable')
    return [el('p', { className: 'muted' }, `Case data not available: ${state.reason}`)];
  const data = state.data;
  const fields = caseFields(data, trial);
  const sections: HTMLElement[] = [];
  if (fields.trialError !== undefined)
    sections.push(section(`Trial ${trial} error`, true, el('pre', {}, fields.trialError)));
  sections.push(
    valueSection('Input', fields.input, true),
    valueSection(trial > 1 ? `Output (trial ${trial})` : 'Output', fields.output, true),
    valueSection('Expected', fields.expected, true),
  );
  // The diff compares what the result's details say it compared: without them there is no telling yet.
  const diff = detailsNote === undefined ? expectedOutputDiff(fields, result, scorerKey) : undefined;
  if (detailsNote !== undefined)
    sections.push(section('Diff (expected → output)', true, el('p', { className: 'muted' }, detailsNote)));
  else if (diff !== undefined) sections.push(section('Diff (expected → output)', true, diffView(diff)));
  sections.push(traceSection(fields, data.traceSteps, data.traceProblem));
  if (data.context !== undefined) sections.push(valueSection('Context', data.context, false));
  if (data.metadata !== undefined) sections.push(valueSection('Metadata', data.metadata, false));
  return sections;
}

function valueSection(title: string, value: CaseFields['output'], open: boolean): HTMLElement {
  return value === undefined
    ? section(title, false, el('p', { className: 'muted' }, 'not in the case'))
    : section(title, open, el('pre', {}, shownText(value)));
}

function diffView(diff: DiffOutcome): HTMLElement {
  if (!diff.ok && diff.prefix !== undefined) {
    // Too large to diff: the start of each text instead, each marked as a start.
    const { expected, output } = diff.prefix;
    return el(
      'div',
      {},
      el(
        'p',
        { className: 'muted' },
        `No diff: ${diff.reason}. The first ${expected.length} and ${output.length} characters:`,
      ),
      el('pre', {}, `expected: ${expected}…`),
      el('pre', {}, `output: ${output}…`),
    );
  }
  if (!diff.ok) return el('p', { className: 'muted' }, `No diff: ${diff.reason}.`);
  if (diff.pieces.every((p) => p.kind === 'equal'))
    return el('p', { className: 'muted' }, 'Output and expected are the same text.');
  const spans = diff.pieces.map((piece) =>
    el(
      piece.kind === 'equal' ? 'span' : piece.kind === 'delete' ? 'del' : 'ins',
      { className: `diff-${piece.kind}` },
      piece.text,
    ),
  );
  return el('pre', { className: 'diff' }, ...spans);
}

function traceSection(
  fields: CaseFields,
  steps: readonly TraceStep[] | undefined,
  problem: string | undefined,
): HTMLElement {
  // A recorded trial's own trace was not normalized by the host; it is shown as recorded.
  if (steps !== undefined && fields.traceOfTrial !== true) {
    const items = steps.map((step) =>
      el('li', {}, el('div', { className: 'step-head' }, stepTitle(step)), stepBody(step)),
    );
    return section(
      `Trace steps (${steps.length})`,
      true,
      steps.length === 0
        ? el('p', { className: 'muted' }, 'The trace records no steps.')
        : el('ol', { className: 'steps' }, ...items),
    );
  }
  if (fields.trace === undefined)
    return section('Trace', false, el('p', { className: 'muted' }, problem ?? 'the case has no trace'));
  return section(
    'Trace (as recorded)',
    false,
    problem === undefined ? '' : el('p', { className: 'muted' }, problem),
    el('pre', {}, shownText(fields.trace)),
  );
}

function stepTitle(step: TraceStep): string {
  const turn = step.turn === undefined ? '' : ` (turn ${step.turn})`;
  switch (step.kind) {
    case 'tool_call':
      return `tool call ${step.name}${step.error === undefined ? '' : ' — failed'}${step.durationMs === undefined ? '' : ` · ${step.durationMs} ms`}${turn}`;
    case 'message':
      return `message from ${step.role}${turn}`;
    case 'handoff':
      return `handoff ${step.from ?? '?'} → ${step.to}${turn}`;
    case 'retrieval':
      return `retrieval of ${step.documentIds.length} documents${turn}`;
    case 'skill':
      return `skill ${step.name}${turn}`;
  }
}

function stepBody(step: TraceStep): HTMLElement | string {
  const parts: string[] = [];
  if (step.kind === 'tool_call') {
    if (step.arguments !== undefined) parts.push(`arguments: ${jsonText(step.arguments)}`);
    if (step.result !== undefined) parts.push(`result: ${jsonText(step.result)}`);
    if (step.error !== undefined) parts.push(`error: ${step.error}`);
  } else if (step.kind === 'message' && step.content !== undefined) {
    parts.push(jsonText(step.content));
  } else if (step.kind === 'retrieval') {
    if (step.query !== undefined) parts.push(`query: ${step.query}`);
    parts.push(`documents: ${step.documentIds.join(', ')}`);
  }
  return parts.length === 0 ? '' : el('pre', {}, parts.join('\n'));
}
