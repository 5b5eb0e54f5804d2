import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createDecodeState, decodeEvents } from '../../../protocol/runEvents';
import { sampleEvents } from '../../support/sampleRun';
import { assertGolden, runReporter } from './harness';

describe('jsonl reporter', () => {
  it('matches the golden event stream', async () => {
    assertGolden('three-cases.events.jsonl', await runReporter('jsonl'));
  });

  it('writes each event as one line, exactly as the event object is', async () => {
    const lines = (await runReporter('jsonl')).split('\n');
    assert.equal(lines.pop(), '');
    assert.deepEqual(
      lines.map((line) => JSON.parse(line)),
      sampleEvents(),
    );
  });

  it('is what the extension decodes', async () => {
    assert.deepEqual(decodeEvents(await runReporter('jsonl'), createDecodeState()), sampleEvents());
  });

  it('writes to the file in `out` and ends it at finish', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evallens-jsonl-test-'));
    try {
      const out = join(dir, 'events.jsonl');
      assert.equal(await runReporter('jsonl', { out }), '');
      assert.equal(
        readFileSync(out, 'utf8'),
        readFileSync(join(__dirname, '..', '..', 'fixtures', 'reports', 'three-cases.events.jsonl'), 'utf8'),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports a file it cannot write when the run finishes, without crashing on the way', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evallens-jsonl-test-'));
    try {
      // The output path is a folder: opening it fails asynchronously, after onEvent returned.
      await assert.rejects(runReporter('jsonl', { out: dir }), (error: Error) =>
        error.message.startsWith(`cannot write ${dir}:`),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
