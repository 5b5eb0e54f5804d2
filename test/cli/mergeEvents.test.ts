/**
 * The case events `evallens merge` hands the reporters (cli/storedCaseEvents.ts): what a reporter
 * reads of them, and their JSON (the JSONL reporter writes events as they are), are those of the
 * object a run emits.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { ReportCase } from '../../core/report/report';
import type { ScorerResult } from '../../core/result';
import type { CaseEndEvent } from '../../core/runner/events';
import { caseEvents } from '../../cli/storedCaseEvents';
import { folderCases, type FolderCase } from '../../cli/runFolderCases';
import { shownResults } from '../../cli/reporters/shownResults';
import { encodeEvent } from '../../protocol/runEvents';

const work = mkdtempSync(join(tmpdir(), 'evallens-merge-events-'));
after(() => rmSync(work, { recursive: true, force: true }));

const trials = { trials: 3, passed: 2, passRate: 2 / 3, passAtK: [2 / 3, 1, 1], passHatK: [2 / 3, 1 / 3, 0] };

function reportCase(id: string, index: number, withTrials: boolean): ReportCase {
  return {
    id,
    index,
    status: 'failed',
    durationMs: 2.5,
    location: { file: '/d/cases.jsonl', line: index + 1, column: 1 },
    ...(withTrials ? { trials } : {}),
  };
}

function result(caseId: string, scorer: string, status: 'pass' | 'fail'): ScorerResult {
  return {
    caseId,
    scorer,
    trial: 1,
    status,
    score: status === 'pass' ? 1 : 0,
    passed: status === 'pass',
    reason: `${scorer} says ${status}`,
    durationMs: 0.5,
  };
}

async function items(): Promise<FolderCase[]> {
  const dir = join(work, 'folder');
  mkdirSync(dir, { recursive: true });
  const cases = [reportCase('a', 0, false), reportCase('b', 1, true)];
  const results = cases.flatMap((c) => [result(c.id, 'exact', 'fail'), result(c.id, 'contains', 'pass')]);
  writeFileSync(join(dir, 'cases.jsonl'), cases.map((c) => `${JSON.stringify(c)}\n`).join(''));
  writeFileSync(join(dir, 'results.jsonl'), results.map((r) => `${JSON.stringify(r)}\n`).join(''));
  const out: FolderCase[] = [];
  for await (const item of folderCases(dir)) out.push(item);
  return out;
}

/** The case end as the merge made it before it was a class: an object literal, fields in this order. */
function literalEnd(item: FolderCase): CaseEndEvent {
  const c = item.case;
  const at = { offset: 0, line: c.location.line - 1, column: c.location.column - 1 };
  return {
    type: 'case/end',
    caseId: c.id,
    index: c.index,
    range: { file: c.location.file, start: at, end: at },
    status: c.status,
    durationMs: c.durationMs,
    results: item.results(),
    ...(c.trials === undefined ? {} : { trials: c.trials }),
  };
}

describe('the case events of a merge', () => {
  it('are written as JSON as the case end a run emits, with and without trials', async () => {
    for (const item of await items()) {
      const [start, end] = caseEvents(item);
      assert.equal(
        encodeEvent(start),
        encodeEvent({
          type: 'case/start',
          caseId: item.case.id,
          index: item.case.index,
          range: literalEnd(item).range,
        }),
      );
      assert.equal(encodeEvent(end), encodeEvent(literalEnd(item)));
    }
  });

  it('give the reporters the fields, the results and the printed reasons of the case', async () => {
    for (const item of await items()) {
      const end = caseEvents(item)[1] as CaseEndEvent;
      const expected = literalEnd(item);
      assert.equal(end.caseId, expected.caseId);
      assert.equal(end.status, expected.status);
      assert.equal(end.durationMs, expected.durationMs);
      assert.deepEqual(end.range, expected.range);
      assert.deepEqual(end.trials, expected.trials);
      assert.equal('trials' in end, 'trials' in expected);
      assert.deepEqual(end.results, expected.results);
      assert.deepEqual(
        shownResults(end, new Set(['fail'])).map((r) => [r.scorer, r.trial, r.status, r.reason]),
        [['exact', 1, 'fail', 'exact says fail']],
      );
    }
  });
});
