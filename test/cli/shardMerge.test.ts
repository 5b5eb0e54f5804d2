/**
 * `evallens run --shard` and `evallens merge` end to end with the built CLI, each command its own
 * process as on separate CI machines: the merged report of 3 shards equals the unsharded run's field
 * by field, timings and run ids aside, on the benchmark's generated support answers (5 scorers) and on
 * the agent example (recorded traces, 3 trials per case); and merge's refusals of bad inputs.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureBuilt, ROOT, runCli } from '../support/cli';

let work = '';

/** The fields that differ between two runs of the same cases: timings, run ids and times. */
const TIMING_KEYS = new Set(['durationMs', 'elapsed_ms', 'runId', 'startedAt', 'finishedAt', 'time']);

/** A report without its timings, for field-by-field comparison. */
export function withoutTimings(report: unknown): unknown {
  return JSON.parse(JSON.stringify(report, (key, value: unknown) => (TIMING_KEYS.has(key) ? undefined : value)));
}

function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

function onlyRun(runsDir: string): string {
  const runs = readdirSync(join(work, runsDir));
  assert.equal(runs.length, 1, `${runsDir}: ${runs.join(', ')}`);
  return join(work, runsDir, runs[0] ?? '');
}

async function run(args: readonly string[]): Promise<Awaited<ReturnType<typeof runCli>>> {
  return runCli(args, { cwd: work, limitMs: 120_000 });
}

/** The unsharded run, the 3 shards (each its own process and runs folder) and their merge, as reports. */
async function shardedAndWhole(
  config: string,
  name: string,
): Promise<{ whole: Record<string, unknown>; merged: Record<string, unknown>; shards: string[] }> {
  const whole = await run(['run', config, '--runs-dir', `${name}-whole`, '--no-color']);
  assert.ok(whole.code === 0 || whole.code === 1, whole.stderr);
  const shards: string[] = [];
  for (const i of [1, 2, 3]) {
    const shard = await run(['run', config, '--shard', `${i}/3`, '--runs-dir', `${name}-shard${i}`, '--no-color']);
    assert.ok(shard.code !== 2 && shard.code !== null, shard.stderr);
    shards.push(onlyRun(`${name}-shard${i}`));
  }
  // Given in another order than 1, 2, 3: merge orders them itself.
  const merge = await run([
    'merge',
    shards[2] ?? '',
    shards[0] ?? '',
    join(shards[1] ?? '', 'report.json'),
    '--runs-dir',
    `${name}-merged`,
    '--no-color',
  ]);
  assert.equal(merge.code, whole.code, merge.stderr);
  return {
    whole: readJson(join(onlyRun(`${name}-whole`), 'report.json')),
    merged: readJson(join(onlyRun(`${name}-merged`), 'report.json')),
    shards,
  };
}

before(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'evallens-shards-'));
  const generated = spawnSync(
    process.execPath,
    [join(ROOT, 'bench', 'generate.mjs'), '--cases', '600', '--peer-cases', '10', '--out', join(work, 'bench')],
    { encoding: 'utf8', timeout: 60_000 },
  );
  assert.equal(generated.status, 0, generated.stderr);
  cpSync(join(ROOT, 'examples', 'agent'), join(work, 'agent'), { recursive: true });
});

after(() => rmSync(work, { recursive: true, force: true }));

describe('evallens merge of 3 shards equals the unsharded run', () => {
  it('on 600 generated support answers through 5 scorers: every field but the timings', async () => {
    const { whole, merged, shards } = await shardedAndWhole(join(work, 'bench', 'bench.eval.yaml'), 'bench');
    assert.deepEqual(withoutTimings(merged), withoutTimings(whole));
    // The figures that matter, said outright (deepEqual covers them; this says what was compared).
    const scorers = merged['scorers'] as { stderr?: number; ci_low?: number; mde?: number; passRate?: number }[];
    assert.ok(scorers.every((s) => typeof s.stderr === 'number' && typeof s.mde === 'number'));
    assert.equal((merged['cases'] as unknown[]).length, 600);
    // Each shard ran a third or so of the cases, none twice.
    const sizes = shards.map((dir) => readFileSync(join(dir, 'cases.jsonl'), 'utf8').trim().split('\n').length);
    assert.equal(
      sizes.reduce((a, b) => a + b, 0),
      600,
    );
    for (const size of sizes) assert.ok(size > 150 && size < 250, sizes.join(', '));
    const info = readJson(join(onlyRun('bench-merged'), 'run.json'));
    assert.deepEqual(
      info['mergedFrom'],
      shards.map((dir) => readJson(join(dir, 'run.json'))['runId']),
    );
  });

  it('on the agent example with 3 trials per case: pass@k, flakiness and clustered statistics too', async () => {
    const { whole, merged } = await shardedAndWhole(join(work, 'agent', 'support-agent.eval.yaml'), 'agent');
    assert.equal(merged['numTrials'], 3);
    assert.ok((merged['cases'] as { trials?: unknown }[]).every((c) => c.trials !== undefined));
    assert.deepEqual(withoutTimings(merged), withoutTimings(whole));
  });
});

