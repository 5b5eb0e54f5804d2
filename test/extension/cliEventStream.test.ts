/**
 * The extension's reading of a CLI's event stream, with a stand-in child that writes the lines a
 * test chooses (the real CLI caps what a result carries, so it never writes an over-long line): an
 * event line past the decoder's cap is skipped with a message naming its line and length, and the
 * events after it still arrive; the stream is not broken.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startCliRun } from '../../extension/runner/cliProcess';
import { MAX_EVENT_LINE_CHARS, type RunEvent } from '../../protocol/runEvents';

const START: RunEvent = {
  type: 'run/start',
  runId: 'r1',
  configFile: '/x.eval.yaml',
  startedAt: '2026-01-01T00:00:00.000Z',
  scorers: [],
  numTrials: 1,
};
const END: RunEvent = {
  type: 'run/end',
  runId: 'r1',
  finishedAt: '2026-01-01T00:00:01.000Z',
  durationMs: 1000,
  cancelled: false,
  summary: { passed: 0, failed: 0, errored: 0, skipped: 0, total: 0 },
};

describe("the extension's reading of the CLI's events", () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'evallens-events-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('skips an event line over the cap with a message and goes on with the next event', async () => {
    const script = join(dir, 'stand-in-cli.mjs');
    const length = MAX_EVENT_LINE_CHARS + 10;
    writeFileSync(
      script,
      [
        `const write = (text) => new Promise((resolve) => process.stdout.write(text, resolve));`,
        `await write(${JSON.stringify(`${JSON.stringify(START)}\n`)});`,
        // The long line in pieces, as a real pipe delivers it.
        `const prefix = '{"type":"result","result":{"reason":"';`,
        `let left = ${length} - prefix.length - 3;`,
        `await write(prefix);`,
        `while (left > 0) { const n = Math.min(left, 1 << 20); await write('x'.repeat(n)); left -= n; }`,
        `await write('"}}\\n');`,
        `await write(${JSON.stringify(`${JSON.stringify(END)}\n`)});`,
        `process.disconnect?.();`,
      ].join('\n'),
    );
    const events: RunEvent[] = [];
    let stderr = '';
    const run = startCliRun(script, [], dir, { onEvent: (e) => events.push(e), onStderr: (t) => (stderr += t) });
    const exit = await run.exited;
    assert.equal(exit.streamError, undefined, 'the stream is not broken');
    assert.deepEqual(events, [START, END]);
    assert.equal(
      stderr,
      `run event stream, line 2: skipped an event of ${length} characters, longer than the limit of ${MAX_EVENT_LINE_CHARS}; the events after it are read\n`,
    );
  });
});
