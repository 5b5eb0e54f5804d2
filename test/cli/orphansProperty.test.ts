import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureBuilt, finished, ROOT, startCli } from '../support/cli';
import { killLeftovers, recordedPids, waitAllGone } from '../support/processes';
import { waitFor } from '../support/waitFor';
import { seededRandom as prng } from '../support/seededRandom';

// Property: whatever tree of processes a scorer starts — any depth and breadth, any of them started
// with setsid (a new session and group), ignoring SIGTERM, or exiting once its children started (so
// they are reparented, as after a double fork) — none outlives the run, for a
// normal end and for a second Ctrl-C. Shapes come from a seeded PRNG, so a failure replays exactly.
// Linux only (a setsid descendant is reached through /proc).
const linuxOnly = process.platform === 'linux' ? {} : { skip: 'needs Linux /proc' };

interface Shape {
  readonly detached?: boolean;
  readonly ignoreTerm?: boolean;
  /** Exits once its children have started (they are reparented, as after a daemon's double fork). */
  readonly exits?: boolean;
  readonly children?: readonly Shape[];
}

const MAX_DEPTH = 3;
const MAX_BREADTH = 3;
/** Processes per tree at most, so eight trees at once stay light. */
const MAX_NODES = 7;

function randomShape(random: () => number): Shape {
  let budget = MAX_NODES - 1;
  const grow = (depth: number): Shape => {
    const children: Shape[] = [];
    const breadth = depth >= MAX_DEPTH ? 0 : Math.floor(random() * (MAX_BREADTH + 1));
    for (let i = 0; i < breadth && budget > 0; i++) {
      budget--;
      children.push(grow(depth + 1));
    }
    return { detached: random() < 0.4, ignoreTerm: random() < 0.5, exits: random() < 0.25, children };
  };
  return grow(0);
}

function size(shape: Shape): number {
  return 1 + (shape.children ?? []).reduce((sum, child) => sum + size(child), 0);
}

const CASES = 8;
let work = '';
const everyPid: number[] = [];

before(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'evallens-orphan-trees-'));
  cpSync(join(ROOT, 'test', 'fixtures', 'processes'), work, { recursive: true });
});

after(() => {
  killLeftovers(everyPid);
  rmSync(work, { recursive: true, force: true });
});

/** Writes a config whose eight cases each carry a random tree shape as their output; returns the processes to expect. */
function writeTrees(seed: number, mode: 'answer' | 'hang'): { config: string; processes: number } {
  const random = prng(seed);
  const shapes = Array.from({ length: CASES }, () => randomShape(random));
  // The shapes must exercise what matters: setsid below the root, and processes that ignore SIGTERM.
  const all = (shape: Shape): Shape[] => [shape, ...(shape.children ?? []).flatMap(all)];
  const below = shapes.flatMap((shape) => (shape.children ?? []).flatMap(all));
  assert.ok(
    below.some((s) => s.detached === true) &&
      below.some((s) => s.ignoreTerm === true) &&
      shapes.flatMap(all).some((s) => s.exits === true && (s.children ?? []).length > 0),
    `seed ${seed} generates setsid, SIGTERM-ignoring and reparented descendants`,
  );
  const dataset = `trees-${seed}.jsonl`;
  writeFileSync(
    join(work, dataset),
    shapes
      .map((shape, i) => JSON.stringify({ id: `tree-${i}`, output: JSON.stringify(shape), expected: 'x' }))
      .join('\n') + '\n',
  );
  const config = `trees-${seed}.eval.yaml`;
  writeFileSync(
    join(work, config),
    `dataset: ${dataset}\nscorers:\n  subprocess:\n    cmd: '"$TREE_NODE" scorer.mjs ${mode}'\n    timeout_ms: 20000\n`,
  );
  // Each scorer records its own pid and every process of its tree.
  return { config, processes: shapes.reduce((sum, shape) => sum + 1 + size(shape), 0) };
}

async function runTrees(
  seed: number,
  mode: 'answer' | 'hang',
  signals: readonly NodeJS.Signals[],
): Promise<number | null> {
  const { config, processes } = writeTrees(seed, mode);
  const pidsFile = join(work, `pids-${seed}.txt`);
  writeFileSync(pidsFile, '');
  const child = startCli(['run', config, '--concurrency', String(CASES), '--runs-dir', `runs-${seed}`], {
    cwd: work,
    env: { PIDS_FILE: pidsFile, TREE_NODE: process.execPath, TREE_FROM_OUTPUT: '1' },
  });
  try {
    if (signals.length > 0)
      await waitFor(() => recordedPids(pidsFile).length >= processes, `${processes} recorded pids`, 40_000);
    for (const [i, signal] of signals.entries()) {
      child.kill(signal);
      if (i + 1 < signals.length)
        await waitFor(() => child.output.stderr.includes('evallens: stopping'), 'the CLI to say it is stopping');
    }
    const run = await finished(child, 60_000);
    const pids = recordedPids(pidsFile);
    everyPid.push(...pids);
    assert.equal(pids.length, processes, `seed ${seed}: every process recorded its pid; stderr: ${run.stderr}`);
    await waitAllGone(pids);
    return run.code;
  } finally {
    everyPid.push(...recordedPids(pidsFile));
    child.kill('SIGKILL');
  }
}

describe('no generated process tree outlives the run', linuxOnly, () => {
  it('seed 13: trees left behind by scorers that answered are ended when the run ends', async () => {
    assert.equal(await runTrees(13, 'answer', []), 0);
  });
  it('seed 26: trees of hanging scorers are ended by a second Ctrl-C', async () => {
    assert.equal(await runTrees(26, 'hang', ['SIGINT', 'SIGINT']), 130);
  });
  it('seed 39: trees of hanging scorers are ended by a second SIGTERM', async () => {
    assert.equal(await runTrees(39, 'hang', ['SIGTERM', 'SIGTERM']), 130);
  });
});
