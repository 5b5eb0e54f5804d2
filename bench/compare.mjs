#!/usr/bin/env node
// `evallens compare` on two large runs (issue 16: "comparing two 100,000-case runs (5 scorers) takes
// under 2 s whole process with memory that does not grow with the runs"). Writes two report.json
// files in the CLI's own layout (one case or result per line, results with reasons and details as
// real runs have them; the candidate regresses one scorer on 2% of the cases), then times
// `evallens compare base.json cand.json --reporter json --out …` as a whole process, at --cases and
// at twice that, so memory that grows with the runs shows.
//
//   npm run build && node bench/compare.mjs [--cases N] [--rounds K] [--cli PATH] [--out DIR]
//
// Wall time is process.hrtime around the spawn, peak RSS and CPU from GNU time (bench/lib/measure.mjs).

import { createWriteStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { failure, wholeNumber } from './lib/args.mjs';
import { GNU_TIME, measure } from './lib/measure.mjs';
import { makeRng } from './lib/random.mjs';
import { round, stat } from './lib/stats.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
const { values: args } = parseArgs({
  options: {
    cases: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '3' },
    cli: { type: 'string' },
    out: { type: 'string' },
  },
});
const die = failure('compare.mjs');
const CASES = wholeNumber(die)(args.cases, 'cases', 10);
const ROUNDS = wholeNumber(die)(args.rounds, 'rounds', 1);
const CLI = resolve(args.cli ?? join(ROOT, 'dist', 'cli.js'));
const OUT = resolve(args.out ?? join(HERE, 'out', 'compare'));
const SCORERS = ['exact_match', 'contains', 'edit_similarity', 'secret_scan', 'latency_ms'];

if (!existsSync(GNU_TIME)) die(`${GNU_TIME} (GNU time) is missing; install it with: apt-get install -y time`);
if (!existsSync(CLI)) die(`${CLI} is missing; build it first: npm run build`);

function scorerJson(name) {
  const latency = name === 'latency_ms';
  return JSON.stringify({
    name,
    key: name,
    origin: 'EvalBook',
    scale: latency ? { kind: 'count', unit: 'ms' } : { kind: 'bounded', max: 1 },
    weight: 1,
    lowerIsBetter: latency,
    counts: { pass: 0, fail: 0, error: 0, inconclusive: 0, unsupported: 0, timeout: 0, skipped: 0, measured: 0 },
  });
}

/** One report.json of `cases` cases × 5 scorers, as the CLI lays it out; `regress` fails contains on 2% of cases. */
async function writeReport(file, cases, seed, regress) {
  const rng = makeRng(seed);
  const out = createWriteStream(file);
  const write = async (text) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  const head = {
    version: 1,
    tool: { name: 'evallens', version: '0.1.0' },
    runId: `bench-${seed}`,
    configFile: '/bench/support.eval.yaml',
    startedAt: '2026-12-01T00:00:00.000Z',
    finishedAt: '2026-12-01T00:10:00.000Z',
    durationMs: 600000,
    cancelled: false,
    numTrials: 1,
    summary: { passed: 0, failed: 0, errored: 0, skipped: 0, total: cases },
    job: {},
    verdict: 'failed',
  };
  let text = '{\n';
  for (const [key, value] of Object.entries(head)) text += `${JSON.stringify(key)}:${JSON.stringify(value)},\n`;
  text += `"scorers":[\n${SCORERS.map(scorerJson).join(',\n')}\n],\n"cases":[`;
  await write(text);
  const failing = (i) => (i * 7919) % 10 === 0; // 10% fail in both runs
  const regressed = (i) => regress && (i * 104729) % 50 === 1; // 2% more fail in the candidate
  for (let i = 0; i < cases; i++) {
    const passed = !failing(i) && !regressed(i);
    const c = {
      id: `case-${i}`,
      index: i,
      status: passed ? 'passed' : 'failed',
      durationMs: rng.int(1, 900),
      location: { file: '/bench/cases.jsonl', line: i + 1, column: 1 },
    };
    await write(`${i === 0 ? '\n' : ',\n'}${JSON.stringify(c)}`);
  }
  await write('\n],\n"results":[');
  let first = true;
  for (let i = 0; i < cases; i++) {
    let lines = '';
    for (const scorer of SCORERS) {
      const latency = scorer === 'latency_ms';
      const pass = latency ? undefined : scorer === 'contains' ? !failing(i) && !regressed(i) : true;
      const score = latency ? rng.int(200, 4000) : scorer === 'edit_similarity' ? rng.int(60, 100) / 100 : pass ? 1 : 0;
      const r = {
        caseId: `case-${i}`,
        scorer,
        trial: 1,
        status: latency ? 'measured' : pass ? 'pass' : 'fail',
        score,
        ...(pass === undefined ? {} : { passed: pass }),
        reason: `the output (a string of ${rng.int(40, 400)} characters) ${pass === false ? 'does not contain' : 'contains'} the value`,
        details: { values_from: 'options', present: pass ? [{ value: 1, text: '30 days', at: rng.int(0, 300) }] : [] },
        durationMs: rng.int(0, 50) / 10,
      };
      lines += `${first ? '\n' : ',\n'}${JSON.stringify(r)}`;
      first = false;
    }
    await write(lines);
  }
  await write('\n]\n}\n');
  out.end();
  await once(out, 'finish');
}

async function measureSize(cases) {
  const base = join(OUT, `base-${cases}.json`);
  const cand = join(OUT, `cand-${cases}.json`);
  if (!existsSync(base)) await writeReport(base, cases, 1, false);
  if (!existsSync(cand)) await writeReport(cand, cases, 2, true);
  const runs = [];
  for (let i = 0; i < ROUNDS; i++) {
    const result = join(OUT, `compare-${cases}.json`);
    const run = await measure([process.execPath, CLI, 'compare', base, cand, '--reporter', 'json', '--out', result], {
      cwd: OUT,
      scratch: OUT,
      okCodes: [0, 1],
    });
    const verdicts = JSON.parse(readFileSync(result, 'utf8')).scorers.map((s) => `${s.name}:${s.verdict}`);
    runs.push({ ...run, verdicts });
  }
  return runs;
}

mkdirSync(OUT, { recursive: true });
for (const cases of [CASES, 2 * CASES]) {
  const runs = await measureSize(cases);
  const wall = stat(runs, 'wallMs');
  const rss = stat(runs, 'peakRssMb');
  const cpu = stat(runs, 'cpuS');
  console.log(
    `${cases} cases × ${SCORERS.length} scorers, two runs: wall ${round(wall.median)} ms (min ${round(wall.min)}, max ${round(wall.max)}), ` +
      `peak RSS ${round(rss.median)} MB (max ${round(rss.max)}), CPU ${round(cpu.median, 2)} s, ${ROUNDS} rounds, exit ${runs[0].exitCode}`,
  );
  console.log(`  verdicts: ${runs[0].verdicts.join(', ')}`);
}
