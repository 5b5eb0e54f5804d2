#!/usr/bin/env node
// Subprocess scorers: one Python process per case versus a pool of persistent Python processes.
//
//   npm run build && node bench/subprocess.mjs [options]
//
// Options:
//   --cases N        cases scored by each run (default 2000)
//   --rounds K       measured rounds (default 3); each round runs both modes, in alternating order
//   --warmup W       unmeasured rounds before them (default 1)
//   --processes P    the persistent pool's size (default: not passed, the scorer's default)
//   --concurrency C  pass --concurrency C to EvalLens (default: not passed, the CLI's default)
//   --spawns S       bare `python3 -c pass` spawns timed for the floor (default 300)
//   --out DIR        where data, reports and results go (default bench/out/subprocess)
//   --cli PATH       the EvalLens CLI to run (default dist/cli.js)
//
// Both modes run the same keyword scorer (examples/subprocess/scorers/keywords.py; the persistent
// one wraps the same function in a JSON-lines loop) on the same generated cases. Each run is a whole
// `node dist/cli.js run` process, timed with process.hrtime around the spawn; each is checked: every
// case has a result and both modes give the same verdicts, counted from the CLI's JSON report. The
// floor is the median time to spawn and reap `python3 -c pass`, one at a time, from this process.
// Writes DIR/results.md (also printed) and DIR/results.json.

import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { makeRng } from './lib/random.mjs';
import { readReport } from './lib/report.mjs';
import { capture, median, round, stat } from './lib/stats.mjs';
import { failure, wholeNumber } from './lib/args.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
const SCORERS = join(ROOT, 'examples', 'subprocess', 'scorers');
const TARGET_RATIO = 20;

const { values: args } = parseArgs({
  options: {
    cases: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '1' },
    processes: { type: 'string' },
    concurrency: { type: 'string' },
    spawns: { type: 'string', default: '300' },
    out: { type: 'string', default: join(HERE, 'out', 'subprocess') },
    cli: { type: 'string', default: join(ROOT, 'dist', 'cli.js') },
  },
});
const int = wholeNumber(failure('subprocess.mjs'));
const CASES = int(args.cases, 'cases', 1);
const ROUNDS = int(args.rounds, 'rounds', 1);
const WARMUP = int(args.warmup, 'warmup', 0);
const SPAWNS = int(args.spawns, 'spawns', 1);
const OUT = resolve(args.out);
const CLI = resolve(args.cli);

// --- Data: answers with a share of the expected keywords, seeded ------------------------------------

const WORDS = [
  'refund',
  'delivery',
  'payment',
  'original',
  'method',
  'within',
  'thirty',
  'days',
  'shipping',
  'damaged',
  'exchange',
  'size',
  'store',
  'credit',
  'receipt',
  'parcel',
  'return',
  'label',
  'courier',
  'warranty',
];

function generate(file, n) {
  const rng = makeRng(20261129);
  const lines = [];
  for (let i = 0; i < n; i++) {
    const expected = Array.from({ length: rng.int(4, 8) }, () => rng.pick(WORDS));
    const kept = expected.filter(() => rng.int(0, 9) < 7);
    const filler = Array.from({ length: rng.int(3, 10) }, () =>
      rng.pick(['we', 'can', 'the', 'your', 'for', 'a', 'it', 'is']),
    );
    lines.push(
      JSON.stringify({
        id: `c${i}`,
        input: `question ${i}`,
        output: [...kept, ...filler].join(' '),
        expected: expected.join(' '),
      }),
    );
  }
  writeFileSync(file, lines.join('\n') + '\n');
}

function configs() {
  const dataset = join(OUT, 'cases.jsonl');
  const pool = args.processes === undefined ? '' : `\n    processes: ${Number(args.processes)}`;
  const perCase = `dataset: ${dataset}\nscorers:\n  subprocess:\n    cmd: python3 ${join(SCORERS, 'keywords.py')}\n`;
  const persistent = `dataset: ${dataset}\nscorers:\n  subprocess:\n    cmd: python3 ${join(SCORERS, 'keywords_server.py')}\n    mode: persistent${pool}\n`;
  writeFileSync(join(OUT, 'per-case.eval.yaml'), perCase);
  writeFileSync(join(OUT, 'persistent.eval.yaml'), persistent);
}

