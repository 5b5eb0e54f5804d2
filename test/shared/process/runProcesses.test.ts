import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { spawnGroup } from '../../../core/process/processGroup';
import {
  endRunProcesses,
  hostRunToken,
  markedEnv,
  newRunToken,
  RUN_TOKEN_VAR,
  sweepMarked,
  trackedPids,
} from '../../../shared/process/runProcesses';
import { runOnce } from '../../../core/scorers/support/processRun';
import { runCommandTarget } from '../../../core/target/cmdTarget';
import { isGone, killLeftovers, recordedPids, waitAllGone } from '../../support/processes';
import { waitFor } from '../../support/waitFor';

const linuxOnly = process.platform === 'linux' ? {} : { skip: 'needs Linux /proc' };
const LIMIT = { ms: 20_000, from: 'the test' };

let work = '';
const everyPid: number[] = [];
before(() => {
  work = mkdtempSync(join(tmpdir(), 'evallens-run-processes-'));
});
after(() => {
  killLeftovers(everyPid);
  rmSync(work, { recursive: true, force: true });
});

describe('markedEnv', () => {
  it("puts the run's marker first, after the marker it inherited", () => {
    const env = markedEnv({ PATH: '/bin', [RUN_TOKEN_VAR]: 'outer' }, 'inner');
    assert.deepEqual(Object.entries(env), [
      [RUN_TOKEN_VAR, 'outer:inner'],
      ['PATH', '/bin'],
    ]);
    assert.equal(markedEnv({}, 'only')[RUN_TOKEN_VAR], 'only');
  });
});

describe('a command that answers and exits, leaving a setsid process holding its stdout', linuxOnly, () => {
  // Before: the pipes never closed, so the answer was lost and the case failed at its time limit.
  it('is read as exited with its answer (a subprocess scorer)', async () => {
    const pidFile = join(work, 'scorer-daemon.txt');
    const outcome = await runOnce(
      { shell: `${daemon(pidFile)}; echo '{"score": 1}'` },
      work,
      '{}',
      LIMIT,
      new AbortController().signal,
      'the command',
    );
    assert.equal(outcome.kind, 'exited', outcome.kind === 'stopped' ? outcome.reason : '');
    assert.equal(outcome.kind === 'exited' ? outcome.stdout.trim() : '', '{"score": 1}');
    everyPid.push(...recordedPids(pidFile));
    endRunProcesses();
    await waitAllGone(recordedPids(pidFile));
  });

  it('is read as exited with its answer (a command target)', async () => {
    const pidFile = join(work, 'target-daemon.txt');
    const stdout = await runCommandTarget(`${daemon(pidFile)}; echo ok`, {
      cwd: work,
      stdin: '',
      env: process.env,
      signal: AbortSignal.timeout(LIMIT.ms),
    });
    assert.equal(stdout, 'ok\n');
    everyPid.push(...recordedPids(pidFile));
    endRunProcesses();
    await waitAllGone(recordedPids(pidFile));
  });
});

/** Shell text: starts a setsid process that holds stdout and sleeps, and waits until it has written its pid to `pidFile`. */
function daemon(pidFile: string): string {
  return `setsid sh -c 'echo $$ > "${pidFile}"; exec sleep 1000' & while [ ! -s "${pidFile}" ]; do sleep 0.01; done`;
}

describe('endRunProcesses', linuxOnly, () => {
  it('ends a descendant that left the group and was reparented, and leaves processes the run did not start alone', async () => {
    const pidFile = join(work, 'escaped.txt');
    // Not started by the run, though it carries another run's marker (a parent run's, say).
    const bystander = spawn('sleep', ['1000'], {
      stdio: 'ignore',
      env: { ...process.env, [RUN_TOKEN_VAR]: newRunToken() },
    });
    const bystanderPid = bystander.pid ?? -1;
    everyPid.push(bystanderPid);
    // A double fork: sh starts a setsid sh that records its pid and sleeps, then exits.
    const child = spawnGroup({ shell: daemon(pidFile) }, work);
    child.stdin.end();
    await waitFor(() => recordedPids(pidFile).length === 1, 'the escaped process to record its pid');
    const escaped = recordedPids(pidFile);
    everyPid.push(...escaped);
    // Polled: while it execs `sleep`, its environment reads empty for a moment.
    await waitFor(
      () => readFileSync(`/proc/${escaped[0]}/environ`, 'utf8').includes(hostRunToken),
      'the escaped process to show the marker it inherited',
    );
    endRunProcesses();
    await waitAllGone(escaped);
    assert.equal(isGone(bystanderPid), false, 'a process the run did not start is left alone');
    assert.equal(sweepMarked(newRunToken()), 0, 'a marker nobody carries ends nothing');
    bystander.kill('SIGKILL');
  });

  it('ends a descendant that left the group and cleared its environment, once it was seen by parent pid', async () => {
    const pidFile = join(work, 'scrubbed.txt');
    // `env -i`: no marker. Its parent waits for its stdin to close, so it is seen below the group first.
    const child = spawnGroup(
      {
        shell: `setsid env -i /bin/sh -c 'echo $$ > "${pidFile}"; exec sleep 1000' & while [ ! -s "${pidFile}" ]; do sleep 0.01; done; read line`,
      },
      work,
    );
    await waitFor(() => recordedPids(pidFile).length === 1, 'the scrubbed process to record its pid');
    const scrubbed = recordedPids(pidFile);
    everyPid.push(...scrubbed);
    await waitFor(() => trackedPids().includes(scrubbed[0] ?? -1), 'the scrubbed process to be noted below its group');
    child.stdin.end();
    await new Promise((resolve) => child.once('exit', resolve));
    assert.equal(isGone(scrubbed[0] ?? -1), false, 'the group kill did not reach it');
    endRunProcesses();
    await waitAllGone(scrubbed);
  });
});
