#!/usr/bin/env node
// The result cache (docs/cache.md), measured two ways:
//
//   npm run build && node bench/cache.mjs [--cases 10000] [--rounds 5] [--store-entries 1000000] [--skip-store]
//
// 1. Runs. A dataset of --cases cases, and two configs over it:
//      deterministic  exact_match + contains (nothing to cache);
//      judged         the same + goal_completion, whose model config points at a LOOPBACK JUDGE DOUBLE
//                     (test/support/fakeOpenAiServer.ts, a local HTTP server speaking the OpenAI
//                     protocol that counts every request; hosted judges cannot run here).
//    The judged run is made once to fill the cache (not timed), then per round, alternating: the
//    deterministic run, and the judged run again, every verdict of its judge from the cache. Each is
//    `node dist/cli.js run <config> --reporter jsonl --runs-dir … --no-color` as a whole process
//    (bench/lib/measure.mjs: wall time and peak RSS). The double's request count during the cached
//    runs must be 0, and the cached run must take under 2× the deterministic one (issue 17).
// 2. The store. cli/cacheStore.ts (LMDB) filled with --store-entries verdicts, then 10,000 lookups
//    of random present keys (each verified against its checksum), timed at 10,000 entries and at
//    the full size: a lookup must not slow down with the size.
// Prints the machine's load beside the figures (the machine is shared).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { register } from 'tsx/cjs/api';
import { measure } from './lib/measure.mjs';
import { median, round } from './lib/stats.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '5' },
    'store-entries': { type: 'string', default: '1000000' },
    'skip-store': { type: 'boolean', default: false },
    'skip-runs': { type: 'boolean', default: false },
  },
});
const cases = Number(values.cases);
const rounds = Number(values.rounds);
const storeEntries = Number(values['store-entries']);

register();
const require = createRequire(import.meta.url);
const { startFakeLlmServer } = require(join(ROOT, 'test/support/fakeOpenAiServer.ts'));
const { openCacheStore } = require(join(ROOT, 'cli/cacheStore.ts'));

const scratch = mkdtempSync(join(tmpdir(), 'evallens-bench-cache-'));
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
console.log(`bench/cache.mjs — ${new Date().toISOString()}, load average ${load()}`);

