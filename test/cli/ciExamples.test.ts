/**
 * The CI examples in examples/ci run as written: both YAML files are parsed, their EvalLens commands
 * are checked against the CLI's own argument parser, and their steps are run with the built CLI, each
 * shard in its own process and its own folder (a machine of its own), the run folders carried over as
 * the artifacts or the shared volume carry them, and the merged report compared with a run on one
 * machine (timings aside).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse, parseAllDocuments } from 'yaml';
import { parseCommand } from '../../cli/args';
import { ensureBuilt, ROOT, runCli } from '../support/cli';

const TIMING_KEYS = new Set(['durationMs', 'elapsed_ms', 'runId', 'startedAt', 'finishedAt']);
/**
 * A report without timings, and with the machine's checkout folder written as <checkout>: CI machines
 * check out at the same path (GitHub's runners, one image's workingDir), these folders do not.
 */
const withoutTimings = (report: unknown): unknown =>
  JSON.parse(
    JSON.stringify(report, (key, value: unknown) => (TIMING_KEYS.has(key) ? undefined : value)).replace(
      /[^"]*[/\\](one-machine|gh-shard-\d|gh-merge|k8s-pod-\d|k8s-merge)[/\\]/g,
      '<checkout>/',
    ),
  );

let work = '';
let wholeReport: unknown;

/** A fresh "machine": the example's files and the built CLI, nothing else. */
function machine(name: string): string {
  const dir = join(work, name);
  mkdirSync(join(dir, 'examples'), { recursive: true });
  cpSync(join(ROOT, 'examples', 'quickstart'), join(dir, 'examples', 'quickstart'), { recursive: true });
  symlinkSync(join(ROOT, 'dist'), join(dir, 'dist'));
  return dir;
}

function shell(shellName: 'bash' | 'sh', script: string, cwd: string, env: NodeJS.ProcessEnv = {}) {
  const args = shellName === 'bash' ? ['-e', '-c', script] : ['-c', script];
  return spawnSync(shellName, args, {
    cwd,
    env: { ...process.env, NO_COLOR: '1', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
}

/** Every `node dist/cli.js …` command of a script, as the CLI's parser reads it (variables given). */
function cliCommands(script: string): ReturnType<typeof parseCommand>[] {
  return [...script.matchAll(/node dist\/cli\.js ([^|\n]+)/g)].map((m) =>
    parseCommand((m[1] ?? '').trim().replace(/"/g, '').split(/\s+/)),
  );
}

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

before(async () => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'evallens-ci-'));
  const one = machine('one-machine');
  const whole = await runCli(
    ['run', 'examples/quickstart/refunds.eval.yaml', '--runs-dir', 'runs', '--reporter', 'json', '--out', 'whole.json'],
    { cwd: one },
  );
  assert.equal(whole.code, 1, whole.stderr);
  wholeReport = readJson(join(one, 'whole.json'));
});

after(() => rmSync(work, { recursive: true, force: true }));

interface Step {
  readonly uses?: string;
  readonly run?: string;
  readonly with?: Record<string, unknown>;
}

describe('examples/ci/github-actions-shards.yml', () => {
  const workflow = parse(readFileSync(join(ROOT, 'examples', 'ci', 'github-actions-shards.yml'), 'utf8')) as {
    jobs: {
      eval: { strategy: { matrix: { shard: number[] } }; steps: Step[] };
      merge: { needs: string; steps: Step[] };
    };
  };
  const shardSteps = workflow.jobs.eval.steps;
  const mergeSteps = workflow.jobs.merge.steps;
  const evalScript = shardSteps.find((s) => s.run?.includes('dist/cli.js') === true)?.run ?? '';
  const mergeScript = mergeSteps.find((s) => s.run?.includes('dist/cli.js') === true)?.run ?? '';

  it('runs shard i of the matrix size, uploads the runs folder it writes, and merges what it downloads', () => {
    const shards = workflow.jobs.eval.strategy.matrix.shard;
    assert.deepEqual(shards, [1, 2, 3]);
    assert.equal(workflow.jobs.merge.needs, 'eval');
    for (const shard of shards) {
      const [command] = cliCommands(evalScript.replaceAll('${{ matrix.shard }}', String(shard)));
      assert.ok(command?.kind === 'run');
      assert.deepEqual(command.shard, { index: shard - 1, count: shards.length });
      const upload = shardSteps.find((s) => s.uses?.startsWith('actions/upload-artifact') === true);
      assert.equal(upload?.with?.['path'], `${command.runsDir ?? ''}/`);
    }
    const [merge] = cliCommands(mergeScript);
    assert.ok(merge?.kind === 'merge');
    const download = mergeSteps.find((s) => s.uses?.startsWith('actions/download-artifact') === true);
    assert.equal(download?.with?.['pattern'], 'evallens-shard-*');
    // download-artifact puts each artifact in <path>/<artifact name>/: the run folders are <path>/*/*.
    assert.deepEqual(merge.inputs, [`${String(download?.with?.['path'])}/*/*`]);
    assert.deepEqual(
      merge.reporters.map((r) => r.name),
      ['junit', 'json'],
    );
  });

  it('its steps, run as separate machines, give the merged report of a single run and a JUnit file', () => {
    const mergeMachine = machine('gh-merge');
    for (const shard of workflow.jobs.eval.strategy.matrix.shard) {
      const dir = machine(`gh-shard-${shard}`);
      const ran = shell('bash', evalScript.replaceAll('${{ matrix.shard }}', String(shard)), dir);
      assert.equal(ran.status, 0, ran.stderr);
      // upload-artifact of evallens-runs/, then download-artifact into shards/evallens-shard-<n>/.
      cpSync(join(dir, 'evallens-runs'), join(mergeMachine, 'shards', `evallens-shard-${shard}`), { recursive: true });
    }
    const merged = shell('bash', mergeScript, mergeMachine);
    // The quick start fails one case on purpose: the merge says so as a run would (exit 1).
    assert.equal(merged.status, 1, merged.stderr);
    assert.deepEqual(withoutTimings(readJson(join(mergeMachine, 'evallens-report.json'))), withoutTimings(wholeReport));
    const junit = readFileSync(join(mergeMachine, 'evallens-junit.xml'), 'utf8');
    assert.match(junit, /<testsuites name="evallens" tests="4" failures="1" errors="0" skipped="0"/);
  });
});

describe('examples/ci/k8s-indexed-job.yaml', () => {
  const documents = parseAllDocuments(readFileSync(join(ROOT, 'examples', 'ci', 'k8s-indexed-job.yaml'), 'utf8')).map(
    (d) => d.toJS() as Record<string, any>, // eslint-disable-line @typescript-eslint/no-explicit-any
  );
  const shardJob = documents.find((d) => d['metadata']?.name === 'evallens-shards');
  const mergeJob = documents.find((d) => d['metadata']?.name === 'evallens-merge');
  const shardScript = String(shardJob?.['spec']?.template?.spec?.containers?.[0]?.command?.[2] ?? '');
  const waitScript = String(mergeJob?.['spec']?.template?.spec?.initContainers?.[0]?.command?.[2] ?? '');
  const mergeScript = String(mergeJob?.['spec']?.template?.spec?.containers?.[0]?.command?.[2] ?? '');

  it('is an Indexed Job whose completions are the --shard-count its pods pass with JOB_COMPLETION_INDEX', () => {
    assert.equal(shardJob?.['spec']?.completionMode, 'Indexed');
    const completions = Number(shardJob?.['spec']?.completions);
    for (let index = 0; index < completions; index++) {
      const [command] = cliCommands(shardScript.replaceAll('$JOB_COMPLETION_INDEX', String(index)));
      assert.ok(command?.kind === 'run');
      assert.deepEqual(command.shard, { index, count: completions });
    }
    const [merge] = cliCommands(mergeScript);
    assert.ok(merge?.kind === 'merge');
    assert.match(waitScript, new RegExp(`-ge ${completions} \\]`));
  });

  it('its pods, run as separate processes sharing a folder for /runs, give the merged report of a single run', () => {
    const runs = join(work, 'k8s-volume');
    mkdirSync(runs);
    const onVolume = (script: string) => script.replaceAll('/runs', runs);
    const completions = Number(shardJob?.['spec']?.completions);
    for (let index = 0; index < completions; index++) {
      const pod = machine(`k8s-pod-${index}`);
      const ran = shell('sh', onVolume(shardScript), pod, { JOB_COMPLETION_INDEX: String(index) });
      assert.equal(ran.status, 0, ran.stderr);
    }
    const mergePod = machine('k8s-merge');
    assert.equal(shell('sh', onVolume(waitScript), mergePod).status, 0);
    const merged = shell('sh', onVolume(mergeScript), mergePod);
    assert.equal(merged.status, 1, merged.stderr);
    const folder = readdirSync(join(runs, 'merged')).find((name) => name !== 'junit.xml') ?? '';
    assert.deepEqual(
      withoutTimings(readJson(join(runs, 'merged', folder, 'report.json'))),
      withoutTimings(wholeReport),
    );
    assert.match(readFileSync(join(runs, 'merged', 'junit.xml'), 'utf8'), /tests="4" failures="1"/);
  });
});
