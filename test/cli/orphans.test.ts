import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureBuilt, finished, ROOT, startCli, type CliRun } from '../support/cli';
import { killLeftovers, recordedPids, waitAllGone } from '../support/processes';
import { waitFor } from '../support/waitFor';

// Nothing a run started outlives it: per-case and persistent subprocess scorers, python_scorer and
// command targets each start a process tree (test/fixtures/processes) with a child in their group
// and a grandchild that calls `setsid` and ignores SIGTERM; after the CLI exits — a second Ctrl-C,
// SIGTERM, SIGHUP, a cancel, or a normal end — every recorded process is dead. Linux only: reaching
// a `setsid` grandchild needs /proc (elsewhere only process groups are ended, as docs/processes.md says).
const linuxOnly = process.platform === 'linux' ? {} : { skip: 'needs Linux /proc' };

let work = '';
const everyPid: number[] = [];
let serial = 0;

before(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'evallens-orphans-'));
  cpSync(join(ROOT, 'test', 'fixtures', 'processes'), work, { recursive: true });
});

after(() => {
  killLeftovers(everyPid);
  rmSync(work, { recursive: true, force: true });
});

interface Scenario {
  readonly args: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  /** How many pids the fixtures record once every tree is up (the signals wait for them). */
  readonly processes: number;
  /** Sent in order once every process is up; each after the CLI said it heard the one before. */
  readonly signals?: readonly NodeJS.Signals[];
}

/** Runs the CLI through the scenario and returns how it ended, after every recorded process is gone. */
async function runScenario(scenario: Scenario): Promise<CliRun> {
  serial++;
  const pidsFile = join(work, `pids-${serial}.txt`);
  writeFileSync(pidsFile, '');
  const child = startCli(['run', ...scenario.args, '--runs-dir', `runs-${serial}`], {
    cwd: work,
    env: { PIDS_FILE: pidsFile, TREE_NODE: process.execPath, ...scenario.env },
  });
  const signals = scenario.signals ?? [];
  try {
    if (signals.length > 0)
      await waitFor(
        () => recordedPids(pidsFile).length >= scenario.processes,
        `${scenario.processes} recorded pids in ${pidsFile}`,
      );
    for (const [i, signal] of signals.entries()) {
      child.kill(signal);
      if (i + 1 < signals.length)
        await waitFor(() => child.output.stderr.includes('evallens: stopping'), 'the CLI to say it is stopping');
    }
    const run = await finished(child, 60_000);
    const pids = recordedPids(pidsFile);
    everyPid.push(...pids);
    assert.ok(
      pids.length >= scenario.processes,
      `${pids.length} pids recorded, ${scenario.processes} expected; stderr: ${run.stderr}`,
    );
    await waitAllGone(pids);
    return run;
  } finally {
    everyPid.push(...recordedPids(pidsFile));
    child.kill('SIGKILL');
  }
}

describe('nothing a run started outlives it', linuxOnly, () => {
  it('a second Ctrl-C exits at once and ends every per-case scorer process, setsid grandchildren included', async () => {
    const run = await runScenario({
      args: ['per-case.eval.yaml', '--concurrency', '2'],
      env: { SCORER_MODE: 'hang' },
      processes: 8,
      signals: ['SIGINT', 'SIGINT'],
    });
    assert.equal(run.code, 130, run.stderr);
  });

  it('the same for a second SIGTERM', async () => {
    const run = await runScenario({
      args: ['per-case.eval.yaml', '--concurrency', '2'],
      env: { SCORER_MODE: 'hang' },
      processes: 8,
      signals: ['SIGTERM', 'SIGTERM'],
    });
    assert.equal(run.code, 130, run.stderr);
  });

  it('SIGHUP (the terminal went away) exits at once (129) and ends them too', async () => {
    const run = await runScenario({
      args: ['per-case.eval.yaml', '--concurrency', '2'],
      env: { SCORER_MODE: 'hang' },
      processes: 8,
      signals: ['SIGHUP'],
    });
    assert.equal(run.code, 129, run.stderr);
  });

  it('one Ctrl-C cancels the run, and what the stopped scorers started with setsid is ended when it ends', async () => {
    const run = await runScenario({
      args: ['per-case.eval.yaml', '--concurrency', '2'],
      env: { SCORER_MODE: 'hang' },
      processes: 8,
      signals: ['SIGINT'],
    });
    assert.equal(run.code, 130, run.stderr);
  });

  it('a normal end ends what per-case scorers left behind after answering', async () => {
    const run = await runScenario({
      args: ['per-case.eval.yaml', '--concurrency', '2'],
      env: { SCORER_MODE: 'answer' },
      processes: 8,
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
  });

  it('persistent mode: a second Ctrl-C ends the pool and its trees', async () => {
    const run = await runScenario({
      args: ['persistent.eval.yaml'],
      env: { PERSISTENT_HANG: '1' },
      processes: 4,
      signals: ['SIGINT', 'SIGINT'],
    });
    assert.equal(run.code, 130, run.stderr);
  });

  it('persistent mode: a normal end ends the pool and what it left behind', async () => {
    const run = await runScenario({ args: ['persistent.eval.yaml'], processes: 4 });
    assert.equal(run.code, 0, run.stdout + run.stderr);
  });

  it('a command target: a second Ctrl-C ends it and its tree', async () => {
    const run = await runScenario({
      args: ['target.eval.yaml'],
      env: { SCORER_MODE: 'hang' },
      processes: 4,
      signals: ['SIGINT', 'SIGINT'],
    });
    assert.equal(run.code, 130, run.stderr);
  });

  it('a command target: a normal end ends what it left behind', async () => {
    const run = await runScenario({ args: ['target.eval.yaml'], env: { SCORER_MODE: 'target' }, processes: 4 });
    assert.equal(run.code, 0, run.stdout + run.stderr);
  });

  it('python_scorer: a second Ctrl-C ends the script and its tree', async () => {
    const run = await runScenario({
      args: ['python.eval.yaml'],
      env: { SCORER_MODE: 'hang' },
      processes: 3,
      signals: ['SIGINT', 'SIGINT'],
    });
    assert.equal(run.code, 130, run.stderr);
  });

  it('python_scorer: a normal end ends what the script left behind', async () => {
    const run = await runScenario({ args: ['python.eval.yaml'], env: { SCORER_MODE: 'python' }, processes: 3 });
    assert.equal(run.code, 0, run.stdout + run.stderr);
  });
});
