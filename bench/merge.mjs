#!/usr/bin/env node
// `evallens merge` of 3 shards (issue 17: "merge of 3 shards of 100,000 cases: under 3 s, memory
// bounded (stream)"). Generates the support-answer cases with bench/generate.mjs (5 deterministic
// scorers), runs the 3 shards with the built CLI (`run --shard i/3`, not timed), then times
// `evallens merge <3 run folders> --reporter junit --out …` as a whole process (GNU time: wall, peak
// RSS, CPU), at --cases in all (3 shards of a third each) and at 3 × --cases (3 shards of --cases
// each), so memory that grew with the run would show. Checks the merged report's counts against
// generate.mjs's expected-counts.json.
//
//   npm run build && node bench/merge.mjs [--cases N] [--rounds K] [--one-size] [--cli PATH] [--out DIR]

import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { failure, wholeNumber } from './lib/args.mjs';
import { GNU_TIME, measure } from './lib/measure.mjs';
import { round, stat } from './lib/stats.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
const { values: args } = parseArgs({
  options: {
    cases: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '3' },
    cli: { type: 'string' },
    out: { type: 'string' },
    // Only --cases, not also 3 × --cases (the shards of the larger size take long to make).
    'one-size': { type: 'boolean', default: false },
  },
});
const die = failure('merge.mjs');
const CASES = wholeNumber(die)(args.cases, 'cases', 30);
const ROUNDS = wholeNumber(die)(args.rounds, 'rounds', 1);
const CLI = resolve(args.cli ?? join(ROOT, 'dist', 'cli.js'));
const OUT = resolve(args.out ?? join(HERE, 'out', 'merge'));

if (!existsSync(GNU_TIME)) die(`${GNU_TIME} (GNU time) is missing; install it with: apt-get install -y time`);
if (!existsSync(CLI)) die(`${CLI} is missing; build it first: npm run build`);

/** The 3 shards' run folders of `cases` generated cases (made once, kept in OUT between rounds). */
async function shardsOf(cases) {
  const data = join(OUT, `data-${cases}`);
  if (!existsSync(join(data, 'bench.eval.yaml')))
    execFileSync(process.execPath, [join(HERE, 'generate.mjs'), '--cases', String(cases), '--out', data], {
      stdio: 'ignore',
    });
  const folders = [];
  for (const i of [1, 2, 3]) {
    const runs = join(OUT, `shards-${cases}`, `shard-${i}`);
    if (!existsSync(runs) || readdirSync(runs).length !== 1) {
      rmSync(runs, { recursive: true, force: true });
      const run = await measure(
        [process.execPath, CLI, 'run', join(data, 'bench.eval.yaml'), '--shard', `${i}/3`, '--runs-dir', runs],
        { cwd: OUT, scratch: OUT, okCodes: [0, 1] },
      );
      console.log(`  shard ${i}/3 of ${cases} cases ran in ${round(run.wallMs)} ms (not part of the figure)`);
    }
    folders.push(join(runs, readdirSync(runs)[0]));
  }
  return { folders, expected: JSON.parse(readFileSync(join(data, 'expected-counts.json'), 'utf8')) };
}

mkdirSync(OUT, { recursive: true });
for (const cases of args['one-size'] ? [CASES] : [CASES, 3 * CASES]) {
  const { folders, expected } = await shardsOf(cases);
  const perShard = folders.map((f) => readFileSync(join(f, 'cases.jsonl'), 'utf8').split('\n').length - 1);
  const runs = [];
  for (let i = 0; i < ROUNDS; i++) {
    const merged = join(OUT, `merged-${cases}`);
    rmSync(merged, { recursive: true, force: true });
    const junit = join(OUT, `merged-${cases}.xml`);
    runs.push(
      await measure(
        [process.execPath, CLI, 'merge', ...folders, '--runs-dir', merged, '--reporter', 'junit', '--out', junit],
        { cwd: OUT, scratch: OUT, okCodes: [0, 1] },
      ),
    );
    const report = JSON.parse(readFileSync(join(merged, readdirSync(merged)[0], 'report.json'), 'utf8'));
    if (report.summary.total !== cases) die(`the merged report has ${report.summary.total} cases, not ${cases}`);
    // generate.mjs's ground truth, computed apart from EvalLens (its `equals` is EvalLens's exact_match).
    const passes = Object.fromEntries(
      report.scorers.map((s) => [s.name === 'exact_match' ? 'equals' : s.name, s.counts.pass]),
    );
    for (const [name, count] of Object.entries(passes))
      if (expected.full.pass[name] !== count)
        die(`${name}: ${count} passes merged, ${expected.full.pass[name]} expected by generate.mjs`);
  }
  const wall = stat(runs, 'wallMs');
  const rss = stat(runs, 'peakRssMb');
  const cpu = stat(runs, 'cpuS');
  console.log(
    `merge of 3 shards (${perShard.join(' + ')} = ${cases} cases × 5 scorers): wall ${round(wall.median)} ms ` +
      `(min ${round(wall.min)}, max ${round(wall.max)}), peak RSS ${round(rss.median)} MB (max ${round(rss.max)}), ` +
      `CPU ${round(cpu.median, 2)} s, ${ROUNDS} rounds, exit ${runs[0].exitCode}`,
  );
}
