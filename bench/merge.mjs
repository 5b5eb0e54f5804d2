#!/usr/bin/env node
// `evallens merge` of 3 shards (issue 17: "merge of 3 shards of 100,000 cases: under 3 s, memory
// bounded (stream)"). Generates the support-answer cases with bench/generate.mjs (5 deterministic
// scorers), runs the 3 shards with the built CLI (`run --shard i/3`, not timed), then times
// `evallens merge <3 run folders> --reporter junit --out …` as a whole process (GNU time: wall, peak
// RSS, CPU = user + sys), at --cases in all (3 shards of a third each) and at 3 × --cases (3 shards of
// --cases each), so memory that grew with the run would show. With --old, another build merges the
// same shards in the same rounds (the order alternating), for a side-by-side figure on a loaded
// machine. Checks each merged report's counts against generate.mjs's expected-counts.json.
// Prints medians (min–max) over --rounds (default 5) and the load average before and after.
//
//   npm run build && node bench/merge.mjs [--cases N] [--rounds K] [--one-size] [--cli PATH] [--old PATH] [--out DIR]

import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { failure, wholeNumber } from './lib/args.mjs';
import { GNU_TIME, measure } from './lib/measure.mjs';
import { round, stat } from './lib/stats.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
const { values: args } = parseArgs({
  options: {
    cases: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '5' },
    cli: { type: 'string' },
    // Another build (e.g. a copy of dist/ from before a change), measured in the same rounds.
    old: { type: 'string' },
    out: { type: 'string' },
    // Only --cases, not also 3 × --cases (the shards of the larger size take long to make).
    'one-size': { type: 'boolean', default: false },
  },
});
const die = failure('merge.mjs');
const CASES = wholeNumber(die)(args.cases, 'cases', 30);
const ROUNDS = wholeNumber(die)(args.rounds, 'rounds', 1);
const CLI = resolve(args.cli ?? join(ROOT, 'dist', 'cli.js'));
const OLD = args.old === undefined ? undefined : resolve(args.old);
const OUT = resolve(args.out ?? join(HERE, 'out', 'merge'));

if (!existsSync(GNU_TIME)) die(`${GNU_TIME} (GNU time) is missing; install it with: apt-get install -y time`);
if (!existsSync(CLI)) die(`${CLI} is missing; build it first: npm run build`);
if (OLD !== undefined && !existsSync(OLD)) die(`${OLD} (--old) is missing`);
const load = () =>
  loadavg()
    .map((x) => round(x, 2))
    .join(' ');

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

/** The fields of a report.json before its cases (the whole file is too large for one string at 300,000 cases). */
function reportHead(path) {
  const fd = openSync(path, 'r');
  try {
    const front = Buffer.alloc(1 << 20);
    const text = front.toString('utf8', 0, readSync(fd, front, 0, front.length, 0));
    const end = text.indexOf(',\n"cases":[');
    if (end === -1) die(`${path}: no "cases" in its first MiB`);
    return JSON.parse(`${text.slice(0, end)}}`);
  } finally {
    closeSync(fd);
  }
}

/** One merge of `folders` by `cli`, timed, its report checked against the ground truth. */
async function mergeOnce(cli, label, cases, folders, expected) {
  const merged = join(OUT, `merged-${cases}-${label}`);
  rmSync(merged, { recursive: true, force: true });
  const junit = join(OUT, `merged-${cases}-${label}.xml`);
  const run = await measure(
    [process.execPath, cli, 'merge', ...folders, '--runs-dir', merged, '--reporter', 'junit', '--out', junit],
    { cwd: OUT, scratch: OUT, okCodes: [0, 1] },
  );
  const report = reportHead(join(merged, readdirSync(merged)[0], 'report.json'));
  if (report.summary.total !== cases)
    die(`${label}: the merged report has ${report.summary.total} cases, not ${cases}`);
  // generate.mjs's ground truth, computed apart from EvalLens (its `equals` is EvalLens's exact_match).
  const passes = Object.fromEntries(
    report.scorers.map((s) => [s.name === 'exact_match' ? 'equals' : s.name, s.counts.pass]),
  );
  for (const [name, count] of Object.entries(passes))
    if (expected.full.pass[name] !== count)
      die(`${label}: ${name}: ${count} passes merged, ${expected.full.pass[name]} expected by generate.mjs`);
  rmSync(merged, { recursive: true, force: true });
  rmSync(junit, { force: true });
  return run;
}

function line(label, runs) {
  const f = (key, digits) => {
    const s = stat(runs, key);
    return `${round(s.median, digits)} (${round(s.min, digits)}–${round(s.max, digits)})`;
  };
  return `  ${label.padEnd(4)} wall ${f('wallMs', 0)} ms, CPU ${f('cpuS', 2)} s, peak RSS ${f('peakRssMb', 0)} MB`;
}

mkdirSync(OUT, { recursive: true });
const builds = [['new', CLI], ...(OLD === undefined ? [] : [['old', OLD]])];
for (const cases of args['one-size'] ? [CASES] : [CASES, 3 * CASES]) {
  const { folders, expected } = await shardsOf(cases);
  const perShard = folders.map((f) => readFileSync(join(f, 'cases.jsonl'), 'utf8').split('\n').length - 1);
  const runs = Object.fromEntries(builds.map(([label]) => [label, []]));
  const loadBefore = load();
  for (let i = 0; i < ROUNDS; i++) {
    // The order alternates, so that neither build always runs first.
    const order = i % 2 === 0 ? builds : [...builds].reverse();
    for (const [label, cli] of order) runs[label].push(await mergeOnce(cli, label, cases, folders, expected));
  }
  console.log(
    `merge of 3 shards (${perShard.join(' + ')} = ${cases} cases × 5 scorers), --reporter junit --out; medians (min–max) of ${ROUNDS} rounds; load ${loadBefore} before, ${load()} after:`,
  );
  for (const [label] of builds) console.log(line(label, runs[label]));
  if (OLD !== undefined) {
    const ratio = (key) => round(stat(runs.old, key).median / stat(runs.new, key).median, 1);
    console.log(`  old / new: wall ${ratio('wallMs')}×, CPU ${ratio('cpuS')}×, peak RSS ${ratio('peakRssMb')}×`);
  }
}