describe('--shard on the command line', () => {
  const config = () => join(work, 'agent', 'support-agent.eval.yaml');

  it('refuses 4/3, 0/3 and an index past the count as usage errors (exit 2), running nothing', async () => {
    const cases: [string[], RegExp][] = [
      [['--shard', '4/3'], /--shard 4\/3: the shard number is one-based and must be from 1 to 3; got 4/],
      [
        ['--shard', '0/3'],
        /--shard 0\/3: .*got 0 \(for a zero-based index such as JOB_COMPLETION_INDEX, use --shard-index/,
      ],
      [['--shard', 'half'], /--shard half: expected i\/n, one-based/],
      [['--shard-index', '3', '--shard-count', '3'], /--shard-index is zero-based and must be from 0 to 2/],
      [['--shard-index', '1'], /--shard-index and --shard-count go together/],
      [['--shard', '1/3', '--shard-count', '3'], /give one of them/],
    ];
    for (const [flags, message] of cases) {
      const refused = await run(['run', config(), ...flags, '--runs-dir', 'refused']);
      assert.equal(refused.code, 2, flags.join(' '));
      assert.match(refused.stderr, message);
    }
    assert.throws(() => readdirSync(join(work, 'refused')));
  });

  it('--shard-index k --shard-count n (zero-based) is --shard k+1/n, recorded as such in run.json', async () => {
    const zero = await run(['run', config(), '--shard-index', '1', '--shard-count', '3', '--runs-dir', 'k8s']);
    const one = await run(['run', config(), '--shard', '2/3', '--runs-dir', 'oneBased']);
    assert.equal(zero.code, one.code, zero.stderr);
    const a = readJson(join(onlyRun('k8s'), 'run.json'));
    const b = readJson(join(onlyRun('oneBased'), 'run.json'));
    assert.equal(a['shard'], '2/3');
    assert.deepEqual(a['fingerprint'], b['fingerprint']);
    assert.equal(
      readFileSync(join(onlyRun('k8s'), 'cases.jsonl'), 'utf8').replace(/"durationMs":[\d.]+/g, ''),
      readFileSync(join(onlyRun('oneBased'), 'cases.jsonl'), 'utf8').replace(/"durationMs":[\d.]+/g, ''),
    );
  });
});

describe('evallens merge refuses what it cannot merge, saying which input and why', () => {
  let shards: string[] = [];

  before(async () => {
    shards = [];
    for (const i of [1, 2, 3]) {
      await run(['run', join(work, 'agent', 'support-agent.eval.yaml'), '--shard', `${i}/3`, '--runs-dir', `bad-${i}`]);
      shards.push(onlyRun(`bad-${i}`));
    }
  });

  async function refused(args: readonly string[], message: RegExp): Promise<void> {
    const merge = await run(['merge', ...args, '--runs-dir', 'bad-merged']);
    assert.equal(merge.code, 2, merge.stderr);
    assert.match(merge.stderr, message);
    assert.doesNotMatch(merge.stderr, /\n\s+at /);
    assert.deepEqual(readdirSyncOr(join(work, 'bad-merged')), []);
  }

  it('a missing shard: "shard 2/3 missing"', async () => {
    await refused(
      [shards[0] ?? '', shards[2] ?? ''],
      /shard 2\/3 missing: the run was split in 3 \(given: 1\/3, 3\/3\)/,
    );
  });

  it('a shard given twice', async () => {
    await refused([shards[0] ?? '', shards[1] ?? '', shards[1] ?? '', shards[2] ?? ''], /shard 2\/3 is given twice/);
  });

  it('shards of different datasets, naming both runs', async () => {
    cpSync(join(work, 'agent'), join(work, 'agent2'), { recursive: true });
    appendFileSync(join(work, 'agent2', 'traces.jsonl'), '\n');
    await run(['run', join(work, 'agent2', 'support-agent.eval.yaml'), '--shard', '2/3', '--runs-dir', 'other']);
    await refused(
      [shards[0] ?? '', onlyRun('other'), shards[2] ?? ''],
      /cannot merge runs of different datasets \(the dataset files' contents differ\): .*bad-1.* \(shard 1\/3, run [^)]+\) and .*other.* \(shard 2\/3/,
    );
  });

  it('shards run with different trials', async () => {
    await run([
      'run',
      join(work, 'agent', 'support-agent.eval.yaml'),
      '--shard',
      '2/3',
      '--trials',
      '2',
      '--runs-dir',
      'trials2',
    ]);
    await refused([shards[0] ?? '', onlyRun('trials2'), shards[2] ?? ''], /different trials \(3 and 2\)/);
  });

  it('a corrupt line in a shard, by file and line', async () => {
    const copy = join(work, 'corrupt');
    cpSync(shards[0] ?? '', copy, { recursive: true });
    const cases = readFileSync(join(copy, 'cases.jsonl'), 'utf8').split('\n');
    cases[1] = '{"id": "cut';
    writeFileSync(join(copy, 'cases.jsonl'), cases.join('\n'));
    await refused(
      [copy, shards[1] ?? '', shards[2] ?? ''],
      /corrupt[/\\]cases\.jsonl:2:1: expected one JSON object per line, but this line is not one/,
    );
  });

  it('a shard that did not finish (killed: run.json without its end)', async () => {
    const copy = join(work, 'killed');
    cpSync(shards[1] ?? '', copy, { recursive: true });
    const info = readJson(join(copy, 'run.json'));
    delete info['finished'];
    writeFileSync(join(copy, 'run.json'), JSON.stringify(info));
    await refused([shards[0] ?? '', copy, shards[2] ?? ''], /killed \(shard 2\/3, run [^)]+\) did not finish/);
  });

  it('a folder that is not a run folder', async () => {
    await refused(
      [join(work, 'agent')],
      /agent[/\\]run\.json:1:1: expected the run\.json of a run folder, but it does not exist/,
    );
  });
});

function readdirSyncOr(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
