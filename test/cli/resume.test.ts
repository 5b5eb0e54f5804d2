/**
 * `evallens run --resume` and `--rerun` with the built CLI. A subprocess scorer (a real process)
 * logs each case it scores and holds every case from the 9th on until a gate file exists, so a run
 * can be killed (SIGKILL) with exactly 8 cases finished, whatever the machine's speed.
 */
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureBuilt, finished, runCli, startCli } from '../support/cli';
import { waitFor } from '../support/waitFor';

let work = '';
const CASES = 20;

const GATE = `import json, os, sys, time
case = json.load(sys.stdin)
with open("calls.log", "a") as log:
    log.write(case["input"] + "\\n")
n = int(case["input"].split("=")[1])
while n >= 8 and not os.path.exists("open.gate"):
    time.sleep(0.02)
print(json.dumps({"score": 1.0, "passed": True, "reason": "scored"}))
`;

const CONFIG = `dataset: cases.jsonl
scorers:
  contains:
    values: ["30 days"]
  subprocess:
    cmd: python3 gate.py
`;

/** Case n states the 30-day window unless n is a multiple of 5 (4 of the 20 fail). */
function dataset(extra = ''): string {
  const lines = Array.from({ length: CASES }, (_, n) =>
    JSON.stringify({
      id: `case-${String(n).padStart(2, '0')}`,
      input: `n=${n}`,
      output: n % 5 === 0 ? 'Returns are accepted for a month.' : 'Returns are accepted within 30 days.',
    }),
  );
  return `${lines.join('\n')}\n${extra}`;
}

const TIMING_KEYS = new Set(['durationMs', 'elapsed_ms', 'runId', 'startedAt', 'finishedAt']);
const withoutTimings = (report: unknown): unknown =>
  JSON.parse(JSON.stringify(report, (key, value: unknown) => (TIMING_KEYS.has(key) ? undefined : value)));

function calls(): string[] {
  try {
    return readFileSync(join(work, 'calls.log'), 'utf8').trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

function runFolder(runsDir: string): string {
  const [id] = readdirSync(join(work, runsDir));
  assert.ok(id !== undefined);
  return join(work, runsDir, id);
}

function lineCount(path: string): number {
  try {
    return readFileSync(path, 'utf8').split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
}

function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

const run = (args: readonly string[]) =>
  // Without the result cache: each run here must score (an uninterrupted run would else be served the
  // subprocess verdicts an earlier run kept, `cached: true`, and differ from a resumed one by that).
  runCli(['run', 'eval.yaml', '--no-color', '--no-cache', ...args], { cwd: work, limitMs: 120_000 });

/** A run killed (SIGKILL) once 8 cases are in its folder, the 9th held by the gate. */
async function killedRun(runsDir: string): Promise<string> {
  rmSync(join(work, 'open.gate'), { force: true });
  writeFileSync(join(work, 'calls.log'), '');
  const child = startCli(['run', 'eval.yaml', '--concurrency', '1', '--no-cache', '--runs-dir', runsDir], {
    cwd: work,
  });
  await waitFor(() => calls().includes('n=8'), 'the 9th case held at the gate', 60_000);
  await waitFor(() => lineCount(join(runFolder(runsDir), 'cases.jsonl')) >= 8, '8 finished cases in the run folder');
  child.kill('SIGKILL');
  await finished(child, 60_000);
  writeFileSync(join(work, 'open.gate'), '');
  return runFolder(runsDir);
}

before(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'evallens-resume-'));
  writeFileSync(join(work, 'eval.yaml'), CONFIG);
  writeFileSync(join(work, 'gate.py'), GATE);
  writeFileSync(join(work, 'cases.jsonl'), dataset());
});

after(() => rmSync(work, { recursive: true, force: true }));

describe('evallens run --resume', () => {
  it('finishes a killed run in its folder without scoring again what finished; the report equals an uninterrupted run', async () => {
    const folder = await killedRun('killed');
    assert.equal(lineCount(join(folder, 'cases.jsonl')), 8);
    // The kill landed in a write: a cut last line, which resume drops.
    appendFileSync(join(folder, 'results.jsonl'), '{"caseId":"case-0');
    writeFileSync(join(work, 'calls.log'), '');
    const resumed = await run(['--resume', 'latest', '--concurrency', '1', '--runs-dir', 'killed']);
    assert.equal(resumed.code, 1, resumed.stderr);
    // Only the 12 cases that had not finished were scored now.
    assert.deepEqual(calls().sort(), Array.from({ length: 12 }, (_, i) => `n=${i + 8}`).sort());
    assert.equal(readdirSync(join(work, 'killed')).length, 1);
    // The console lists every case, those from before too.
    assert.equal((resumed.stdout.match(/^(PASS|FAIL) case-/gm) ?? []).length, CASES);

    const whole = await run(['--concurrency', '1', '--runs-dir', 'whole']);
    assert.equal(whole.code, 1, whole.stderr);
    const a = readJson(join(folder, 'report.json'));
    const b = readJson(join(runFolder('whole'), 'report.json'));
    assert.deepEqual(withoutTimings(a), withoutTimings(b));
    assert.equal((a['summary'] as { total: number }).total, CASES);
    assert.equal(readJson(join(folder, 'run.json'))['finished'] !== undefined, true);
  });

  it('refuses a run whose dataset changed since, and a run that finished', async () => {
    const folder = await killedRun('changed');
    writeFileSync(join(work, 'cases.jsonl'), dataset('\n'));
    try {
      const refused = await run(['--resume', folder.split(/[/\\]/).pop() ?? '', '--runs-dir', 'changed']);
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(refused.stderr, /the dataset changed since that run \(its content differs\)/);
    } finally {
      writeFileSync(join(work, 'cases.jsonl'), dataset());
    }
    const done = await run(['--runs-dir', 'done']);
    assert.equal(done.code, 1, done.stderr);
    const again = await run(['--resume', 'latest', '--runs-dir', 'done']);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /finished every case .* nothing to resume/);
  });

  it('refuses --resume with --rerun, and a run id that is a path', async () => {
    const both = await run(['--resume', 'latest', '--rerun', 'failed']);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /give one of them/);
    const path = await run(['--resume', '../elsewhere']);
    assert.equal(path.code, 2);
    assert.match(path.stderr, /--resume takes a run id/);
  });
});

describe('evallens run --rerun failed', () => {
  it('re-runs only the failed cases of the previous run into a new, complete report', async () => {
    writeFileSync(join(work, 'open.gate'), '');
    const first = await run(['--concurrency', '1', '--runs-dir', 'rerun']);
    assert.equal(first.code, 1, first.stderr);
    writeFileSync(join(work, 'calls.log'), '');
    const rerun = await run(['--rerun', 'failed', '--from', 'latest', '--concurrency', '1', '--runs-dir', 'rerun']);
    assert.equal(rerun.code, 1, rerun.stderr);
    assert.deepEqual(calls().sort(), ['n=0', 'n=10', 'n=15', 'n=5']);
    const runs = readdirSync(join(work, 'rerun')).sort();
    assert.equal(runs.length, 2);
    const before = readJson(join(work, 'rerun', runs[0] ?? '', 'report.json'));
    const after = readJson(join(work, 'rerun', runs[1] ?? '', 'report.json'));
    // The same report, cases in dataset order: the failed cases scored again gave the same results.
    assert.deepEqual(withoutTimings(after), withoutTimings(before));
  });
});
