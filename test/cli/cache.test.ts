/**
 * The result cache through the built CLI, against a loopback test double of a judge's provider
 * (fakeOpenAiServer: it counts every request): a second run makes 0 judge calls and its report says
 * `cached: true`; `--no-cache`; `evallens cache stats|clear`; a corrupt entry is scored again and
 * overwritten; two runs at once share one cache; an untrusted run neither reads nor writes it.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { open } from 'lmdb';
import type { ScorerResult } from '../../core/result';
import { ensureBuilt, finished, runCli, startCli } from '../support/cli';
import { startFakeLlmServer, type FakeLlmServer } from '../support/fakeOpenAiServer';

const KEY_ENV = 'EVALLENS_TEST_CACHE_JUDGE_KEY';
const env = { ...process.env, [KEY_ENV]: 'sk-cache-test-key' };
let server: FakeLlmServer;
let root = '';

before(async () => {
  ensureBuilt();
  server = await startFakeLlmServer(() => ({ text: '{"verdict": "PASS", "reason": "ok"}' }));
  root = mkdtempSync(join(tmpdir(), 'evallens-cache-cli-'));
});

after(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

/** A fresh folder with a judged config of `n` cases (goal_completion and contains). */
function workspace(name: string, n = 3, judgeExtra = ''): string {
  const work = join(root, name);
  mkdirSync(work);
  writeFileSync(
    join(work, 'judge.yaml'),
    `provider: openai\nbase_url: ${server.openAiBaseUrl}\nmodel: test-judge\napi_key_env: ${KEY_ENV}\nretry_initial_delay_ms: 0\n${judgeExtra}`,
  );
  const cases = Array.from({ length: n }, (_, i) => ({ id: `c${i}`, input: `question ${i}`, output: 'x' }));
  const scorers = ['  goal_completion: {model_config: judge.yaml}', '  contains: {value: x}'].join('\n');
  writeFileSync(join(work, 'judged.eval.yaml'), `scorers:\n${scorers}\ncases: ${JSON.stringify(cases)}\n`);
  return work;
}

async function run(work: string, ...extra: string[]): Promise<{ results: ScorerResult[]; stderr: string }> {
  const out = join(work, `report-${Math.random().toString(36).slice(2)}.json`);
  const done = await runCli(['run', 'judged.eval.yaml', '--reporter', 'json', '--out', out, ...extra], {
    cwd: work,
    env,
  });
  assert.equal(done.code, 0, done.stderr);
  const report = JSON.parse(readFileSync(out, 'utf8')) as { results: ScorerResult[] };
  return { results: report.results, stderr: done.stderr };
}

const judged = (results: readonly ScorerResult[]) =>
  results.filter((r) => r.scorer === 'goal_completion').map((r) => [r.caseId, r.status, r.score, r.cached ?? false]);

