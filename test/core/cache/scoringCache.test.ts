/**
 * The result cache through the runner (core/cache/scoringCache.ts, the seam in scoreCase): a second
 * run of the same config gives the kept verdicts with `cached: true` and calls no scorer; trials are
 * independent; errors, timeouts and a subprocess's `scorer error:` fails are never kept; a store
 * that cannot write (a full disk) costs no result; a run without trust never reads the cache.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parseRunConfig } from '../../../core/config/parseRunConfig';
import type { RunConfig } from '../../../core/config/runConfig';
import type { ScorerResult, ScorerVerdict } from '../../../core/result';
import type { ResultStore } from '../../../core/cache/scoringCache';
import { caseRecords } from '../../../core/runner/records';
import { runEval } from '../../../core/runner/run';
import { CacheStore } from '../../../cli/cacheStore';

const dir = mkdtempSync(join(tmpdir(), 'evallens-scoring-cache-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A store in memory that counts what it is asked. */
class MemoryStore implements ResultStore {
  readonly entries = new Map<string, ScorerVerdict>();
  gets = 0;
  get(key: string): ScorerVerdict | undefined {
    this.gets++;
    return this.entries.get(key);
  }
  set(key: string, verdict: ScorerVerdict): void {
    this.entries.set(key, verdict);
  }
}

/** A config whose subprocess scorer appends a line to `calls` each time it runs, then answers `answer`. */
function config(name: string, answer: string, extra = ''): { config: RunConfig; calls: () => number } {
  const calls = join(dir, `${name}.calls`);
  const text = [
    'cases:',
    '  - {id: a, output: "yes", expected: "yes"}',
    '  - {id: b, output: "no", expected: "yes"}',
    'scorers:',
    '  exact_match: {}',
    '  subprocess:',
    `    cmd: "echo run >> ${calls}; ${answer}"`,
    extra,
  ].join('\n');
  const parsed = parseRunConfig(text, join(dir, `${name}.eval.yaml`), {});
  assert.ok(parsed.config, JSON.stringify(parsed.problems));
  const count = () => (existsSync(calls) ? readFileSync(calls, 'utf8').split('\n').length - 1 : 0);
  return { config: parsed.config, calls: count };
}

async function run(
  config: RunConfig,
  store: ResultStore,
  options: { trials?: number; trusted?: boolean } = {},
): Promise<ScorerResult[]> {
  const results: ScorerResult[] = [];
  await runEval(config, caseRecords(config), {
    runId: 'cache',
    concurrency: 1,
    cache: { store, version: 'test' },
    ...options,
    onEvent: (e) => {
      if (e.type === 'result') results.push(e.result);
    },
  });
  return results;
}

const view = (results: readonly ScorerResult[]) =>
  results.map((r) => [r.caseId, r.scorer, r.trial, r.status, r.score, r.cached ?? false]);

describe('the result cache in a run', () => {
  it('gives the kept verdicts on the second run (cached: true) without running the scorer; deterministic scorers are never cached', async () => {
    const { config: c, calls } = config('again', `echo '{\\"score\\": 0.9}'`);
    const store = new MemoryStore();
    const first = await run(c, store);
    assert.equal(calls(), 2);
    assert.equal(store.entries.size, 2, 'one entry per case for the subprocess scorer, none for exact_match');
    const second = await run(c, store);
    assert.equal(calls(), 2, 'no new call');
    assert.deepEqual(
      view(second),
      view(first).map((r) => [...r.slice(0, 5), r[1] === 'subprocess']),
    );
  });

  it('keys each trial on its own: two trials are two calls and two entries, then none', async () => {
    const { config: c, calls } = config('trials', `echo '{\\"score\\": 1}'`);
    const store = new MemoryStore();
    await run(c, store, { trials: 2 });
    assert.equal(calls(), 4);
    assert.equal(store.entries.size, 4);
    const again = await run(c, store, { trials: 2 });
    assert.equal(calls(), 4);
    assert.deepEqual(
      again.filter((r) => r.scorer === 'subprocess').map((r) => [r.caseId, r.trial, r.cached]),
      [
        ['a', 1, true],
        ['a', 2, true],
        ['b', 1, true],
        ['b', 2, true],
      ],
    );
  });

  it("never keeps a subprocess's `scorer error:` fail, nor a timeout", async () => {
    const broken = config('broken', 'exit 3');
    const store = new MemoryStore();
    const results = await run(broken.config, store);
    assert.match(results.find((r) => r.scorer === 'subprocess')?.reason ?? '', /^scorer error: /);
    await run(broken.config, store);
    assert.equal(broken.calls(), 4, 'called again on the second run');
    assert.equal(store.entries.size, 0);

    const slow = config('slow', `sleep 2; echo '{\\"score\\": 1}'`, '    timeout_ms: 100\n    cmd_timeout_ms: 5000');
    const timedOut = await run(slow.config, store);
    assert.deepEqual(
      timedOut.filter((r) => r.scorer === 'subprocess').map((r) => r.status),
      ['timeout', 'timeout'],
    );
    assert.equal(store.entries.size, 0);
  });

  it('goes on with every result when the cache cannot be written (a full disk), warning once', async () => {
    const { config: c, calls } = config('full', `echo '{\\"score\\": 1}'`);
    const warnings: string[] = [];
    const full = Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    const fullDisk = {
      get: () => undefined,
      put: () => Promise.reject(full),
      close: () => Promise.resolve(),
      getCount: () => 0,
      clearSync: () => undefined,
    };
    const store = new CacheStore(join(dir, 'full-cache'), fullDisk, (m) => warnings.push(m));
    const results = await run(c, store);
    await store.close();
    assert.deepEqual(
      results.map((r) => [r.caseId, r.scorer, r.status]),
      [
        ['a', 'exact_match', 'pass'],
        ['a', 'subprocess', 'pass'],
        ['b', 'exact_match', 'fail'],
        ['b', 'subprocess', 'pass'],
      ],
    );
    assert.equal(calls(), 2);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? '', /could not be written \(ENOSPC: the disk is full\); the run goes on/);
    assert.equal(store.counts.failedWrites, 2);
  });

  it('is never read by a run without trust (the kept verdicts are workspace data)', async () => {
    const { config: c } = config('untrusted', `echo '{\\"score\\": 1}'`);
    const store = new MemoryStore();
    await run(c, store);
    store.gets = 0;
    const results = await run(c, store, { trusted: false });
    assert.equal(store.gets, 0);
    assert.deepEqual(
      results.filter((r) => r.scorer === 'subprocess').map((r) => [r.status, r.cached ?? false]),
      [
        ['skipped', false],
        ['skipped', false],
      ],
    );
  });
});
