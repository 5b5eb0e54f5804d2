#!/usr/bin/env node
// CLI start-up to the microsecond (issue 18 item 2): the CPU time (user + system) each process reports at
// its exit (`process.cpuUsage()`, from a preload), for `node -e 0` and one command of each build, the builds
// taking turns round by round; medians and minimums. GNU time (bench/startup.mjs) counts in 10 ms steps,
// too coarse to tell two builds 10-20 ms apart; this misses only what Node does after the exit event.
//
//   npm run build && node bench/startupCpu.mjs [--rounds 20] [--old PATH/TO/cli.js]... [--] [ARGS]
//
// ARGS default to `validate examples/quickstart/refunds.eval.yaml`; the verdict cache is one kept for the
// run (warm). Every process must exit 0.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { failure, wholeNumber } from './lib/args.mjs';
import { median, round } from './lib/stats.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const fail = failure('startupCpu.mjs');
const { values, positionals } = parseArgs({
  options: {
    rounds: { type: 'string', default: '20' },
    cli: { type: 'string', default: join(ROOT, 'dist', 'cli.js') },
    old: { type: 'string', multiple: true, default: [] },
  },
  allowPositionals: true,
});
const rounds = wholeNumber(fail)(values.rounds, 'rounds', 1);
const args = positionals.length > 0 ? positionals : ['validate', 'examples/quickstart/refunds.eval.yaml'];
const scratch = mkdtempSync(join(tmpdir(), 'evallens-startup-cpu-'));
const preload = join(scratch, 'cpuAtExit.cjs');
const out = join(scratch, 'cpu.txt');
writeFileSync(
  preload,
  "process.on('exit', () => { const u = process.cpuUsage(); require('node:fs').writeFileSync(process.env.EVALLENS_BENCH_CPU_FILE, String((u.user + u.system) / 1000)); });\n",
);

const runs = [
  ['`node -e 0`', ['-e', '0']],
  [`this build: ${args.join(' ')}`, [resolve(values.cli), ...args]],
  ...values.old.map((cli, i) => [`old build ${i + 1}: ${args.join(' ')}`, [resolve(cli), ...args]]),
];
const times = runs.map(() => []);
const before = loadavg();
for (let r = 0; r < rounds; r++) {
  const order = runs.map((_, i) => i);
  if (r % 2 === 1) order.splice(1, order.length - 1, ...order.slice(1).reverse());
  for (const i of order) {
    const run = spawnSync(process.execPath, ['--require', preload, ...runs[i][1]], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, EVALLENS_CACHE_HOME: join(scratch, 'cache'), EVALLENS_BENCH_CPU_FILE: out },
    });
    if (run.status !== 0) fail(`${runs[i][0]} exited ${run.status}: ${run.stderr}`);
    times[i].push(Number(readFileSync(out, 'utf8')));
  }
}
const after = loadavg();
rmSync(scratch, { recursive: true, force: true });
const load = (l) => l.map((x) => x.toFixed(2)).join(' / ');
console.log(
  `${cpus().length} cores, Node ${process.version}, load average before ${load(before)}, after ${load(after)}.`,
);
console.log(`${rounds} rounds; CPU ms (user + system) at the process's exit: median (min).\n`);
console.log('| | CPU ms |\n|---|---:|');
for (const [i, [name]] of runs.entries())
  console.log(`| ${name} | ${round(median(times[i]), 1)} (${round(Math.min(...times[i]), 1)}) |`);
