/**
 * A full disk while a run writes its folder. A small tmpfs cannot be mounted here, so the failure is
 * injected through RunStore's `write` seam (the one call that writes finished cases), failing as
 * writeSync fails on a full disk (an ENOSPC error, after writing part of the text).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { ScorerResult } from '../../core/result';
import type { RunEvent } from '../../core/runner/events';
import { RunStore, type RunFolderWriteError } from '../../cli/runStore';

const work = mkdtempSync(join(tmpdir(), 'evallens-diskfull-'));
after(() => rmSync(work, { recursive: true, force: true }));

function caseEnd(id: string, index: number): RunEvent {
  const at = { line: index, column: 0, offset: 0 };
  const results: ScorerResult[] = [
    { caseId: id, scorer: 'contains', trial: 1, status: 'pass', score: 1, passed: true, reason: 'ok', durationMs: 1 },
  ];
  return {
    type: 'case/end',
    caseId: id,
    index,
    range: { file: '/data/cases.jsonl', start: at, end: at },
    status: 'passed',
    durationMs: 1,
    results,
  };
}

const turn = () => new Promise<void>((resolveTurn) => setImmediate(resolveTurn));

describe('RunStore on a full disk', () => {
  it('says which file could not be written, stops writing, and keeps every case written before', async () => {
    let writes = 0;
    const failures: RunFolderWriteError[] = [];
    const store = new RunStore(work, 'run-1', {
      write: (fd, text) => {
        writes++;
        if (writes <= 2) {
          writeSync(fd, text);
          return;
        }
        // The disk fills in the middle of the second case's results: part of the line is written.
        writeSync(fd, text.slice(0, 10));
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      },
      onFailure: (error) => failures.push(error),
    });
    store.onEvent(caseEnd('a', 0));
    await turn();
    store.onEvent(caseEnd('b', 1));
    await turn();
    store.onEvent(caseEnd('c', 2));
    await turn();
    store.close();

    assert.equal(failures.length, 1);
    assert.equal(store.failure, failures[0]);
    assert.equal(
      failures[0]?.message,
      `cannot write ${join(work, 'run-1', 'results.jsonl')}: ENOSPC (no space left on the device)`,
    );
    // Nothing was written after the failure (case c's turn made no write).
    assert.equal(writes, 3);
    const cases = readFileSync(join(work, 'run-1', 'cases.jsonl'), 'utf8');
    assert.deepEqual(
      cases
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { id: string }).id),
      ['a'],
    );
    const results = readFileSync(join(work, 'run-1', 'results.jsonl'), 'utf8').split('\n');
    assert.equal((JSON.parse(results[0] ?? '') as ScorerResult).caseId, 'a');
    // The cut line the failure left: readers of a run folder ignore it (resume) or name it (merge).
    assert.equal(results[1], '{"caseId":');
  });
});