try {
  if (!values['skip-runs']) await benchRuns();
  if (!values['skip-store']) await benchStore();
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

async function benchRuns() {
  const judgeDouble = await startFakeLlmServer(() => ({ text: '{"verdict": "PASS", "reason": "ok"}' }));
  try {
    writeFileSync(
      join(scratch, 'judge.yaml'),
      `provider: openai\nbase_url: ${judgeDouble.openAiBaseUrl}\nmodel: bench-judge\napi_key_env: EVALLENS_BENCH_JUDGE_KEY\n`,
    );
    const lines = Array.from({ length: cases }, (_, i) =>
      JSON.stringify({
        id: `case-${i}`,
        input: `question ${i}`,
        output: `answer ${i % 97}`,
        expected: `answer ${i % 89}`,
      }),
    );
    writeFileSync(join(scratch, 'cases.jsonl'), `${lines.join('\n')}\n`);
    const deterministic = ['  exact_match: {}', '  contains: {value: answer}'];
    writeFileSync(
      join(scratch, 'deterministic.eval.yaml'),
      `dataset: cases.jsonl\nscorers:\n${deterministic.join('\n')}\n`,
    );
    writeFileSync(
      join(scratch, 'judged.eval.yaml'),
      `dataset: cases.jsonl\nscorers:\n${[...deterministic, '  goal_completion: {model_config: judge.yaml}'].join('\n')}\n`,
    );
    const env = { ...process.env, EVALLENS_BENCH_JUDGE_KEY: 'sk-bench-judge-double' };
    const run = (config) =>
      measure(['node', CLI, 'run', config, '--reporter', 'jsonl', '--runs-dir', join(scratch, 'runs'), '--no-color'], {
        cwd: scratch,
        env,
        scratch,
        okCodes: [0, 1],
      });

    const fill = await run('judged.eval.yaml');
    console.log(
      `filling the cache: ${judgeDouble.requests.length} requests at the judge double, ${round(fill.wallMs / 1000, 1)} s (not part of the comparison)`,
    );
    const before = judgeDouble.requests.length;
    const det = [];
    const cached = [];
    for (let r = 0; r < rounds; r++) {
      for (const [config, into] of r % 2 === 0
        ? [
            ['deterministic.eval.yaml', det],
            ['judged.eval.yaml', cached],
          ]
        : [
            ['judged.eval.yaml', cached],
            ['deterministic.eval.yaml', det],
          ]) {
        const m = await run(config);
        into.push(m);
        if (config === 'judged.eval.yaml' && !/from the cache/.test(m.stderr))
          throw new Error(`the cached run did not say it used the cache:\n${m.stderr.slice(-2000)}`);
      }
    }
    const calls = judgeDouble.requests.length - before;
    const detMs = median(det.map((m) => m.wallMs));
    const cachedMs = median(cached.map((m) => m.wallMs));
    console.log(`\n${cases} cases, ${rounds} rounds (medians), load average ${load()}`);
    console.log(
      `  deterministic scorers only       ${round(detMs)} ms, peak RSS ${round(median(det.map((m) => m.peakRssMb)))} MB`,
    );
    console.log(
      `  + judge, every verdict cached    ${round(cachedMs)} ms, peak RSS ${round(median(cached.map((m) => m.peakRssMb)))} MB`,
    );
    console.log(`  ratio cached / deterministic     ${round(cachedMs / detMs, 2)}× (target: under 2×)`);
    console.log(`  requests at the judge double during the cached runs: ${calls} (target: 0)`);
    if (calls !== 0) process.exitCode = 1;
  } finally {
    await judgeDouble.close();
  }
}

async function benchStore() {
  const dir = join(scratch, 'store');
  const store = openCacheStore(dir, (m) => console.error(m));
  const key = (i) => createHash('sha256').update(`entry ${i}`).digest('hex');
  const verdict = (i) => ({
    status: i % 3 === 0 ? 'fail' : 'pass',
    score: i % 3 === 0 ? 0 : 100,
    reason: `the judge found ${i % 5} of 5 sub-goals met; summary: the agent answered question ${i}`,
  });
  const lookups = async (present) => {
    const picks = Array.from({ length: 10_000 }, () => key(Math.floor(Math.random() * present)));
    const times = [];
    for (let r = 0; r < 5; r++) {
      const started = performance.now();
      let hits = 0;
      for (const k of picks) if (store.get(k) !== undefined) hits++;
      times.push(performance.now() - started);
      if (hits !== picks.length) throw new Error(`only ${hits} of ${picks.length} lookups hit`);
    }
    return median(times);
  };
  let filled = 0;
  const fillTo = async (n) => {
    const started = performance.now();
    for (; filled < n; filled++) {
      store.set(key(filled), verdict(filled));
      // Let the store's batched commits go out now and then, so memory stays bounded.
      if (filled % 50_000 === 49_999) await store.flush();
    }
    await store.flush();
    return performance.now() - started;
  };
  const small = Math.min(10_000, storeEntries);
  await fillTo(small);
  const atSmall = await lookups(small);
  const fillMs = await fillTo(storeEntries);
  const atFull = await lookups(storeEntries);
  const rss = process.memoryUsage().rss / 2 ** 20;
  const { cacheBytes } = require(join(ROOT, 'cli/cacheStore.ts'));
  console.log(`\nstore (cli/cacheStore.ts, LMDB), load average ${load()}`);
  console.log(
    `  filled to ${storeEntries} entries in ${round(fillMs / 1000, 1)} s; ${round(cacheBytes(dir) / 2 ** 20)} MB on disk`,
  );
  console.log(
    `  10,000 verified lookups at ${small} entries: ${round(atSmall)} ms (${round((atSmall * 1000) / 10_000, 1)} µs each)`,
  );
  console.log(
    `  10,000 verified lookups at ${storeEntries} entries: ${round(atFull)} ms (${round((atFull * 1000) / 10_000, 1)} µs each); bench process RSS ${round(rss)} MB`,
  );
  await store.close();
}