describe('evallens run with the result cache', () => {
  it('makes 0 judge calls on the second run, and its report marks those results cached: true', async () => {
    const work = workspace('again');
    const before = server.requests.length;
    const first = await run(work);
    assert.equal(server.requests.length - before, 3);
    assert.ok(existsSync(join(work, '.evallens', 'cache', 'results.lmdb')), 'the default cache is beside the runs');
    const second = await run(work);
    assert.equal(server.requests.length - before, 3, 'no request reached the judge double on the second run');
    assert.deepEqual(judged(first.results), [
      ['c0', 'pass', 100, false],
      ['c1', 'pass', 100, false],
      ['c2', 'pass', 100, false],
    ]);
    assert.deepEqual(judged(second.results), [
      ['c0', 'pass', 100, true],
      ['c1', 'pass', 100, true],
      ['c2', 'pass', 100, true],
    ]);
    assert.ok(
      second.results.filter((r) => r.scorer === 'contains').every((r) => r.cached === undefined),
      'a deterministic scorer is never cached',
    );
    assert.match(second.stderr, /3 results from the cache/);

    const noCache = await run(work, '--no-cache');
    assert.equal(server.requests.length - before, 6, '--no-cache calls the judge again');
    assert.ok(noCache.results.every((r) => r.cached === undefined));
  });

  it('never caches an error: a judge that answered 500 is asked again next run', async () => {
    const work = workspace('errors', 1, 'max_attempts: 1\n');
    const before = server.requests.length;
    server.enqueue({ status: 500, body: '{"error":{"message":"down"}}' });
    const failed = await runCli(['run', 'judged.eval.yaml', '--no-color'], { cwd: work, env });
    assert.equal(failed.code, 1, failed.stderr);
    assert.equal(server.requests.length - before, 1);
    const again = await run(work);
    assert.equal(server.requests.length - before, 2, 'asked again');
    assert.deepEqual(judged(again.results), [['c0', 'pass', 100, false]]);
  });

  it('--cache-dir moves the cache; `cache stats` and `cache clear` see it', async () => {
    const work = workspace('dirs');
    const dir = join(work, 'elsewhere');
    await run(work, '--cache-dir', dir);
    assert.ok(existsSync(join(dir, 'results.lmdb')));
    assert.ok(!existsSync(join(work, '.evallens', 'cache')));
    const stats = await runCli(['cache', 'stats', '--cache-dir', dir, '--json'], { cwd: work });
    assert.equal(stats.code, 0, stats.stderr);
    assert.equal((JSON.parse(stats.stdout) as { entries: number }).entries, 3);
    const text = await runCli(['cache', 'stats', '--cache-dir', dir], { cwd: work });
    assert.match(text.stdout, /^cache: elsewhere: 3 entries, [\d.]+ MB on disk\n$/);
    const cleared = await runCli(['cache', 'clear', '--cache-dir', dir], { cwd: work });
    assert.equal(cleared.stdout, 'cache: elsewhere: removed 3 entries\n');
    const empty = await runCli(['cache', 'stats', '--cache-dir', dir, '--json'], { cwd: work });
    assert.equal((JSON.parse(empty.stdout) as { entries: number }).entries, 0);
    const before = server.requests.length;
    await run(work, '--cache-dir', dir);
    assert.equal(server.requests.length - before, 3, 'after clear the judge is asked again');
    const bad = await runCli(['cache', 'wipe'], { cwd: work });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /`evallens cache` takes `stats` or `clear`, not "wipe"/);
  });

  it('ignores a corrupt entry, scores the case again and overwrites the entry', async () => {
    const work = workspace('corrupt', 2);
    await run(work);
    const db = open<string, string>({ path: join(work, '.evallens', 'cache', 'results.lmdb'), encoding: 'string' });
    const keys = [...db.getKeys()].map(String);
    assert.equal(keys.length, 2);
    const [spoiled] = keys;
    assert.ok(spoiled !== undefined);
    const good = db.get(spoiled) ?? '';
    // A flipped verdict with the old checksum: must not be believed.
    await db.put(spoiled, good.replace('"status":"pass"', '"status":"fail"'));
    await db.close();
    const before = server.requests.length;
    const again = await run(work);
    assert.equal(server.requests.length - before, 1, 'the corrupt entry is scored again; the good one is not');
    assert.deepEqual(
      judged(again.results).map((r) => r[1]),
      ['pass', 'pass'],
      'never the corrupt verdict',
    );
    assert.match(again.stderr, /1 corrupt cache entry was ignored and scored again/);
    const third = await run(work);
    assert.equal(server.requests.length - before, 1, 'overwritten: the third run is all from the cache');
    assert.deepEqual(
      judged(third.results).map((r) => r[3]),
      [true, true],
    );
  });

  it('is shared by two runs at once: both finish, every entry is written, and a third run is all from the cache', async () => {
    const work = workspace('concurrent', 20);
    const before = server.requests.length;
    const runs = [1, 2].map((i) =>
      startCli(['run', 'judged.eval.yaml', '--reporter', 'json', '--out', `r${i}.json`], { cwd: work, env }),
    );
    const done = await Promise.all(runs.map((child) => finished(child, 120_000)));
    for (const d of done) assert.equal(d.code, 0, d.stderr);
    const calls = server.requests.length - before;
    assert.ok(calls >= 20 && calls <= 40, `each case judged once or twice, not more (${calls})`);
    const stats = await runCli(['cache', 'stats', '--json'], { cwd: work });
    assert.equal((JSON.parse(stats.stdout) as { entries: number }).entries, 20);
    const third = await run(work);
    assert.equal(server.requests.length - before, calls);
    assert.ok(judged(third.results).every((r) => r[1] === 'pass' && r[3] === true));
  });

  it("keeps a target's answers per case and trial, and calls it again when the script it runs changes", async () => {
    const work = join(root, 'target');
    mkdirSync(work);
    const agent = (answer: string) =>
      writeFileSync(join(work, 'agent.sh'), `cat > /dev/null\necho call >> calls.txt\necho ${answer}\n`);
    agent('x');
    const cases = [
      { id: 't0', input: 'q0' },
      { id: 't1', input: 'q1' },
    ];
    writeFileSync(
      join(work, 'target.eval.yaml'),
      `num_trials: 2\ntarget:\n  cmd: sh agent.sh\nscorers:\n  contains: {value: x}\ncases: ${JSON.stringify(cases)}\n`,
    );
    const calls = () => readFileSync(join(work, 'calls.txt'), 'utf8').split('\n').length - 1;
    const first = await runCli(['run', 'target.eval.yaml', '--no-color'], { cwd: work, env });
    assert.equal(first.code, 0, first.stderr);
    assert.equal(calls(), 4, 'two cases, two trials');
    const second = await runCli(['run', 'target.eval.yaml', '--no-color'], { cwd: work, env });
    assert.equal(second.code, 0, second.stderr);
    assert.equal(calls(), 4, 'every answer from the cache');
    assert.match(second.stderr, /4 target outputs from the cache/);
    agent('y');
    const changed = await runCli(['run', 'target.eval.yaml', '--no-color'], { cwd: work, env });
    assert.equal(changed.code, 1, 'the new script answers y: contains x fails');
    assert.equal(calls(), 8, 'a changed script is a new key');
  });

  it('is not opened by a run with nothing to keep (no target, no judge, subprocess or Python scorer)', async () => {
    const work = join(root, 'deterministic');
    mkdirSync(work);
    writeFileSync(join(work, 'plain.eval.yaml'), 'scorers:\n  contains: {value: x}\ncases: [{id: a, output: x}]\n');
    const plain = await runCli(['run', 'plain.eval.yaml', '--no-color'], { cwd: work, env });
    assert.equal(plain.code, 0, plain.stderr);
    assert.ok(existsSync(join(work, '.evallens', 'runs')), 'the run wrote its folder');
    assert.ok(!existsSync(join(work, '.evallens', 'cache')), 'no cache folder for a run that keeps nothing');
  });

  it('--untrusted neither reads nor writes the cache', async () => {
    const work = workspace('untrusted', 2);
    const fresh = await runCli(['run', 'judged.eval.yaml', '--untrusted', '--no-color'], { cwd: work, env });
    assert.notEqual(fresh.code, 2, fresh.stderr);
    assert.ok(!existsSync(join(work, '.evallens', 'cache')), 'an untrusted run makes no cache');
    await run(work);
    const out = join(work, 'untrusted.json');
    const untrusted = await runCli(['run', 'judged.eval.yaml', '--untrusted', '--reporter', 'json', '--out', out], {
      cwd: work,
      env,
    });
    assert.notEqual(untrusted.code, 2, untrusted.stderr);
    const report = JSON.parse(readFileSync(out, 'utf8')) as { results: ScorerResult[] };
    assert.deepEqual(judged(report.results), [
      ['c0', 'skipped', undefined, false],
      ['c1', 'skipped', undefined, false],
    ]);
    assert.doesNotMatch(untrusted.stderr, /from the cache/);
  });
});
