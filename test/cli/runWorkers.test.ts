/**
 * The pool that hands a run's cases to scoring threads (cli/runWorkers.ts), with thread doubles that
 * answer when the test says: answers reach the runner in the order the cases were given, whichever
 * thread finishes first, and a thread that stops fails the cases it held.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EvalCase } from '../../core/case';
import type { RemoteCase } from '../../core/runner/run';
import type { RunWorkerMessage, ScoreRequest } from '../../cli/runWorker';
import { resultLines, ScoringPool, type ScoringThread } from '../../cli/runWorkers';
import { waitFor } from '../support/waitFor';

/** A scoring thread double: it keeps the batches it is sent; the test answers them, in any order. */
class FakeScoringThread implements ScoringThread {
  readonly requests: ScoreRequest[] = [];
  private readonly listeners: { [event: string]: ((value: never) => void)[] } = {};
  terminated = false;

  postMessage(request: ScoreRequest): void {
    this.requests.push(request);
  }

  on(event: string, listener: (value: never) => void): this {
    (this.listeners[event] ??= []).push(listener);
    return this;
  }

  terminate(): void {
    this.terminated = true;
  }

  emit(event: 'message', value: RunWorkerMessage): void;
  emit(event: 'exit', value: number): void;
  emit(event: string, value: unknown): void {
    for (const listener of this.listeners[event] ?? []) (listener as (v: unknown) => void)(value);
  }

  /** Answers the request it was sent `nth`: one result per case, passing, named after the case. */
  answer(nth: number): void {
    const request = this.requests[nth];
    assert.ok(request !== undefined, `request ${nth}`);
    let lines = '';
    const ends = new Int32Array(request.cases.length);
    const counts = new Int32Array(request.cases.length);
    request.cases.forEach((c, i) => {
      if (c !== null) {
        lines += `${JSON.stringify({ caseId: c.id, scorer: 's', trial: 1, status: 'pass', reason: 'ok', durationMs: 0 })}\n`;
        counts[i] = 1;
      }
      ends[i] = lines.length;
    });
    const fingerprints = request.cases.map((c) => (c === null ? '' : `fp-${c.id}`));
    this.emit('message', { type: 'scored', seq: request.seq, lines, ends, counts, fingerprints });
  }
}

const cases = (n: number): EvalCase[] => Array.from({ length: n }, (_, i) => ({ id: `case-${i}`, output: 'x' }));

describe('ScoringPool', () => {
  it('hands answers back in the order the cases were given when a later batch finishes first', async () => {
    const [slow, fast] = [new FakeScoringThread(), new FakeScoringThread()];
    const pool = new ScoringPool([slow, fast], ['s:contains'], 4);
    slow.emit('message', { type: 'ready', scorers: ['s:contains'] });
    fast.emit('message', { type: 'ready', scorers: ['s:contains'] });
    await pool.ready;
    const settled: string[] = [];
    const given = [...cases(10).map((c) => c as EvalCase | undefined)];
    given.splice(5, 0, undefined); // a record that could not be read keeps its place
    const answers = given.map((c, i) =>
      pool.score(c, 1).then((answer: RemoteCase) => {
        settled.push(c?.id ?? `unreadable-${i}`);
        return answer;
      }),
    );
    // 11 cases in batches of 4: the first batch goes to `slow`, the second to `fast`, the third back to whichever waits less.
    await waitFor(() => slow.requests.length + fast.requests.length === 3, 'three batches sent');
    assert.equal(slow.requests[0]?.seq, 0);
    assert.equal(fast.requests[0]?.seq, 1);
    assert.equal(slow.requests[1]?.seq, 2);
    fast.answer(0);
    slow.answer(1);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(settled, [], 'nothing is handed back before the first batch');
    slow.answer(0);
    const all = await Promise.all(answers);
    assert.deepEqual(settled, [...given.map((c, i) => c?.id ?? `unreadable-${i}`)]);
    assert.deepEqual(
      all.map((a) => a.results.map((r) => r.caseId)),
      given.map((c) => (c === undefined ? [] : [c.id])),
    );
    assert.equal(all[0]?.fingerprint, 'fp-case-0');
    assert.equal(all[5]?.fingerprint, undefined);
    // The run folder writes the thread's own lines for these results.
    assert.equal(resultLines.get(all[0]?.results ?? []), `${JSON.stringify(all[0]?.results[0])}\n`);
    pool.close();
    assert.ok(slow.terminated && fast.terminated);
  });

  it('fails the cases a thread held when it stops, and refuses a thread that loaded another config', async () => {
    const thread = new FakeScoringThread();
    const pool = new ScoringPool([thread], ['s:contains'], 4);
    thread.emit('message', { type: 'ready', scorers: ['s:contains'] });
    const pending = pool.score({ id: 'a' }, 1);
    await waitFor(() => thread.requests.length === 1, 'the batch sent');
    thread.emit('exit', 1);
    await assert.rejects(pending, /a scoring thread stopped \(exit code 1\)/);
    await assert.rejects(pool.score({ id: 'b' }, 1), /stopped/);

    const other = new FakeScoringThread();
    const refused = new ScoringPool([other], ['s:contains'], 4);
    other.emit('message', { type: 'ready', scorers: ['s:exact_match'] });
    await assert.rejects(refused.ready, /different config/);
  });
});