// --- Running ----------------------------------------------------------------------------------------

/** Runs argv; resolves with wall ms (hrtime around the spawn), exit code and stderr. */
function timed(argv, options = {}) {
  return new Promise((resolvePromise, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'ignore', 'pipe'], ...options });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) =>
      resolvePromise({ wallMs: Number(process.hrtime.bigint() - started) / 1e6, code, stderr }),
    );
  });
}

async function runMode(mode, round) {
  const report = join(OUT, `${mode}-${round}.json`);
  const argv = [
    process.execPath,
    CLI,
    'run',
    join(OUT, `${mode}.eval.yaml`),
    '--reporter',
    'json',
    '--out',
    report,
    '--runs-dir',
    join(OUT, 'runs'),
  ];
  if (args.concurrency !== undefined) argv.push('--concurrency', String(Number(args.concurrency)));
  const { wallMs, code, stderr } = await timed(argv, { cwd: ROOT });
  // Exit 1 is a run with failing cases (some answers miss keywords on purpose); anything else is a fault.
  if (code !== 0 && code !== 1) throw new Error(`${mode}: the CLI exited with ${code}: ${stderr.slice(0, 2000)}`);
  const verdicts = new Map();
  let errors = 0;
  const { durationMs, summary } = await readReport(report, {
    onResult: (r) => {
      verdicts.set(r.caseId, r.status);
      if (r.status !== 'pass' && r.status !== 'fail') errors++;
      else if (/^scorer error/.test(r.reason)) errors++;
    },
  });
  rmSync(report, { force: true });
  const passed = [...verdicts.values()].filter((s) => s === 'pass').length;
  const problems = [];
  if (verdicts.size !== CASES) problems.push(`${verdicts.size} results for ${CASES} cases`);
  if (errors > 0) problems.push(`${errors} results were errors or scorer errors`);
  return { mode, round, wallMs, runMs: durationMs, rate: CASES / (wallMs / 1000), passed, summary, verdicts, problems };
}

async function spawnFloor(python) {
  const times = [];
  for (let i = 0; i < SPAWNS; i++) {
    const { wallMs, code } = await timed([python, '-c', 'pass'], { stdio: ['ignore', 'ignore', 'pipe'] });
    if (code !== 0) throw new Error('python3 -c pass failed');
    times.push(wallMs);
  }
  return { median: median(times), min: Math.min(...times), max: Math.max(...times), n: times.length };
}

// --- Main -------------------------------------------------------------------------------------------

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
generate(join(OUT, 'cases.jsonl'), CASES);
configs();

const runs = [];
let reference;
for (let r = 0; r < WARMUP + ROUNDS; r++) {
  const order = r % 2 === 0 ? ['per-case', 'persistent'] : ['persistent', 'per-case'];
  for (const mode of order) {
    const run = await runMode(mode, r);
    // Both modes must give the same verdict for every case.
    if (reference === undefined) reference = run.verdicts;
    else
      for (const [id, status] of run.verdicts)
        if (reference.get(id) !== status)
          run.problems.push(`case ${id}: ${status}, another run said ${reference.get(id)}`);
    process.stderr.write(
      `${r < WARMUP ? 'warm-up' : `round ${r - WARMUP + 1}`} ${mode}: ${round(run.wallMs)} ms, ${round(run.rate)} cases/s${run.problems.length ? ` — ${run.problems.slice(0, 3).join('; ')}` : ''}\n`,
    );
    if (r >= WARMUP) runs.push({ ...run, verdicts: undefined });
  }
}
const floor = await spawnFloor('python3');
// `python3` on PATH may be a launcher (a pyenv shim is a bash script): the interpreter it runs, too.
const interpreter = capture('python3', ['-c', 'import sys; print(sys.executable)']);
const interpreterFloor = await spawnFloor(interpreter);

