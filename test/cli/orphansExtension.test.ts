import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runArgs } from '../../extension/runner/cliArgs';
import { startCliRun } from '../../extension/runner/cliProcess';
import { CLI, ensureBuilt, ROOT } from '../support/cli';
import { killLeftovers, recordedPids, waitAllGone } from '../support/processes';
import { waitFor } from '../support/waitFor';

// The extension's Stop: it SIGKILLs the CLI (whose own exit cleanup then cannot run) and its tree.
// A scorer's grandchild that called setsid and whose parent exited (a daemon's double fork) is not
// in that tree: it was reparented. It carries the run's environment marker, which the extension sweeps for. Linux only (/proc).
const linuxOnly = process.platform === 'linux' ? {} : { skip: 'needs Linux /proc' };

let work = '';
const everyPid: number[] = [];

before(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'evallens-orphans-ext-'));
  cpSync(join(ROOT, 'test', 'fixtures', 'processes'), work, { recursive: true });
});

after(() => {
  killLeftovers(everyPid);
  rmSync(work, { recursive: true, force: true });
});

describe("the extension's Stop leaves nothing running", linuxOnly, () => {
  it('ends the CLI, every per-case scorer process and their setsid grandchildren', async () => {
    const pidsFile = join(work, 'pids.txt');
    writeFileSync(pidsFile, '');
    // The CLI inherits the host's environment (fork): the fixture's variables are set there for the run.
    const saved = { ...process.env };
    const daemon = { children: [{ exits: true, children: [{ detached: true, ignoreTerm: true }] }] };
    Object.assign(process.env, {
      PIDS_FILE: pidsFile,
      TREE_NODE: process.execPath,
      SCORER_MODE: 'hang',
      TREE: JSON.stringify(daemon),
    });
    const cli = startCliRun(
      CLI,
      runArgs({
        configFile: join(work, 'per-case.eval.yaml'),
        caseIds: [],
        runsDir: join(work, 'runs'),
        untrusted: false,
        concurrency: 2,
      }),
      work,
      {
        onEvent: () => undefined,
        onStderr: () => undefined,
      },
    );
    for (const key of ['PIDS_FILE', 'TREE_NODE', 'SCORER_MODE', 'TREE'])
      if (saved[key] === undefined) delete process.env[key];
    try {
      await waitFor(() => recordedPids(pidsFile).length >= 8, 'both scorers and their trees to start');
      cli.cancel();
      const exit = await cli.exited;
      assert.equal(exit.signal, 'SIGKILL');
      const pids = recordedPids(pidsFile);
      everyPid.push(...pids);
      await waitAllGone(pids);
    } finally {
      everyPid.push(...recordedPids(pidsFile));
    }
  });
});

describe('a CLI whose extension host dies', linuxOnly, () => {
  it('exits at once (its IPC channel closed) and ends everything the run started', async () => {
    const pidsFile = join(work, 'pids-host.txt');
    const cliPidFile = join(work, 'cli-pid.txt');
    writeFileSync(pidsFile, '');
    // Scorers that would hang for a minute: the run cannot end on its own while the test waits.
    writeFileSync(
      join(work, 'long.eval.yaml'),
      `cases:\n  - {id: one, output: a}\n  - {id: two, output: b}\nscorers:\n  subprocess:\n    cmd: '"$TREE_NODE" scorer.mjs hang'\n    timeout_ms: 60000\n`,
    );
    const host = spawn(
      process.execPath,
      [join(work, 'host.mjs'), CLI, 'run', 'long.eval.yaml', '--concurrency', '2', '--runs-dir', 'runs-host'],
      {
        cwd: work,
        env: { ...process.env, PIDS_FILE: pidsFile, CLI_PID_FILE: cliPidFile, TREE_NODE: process.execPath },
        stdio: 'ignore',
      },
    );
    try {
      await waitFor(() => recordedPids(pidsFile).length >= 8, 'both scorers and their trees to start');
      const cliPid = recordedPids(cliPidFile)[0];
      assert.ok(cliPid !== undefined);
      host.kill('SIGKILL');
      const pids = [cliPid, ...recordedPids(pidsFile)];
      everyPid.push(...pids);
      await waitAllGone(pids);
    } finally {
      everyPid.push(...recordedPids(pidsFile), ...recordedPids(cliPidFile));
      host.kill('SIGKILL');
    }
  });
});
