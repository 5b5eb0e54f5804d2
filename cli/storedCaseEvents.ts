/**
 * The events of a case read back from a report or a run folder, as a run emits them: `evallens
 * report` replays a report.json, `run --resume` replays a folder's finished cases, and `evallens
 * merge` hands the shards' cases to the reporters. One builder, so the three say the same thing.
 */
import type { ReportCase } from '../core/report/report';
import type { ScorerResult } from '../core/result';
import type { CaseEndEvent, CaseStartEvent, RunEvent } from '../core/runner/events';
import type { SourceRange } from '../core/text/position';
import { fromDisplay } from '../shared/text/displayPosition';
import { SHOWN_RESULTS, type ShownResult, type WithShownResults } from './reporters/shownResults';
import type { FolderCase } from './runFolderCases';

/** Where a stored case is: its line and column as a range of no width. */
export function storedCaseRange(c: ReportCase): SourceRange {
  const { line, column } = fromDisplay(c.location);
  // Not a spread: a merge makes a hundred thousand of these.
  const at = { offset: 0, line, column };
  return { file: c.location.file, start: at, end: at };
}

export function storedCaseStart(c: ReportCase, range: SourceRange = storedCaseRange(c)): CaseStartEvent {
  return { type: 'case/start', caseId: c.id, index: c.index, range };
}

/** A stored case's end with its results, its fields in the order a run writes them. */
export function storedCaseEnd(
  c: ReportCase,
  results: readonly ScorerResult[],
  range: SourceRange = storedCaseRange(c),
): CaseEndEvent {
  return {
    type: 'case/end',
    caseId: c.id,
    index: c.index,
    range,
    status: c.status,
    durationMs: c.durationMs,
    results,
    ...(c.trials === undefined ? {} : { trials: c.trials }),
  };
}

/**
 * A run folder's case's start and end, for the reporters (console lines, JUnit, CSV). Its results
 * are parsed when a reporter reads them (most read only a failed case's).
 */
export function caseEvents(item: FolderCase): [RunEvent, RunEvent] {
  const range = storedCaseRange(item.case);
  return [storedCaseStart(item.case, range), new StoredCaseEnd(item, range)];
}

/**
 * A case end read from a run folder. A class, not an object literal with a getter, a spread and a
 * symbol key: such a literal is made as a dictionary of its properties, over a kilobyte a case.
 */
class StoredCaseEnd implements CaseEndEvent, WithShownResults {
  readonly type = 'case/end';
  readonly caseId: string;
  readonly index: number;
  readonly status: CaseEndEvent['status'];
  readonly durationMs: number;
  declare readonly trials?: NonNullable<CaseEndEvent['trials']>;

  constructor(
    private readonly item: FolderCase,
    readonly range: SourceRange,
  ) {
    const c = item.case;
    this.caseId = c.id;
    this.index = c.index;
    this.status = c.status;
    this.durationMs = c.durationMs;
    if (c.trials !== undefined) (this as { trials?: NonNullable<CaseEndEvent['trials']> }).trials = c.trials;
  }

  get results(): readonly ScorerResult[] {
    return this.item.results();
  }

  /** As JSON (the JSONL reporter writes events), the end a run emits: its fields in that order, results included. */
  toJSON(): object {
    return storedCaseEnd(this.item.case, this.results, this.range);
  }

  // The console and JUnit print a failed case's reasons: read from the lines, not parsed whole.
  readonly [SHOWN_RESULTS] = (statuses: ReadonlySet<string>): readonly ShownResult[] =>
    this.item.shownResults(statuses);
}
