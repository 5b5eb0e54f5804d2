import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { formatDuration, ProgressLine, progressIntervalMs, progressText } from '../../cli/progress';
import { ensureBuilt, runCli } from '../support/cli';

const CLEAR = '\r\u001b[2K';

describe('the progress line', () => {
  it('says cases done of the total, the rate, the ETA and the failures so far', () => {
    assert.equal(
      progressText({ done: 30, total: 120, failed: 2, errored: 1, elapsedMs: 10_000 }),
      '30/120 cases (25%) · 3 cases/s · ETA 30s · 2 failed, 1 errored',
    );
    assert.equal(progressText({ done: 0, total: 5, failed: 0, errored: 0, elapsedMs: 0 }), '0/5 cases (0%) · 0 failed');
    // Done: no ETA; a total that was not counted: cases done only.
    assert.equal(
      progressText({ done: 5, total: 5, failed: 0, errored: 0, elapsedMs: 500 }),
      '5/5 cases (100%) · 10 cases/s · 0 failed',
    );
    assert.equal(
      progressText({ done: 1, total: undefined, failed: 1, errored: 0, elapsedMs: 4000 }),
      '1 case done · 0.3 cases/s · 1 failed',
    );
    assert.deepEqual(
      [formatDuration(59_400), formatDuration(185_000), formatDuration(7_620_000)],
      ['59s', '3m05s', '2h07m'],
    );
  });

  it('on a terminal: redrawn in place, the console text printed above it, cleared at the end', () => {
    let t = 0;
    const written: string[] = [];
    const line = new ProgressLine({
      tty: true,
      intervalMs: 10_000,
      total: 4,
      now: () => t,
      write: (s) => written.push(s),
    });
    t = 1000;
    line.caseEnded('passed');
    assert.deepEqual(written, [`${CLEAR}1/4 cases (25%) · 1 cases/s · ETA 3s · 0 failed`]);
    line.printAbove('PASS a (3ms)\n');
    assert.equal(written[1], `${CLEAR}PASS a (3ms)\n1/4 cases (25%) · 1 cases/s · ETA 3s · 0 failed`);
    // Redrawn at most every 100 ms.
    t = 1050;
    line.caseEnded('failed');
    assert.equal(written.length, 2);
    t = 2000;
    line.caseEnded('errored');
    assert.equal(written[2], `${CLEAR}3/4 cases (75%) · 1.5 cases/s · ETA 1s · 1 failed, 1 errored`);
    line.stop();
    assert.equal(written[3], CLEAR);
    line.printAbove('summary\n');
    assert.equal(written[4], 'summary\n');
  });

  it('elsewhere (CI logs): a plain line when the interval has passed, nothing redrawn', () => {
    let t = 0;
    const written: string[] = [];
    const line = new ProgressLine({
      tty: false,
      intervalMs: 5000,
      total: 3,
      now: () => t,
      write: (s) => written.push(s),
    });
    t = 1000;
    line.caseEnded('passed');
    line.printAbove('PASS a\n');
    assert.deepEqual(written, ['PASS a\n']);
    t = 6000;
    line.caseEnded('failed');
    assert.deepEqual(written, ['PASS a\n', 'progress: 2/3 cases (66%) · 0.3 cases/s · ETA 3s · 1 failed\n']);
  });

  it('reads EVALLENS_PROGRESS_SECONDS: seconds, off, default 10', () => {
    assert.deepEqual(
      [
        progressIntervalMs(undefined),
        progressIntervalMs('2'),
        progressIntervalMs('0'),
        progressIntervalMs('off'),
        progressIntervalMs('x'),
      ],
      [10_000, 2000, 0, undefined, 10_000],
    );
  });
});

describe('progress from the built CLI (not a terminal)', () => {
  let work = '';
  before(() => {
    ensureBuilt();
    work = mkdtempSync(join(tmpdir(), 'evallens-progress-'));
  });
  after(() => rmSync(work, { recursive: true, force: true }));
  const config = resolve('examples/quickstart/refunds.eval.yaml');

  it('prints plain progress lines between the case lines, up to all cases done', async () => {
    const run = await runCli(['run', config, '--runs-dir', 'runs', '--concurrency', '1'], {
      cwd: work,
      env: { EVALLENS_PROGRESS_SECONDS: '0' },
    });
    const lines = run.stdout.split('\n').filter((l) => l.startsWith('progress: '));
    assert.equal(lines.length, 4, run.stdout);
    lines.forEach((l, i) => assert.match(l, new RegExp(`^progress: ${i + 1}/4 cases \\(\\d+%\\) · .* · \\d+ failed`)));
    assert.ok(!run.stdout.includes('\u001b'), 'no terminal escapes when stdout is not a terminal');
  });

  it('never in --reporter json on standard output', async () => {
    const run = await runCli(['run', config, '--runs-dir', 'runs', '--reporter', 'json'], {
      cwd: work,
      env: { EVALLENS_PROGRESS_SECONDS: '0' },
    });
    assert.ok(!run.stdout.includes('progress: '));
    assert.equal(typeof JSON.parse(run.stdout), 'object');
  });
});