const of = (mode) => runs.filter((r) => r.mode === mode);
const perCase = { wallMs: stat(of('per-case'), 'wallMs'), rate: stat(of('per-case'), 'rate') };
const persistent = { wallMs: stat(of('persistent'), 'wallMs'), rate: stat(of('persistent'), 'rate') };
const ratio = persistent.rate.median / perCase.rate.median;
const checksOk = runs.every((r) => r.problems.length === 0);
const cores = os.availableParallelism();
const concurrency = args.concurrency === undefined ? cores : Number(args.concurrency);
// Spawning alone, with the CLI's workers spawning in parallel: the best per-case mode could do.
const floorRate = (1000 / floor.median) * concurrency;

const fmt = (s, d = 0) => `${round(s.median, d)} (${round(s.min, d)}–${round(s.max, d)})`;
const lines = [];
lines.push(`#### Subprocess scorers — ${new Date().toISOString().slice(0, 10)}`);
lines.push('');
lines.push(
  `Machine: ${capture('uname', ['-srm'])}, ${cores} cores, ${round(os.totalmem() / 2 ** 30, 1)} GiB; Node ${process.version}; ${capture('python3', ['--version'])}; load average at the end ${os
    .loadavg()
    .map((x) => round(x, 1))
    .join(' / ')}.`,
);
lines.push(
  `${CASES} cases × 1 Python scorer; ${ROUNDS} measured rounds after ${WARMUP} warm-up, modes alternating; medians with (min–max); whole \`node dist/cli.js run\` processes. ` +
    `Concurrency: ${args.concurrency ?? `the CLI's default (${cores})`}; pool: ${args.processes ?? `the scorer's default (min(cores, 4) = ${Math.min(cores, 4)})`}.`,
);
lines.push('');
lines.push('| mode | wall ms | cases/s |');
lines.push('|---|---:|---:|');
lines.push(`| per case (\`python3 keywords.py\` per case) | ${fmt(perCase.wallMs)} | ${fmt(perCase.rate)} |`);
lines.push(
  `| persistent (\`mode: persistent\`, \`keywords_server.py\`) | ${fmt(persistent.wallMs)} | ${fmt(persistent.rate)} |`,
);
lines.push('');
lines.push(
  `- **Ratio (persistent / per case, median rates): ${round(ratio, 1)}×** (target ≥ ${TARGET_RATIO}×: ${ratio >= TARGET_RATIO ? 'met' : 'missed'}).`,
);
lines.push(
  `- Floor: \`python3 -c pass\` spawned and reaped from Node, median of ${floor.n}: **${round(floor.median, 2)} ms** (${round(floor.min, 2)}–${round(floor.max, 2)}); ` +
    `with ${concurrency} at a time that caps one-process-per-case at about ${round(floorRate)} cases/s before any scoring. ` +
    `The interpreter it runs (${interpreter}) spawned directly: ${round(interpreterFloor.median, 2)} ms (${round(interpreterFloor.min, 2)}–${round(interpreterFloor.max, 2)}).`,
);
lines.push(
  `- Checks: ${
    checksOk
      ? `every run had ${CASES} results, no scorer errors, and the same verdict per case in both modes (${runs[0]?.passed} pass)`
      : `FAILED: ${runs
          .flatMap((r) => r.problems)
          .slice(0, 5)
          .join('; ')}`
  }.`,
);
const markdown = lines.join('\n') + '\n';
writeFileSync(join(OUT, 'results.md'), markdown);
writeFileSync(
  join(OUT, 'results.json'),
  JSON.stringify(
    {
      cases: CASES,
      rounds: ROUNDS,
      warmup: WARMUP,
      perCase,
      persistent,
      ratio,
      floor,
      interpreter,
      interpreterFloor,
      floorRate,
      checksOk,
      runs,
    },
    null,
    2,
  ),
);
process.stdout.write(markdown);
process.exit(checksOk ? 0 : 1);
