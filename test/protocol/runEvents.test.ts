import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createDecodeState,
  decodeEvents,
  encodeEvent,
  finishEvents,
  type RunEvent,
  RunEventDecodeError,
} from '../../protocol/runEvents';
import * as runEvents from '../../protocol/runEvents';

const range = {
  file: '/evals/a.eval.yaml',
  start: { offset: 10, line: 1, column: 2 },
  end: { offset: 14, line: 1, column: 6 },
};

const EVENTS: RunEvent[] = [
  {
    type: 'run/start',
    runId: 'r1',
    configFile: '/evals/a.eval.yaml',
    startedAt: '2026-01-01T00:00:00.000Z',
    scorers: [],
    numTrials: 1,
  },
  { type: 'case/start', caseId: 'a', index: 0, range },
  {
    type: 'result',
    result: {
      caseId: 'a',
      scorer: 'exact_match',
      trial: 0,
      status: 'pass',
      score: 1,
      passed: true,
      reason: 'equal\nacross lines — ünïcödé 🎯',
      durationMs: 1,
    },
  },
  { type: 'case/end', caseId: 'a', index: 0, range, status: 'passed', durationMs: 2, results: [] },
  {
    type: 'run/end',
    runId: 'r1',
    finishedAt: '2026-01-01T00:00:01.000Z',
    durationMs: 1000,
    cancelled: false,
    summary: { passed: 1, failed: 0, errored: 0, skipped: 0, total: 1 },
  },
];

const stream = EVENTS.map(encodeEvent).join('');

describe('run event framing', () => {
  it('encodes one event as exactly one line', () => {
    for (const event of EVENTS) {
      const line = encodeEvent(event);
      assert.ok(line.endsWith('\n'));
      assert.equal(line.indexOf('\n'), line.length - 1, 'newlines inside strings are escaped');
    }
  });

  it('round-trips a whole stream in one chunk', () => {
    const state = createDecodeState();
    assert.deepEqual(decodeEvents(stream, state), EVENTS);
    assert.deepEqual(finishEvents(state), []);
  });

  it('keeps a partial line until the chunk that completes it, at every split point', () => {
    for (let cut = 0; cut <= stream.length; cut++) {
      const state = createDecodeState();
      const events = [
        ...decodeEvents(stream.slice(0, cut), state),
        ...decodeEvents(stream.slice(cut), state),
        ...finishEvents(state),
      ];
      assert.deepEqual(events, EVENTS, `split at ${cut}`);
    }
  });

  it('decodes bytes, including a UTF-8 character split across chunks', () => {
    const bytes = new TextEncoder().encode(stream);
    const emoji = bytes.indexOf(0xf0); // first byte of 🎯
    assert.ok(emoji > 0);
    const state = createDecodeState();
    const events = [
      ...decodeEvents(bytes.subarray(0, emoji + 2), state),
      ...decodeEvents(bytes.subarray(emoji + 2), state),
      ...finishEvents(state),
    ];
    assert.deepEqual(events, EVENTS);
  });

  it('accepts CRLF endings, blank lines and an unterminated last line', () => {
    const state = createDecodeState();
    const text = `${JSON.stringify(EVENTS[0])}\r\n\r\n\n${JSON.stringify(EVENTS[1])}`;
    assert.deepEqual(decodeEvents(text, state), [EVENTS[0]]);
    assert.deepEqual(finishEvents(state), [EVENTS[1]]);
  });

  it('names the line of a bad entry without quoting it', () => {
    const state = createDecodeState();
    decodeEvents(encodeEvent(EVENTS[0] as RunEvent), state);
    assert.throws(
      () => decodeEvents('{"secret": "sk-123"\n', state),
      (error: unknown) =>
        error instanceof RunEventDecodeError &&
        error.line === 2 &&
        /line 2/.test(error.message) &&
        !error.message.includes('sk-123'),
    );
  });

  it('rejects JSON that is not a run event', () => {
    for (const line of ['[1,2]', 'null', '"text"', '{"type":"case/explode"}', '{"kind":"result"}']) {
      assert.throws(() => decodeEvents(`${line}\n`, createDecodeState()), RunEventDecodeError, line);
    }
  });

  it('reads a multi-megabyte event fed in small chunks looking at each character about once', () => {
    // Counts the characters String#split and String#indexOf search while the decoder runs: appending
    // each chunk to a buffer and splitting it again (the old decoder) searched the line once per chunk.
    const big: RunEvent = {
      type: 'result',
      result: {
        caseId: 'big',
        scorer: 'exact_match',
        trial: 1,
        status: 'fail',
        passed: false,
        reason: 'x'.repeat(2_000_000),
        durationMs: 1,
      },
    };
    const text = encodeEvent(big) + encodeEvent(EVENTS[4] as RunEvent);
    const searched = countSearchedCharacters(() => {
      const state = createDecodeState();
      const events: RunEvent[] = [];
      for (let at = 0; at < text.length; at += 16 * 1024)
        events.push(...decodeEvents(text.slice(at, at + 16 * 1024), state));
      events.push(...finishEvents(state));
      assert.deepEqual(events, [big, EVENTS[4]]);
    });
    assert.ok(searched < 3 * text.length, `searched ${searched} characters for a stream of ${text.length}`);
  });

  it('skips an event line over the cap, saying which line and how long, and reads the events after it', () => {
    const state = createDecodeState(1000);
    const long = JSON.stringify({ type: 'result', result: { reason: 'y'.repeat(5000) } });
    const text = `${encodeEvent(EVENTS[0] as RunEvent)}${long}\n${encodeEvent(EVENTS[1] as RunEvent)}`;
    const events: RunEvent[] = [];
    for (let at = 0; at < text.length; at += 100) {
      events.push(...decodeEvents(text.slice(at, at + 100), state));
      assert.ok(state.lines.heldChars <= 1000, 'never holds more than the cap');
    }
    events.push(...finishEvents(state));
    assert.deepEqual(events, [EVENTS[0], EVENTS[1]]);
    assert.deepEqual(state.overLong, [{ line: 2, length: long.length }]);
    assert.equal(
      runEvents.overLongMessage({ line: 2, length: long.length }, 1000),
      `run event stream, line 2: skipped an event of ${long.length} characters, longer than the limit of 1000; the events after it are read`,
    );
  });

  it('caps event lines at 32 Mi characters by default', () => {
    assert.equal(runEvents.MAX_EVENT_LINE_CHARS, 32 * 1024 * 1024);
  });
});

function countSearchedCharacters(body: () => void): number {
  const split = String.prototype.split;
  const indexOf = String.prototype.indexOf;
  let searched = 0;
  String.prototype.split = function (this: string, ...args: Parameters<string['split']>) {
    searched += this.length;
    return split.apply(this, args);
  } as typeof split;
  String.prototype.indexOf = function (this: string, search: string, from?: number) {
    const found = indexOf.call(this, search, from);
    searched += (found === -1 ? this.length : found + search.length) - Math.max(0, from ?? 0);
    return found;
  } as typeof indexOf;
  try {
    body();
  } finally {
    String.prototype.split = split;
    String.prototype.indexOf = indexOf;
  }
  return searched;
}
