#!/usr/bin/env node
// NL2SQL at scale on SQLite (issue 18, item 5): "10,000 BAT-style cases on SQLite … memory bounded
// (< 200 MB whatever the case count), ≥ 1,000 cases/s on SQLite, and the database's share of the time
// reported beside ours". Side by side: this build and an older one (--old), on the same data.
//
//   node bench/nl2sql.mjs --cases 20000 --generate-only --out bench/out/nl2sql-scale
//   npm run build && node bench/nl2sql-scale.mjs --old /tmp/olddist/cli.js [options]
//
// Options:
//   --from DIR     what nl2sql.mjs generated: nl2sql.json, truth.json, db/, db-sqlite.yaml
//                  (default bench/out/nl2sql-scale)
//   --cases LIST   case counts, comma-separated (default 10000,20000); each at most the generated count:
//                  the first N items, written to DIR/scale-N.json with a run config of its own
//   --rounds K     measured rounds per count (default 5), after --warmup W (default 1)
//   --cli PATH     this build (default dist/cli.js); --old PATH: the build to compare with (optional)
//   --unique       make every plan's text distinct (a comment naming the case and the part after the
//                  golden and the generated SQL: same results, same verdicts), so that no run is answered
//                  from the cache
//
// Each round runs, as whole processes in an order that rotates: EvalLens (each build) on the SQLite
// run config (`run … --reporter json --out … --runs-dir …`), and the database alone
// (`nl2sql-replay.mjs --via direct`: the same 2 × N plans on sql.js, a fresh copy each, in this
// process's thread). Wall time around the spawn; peak RSS and CPU (user+sys) from GNU time; "run" is
// the report's durationMs. Every EvalLens report is checked result by result against the ground truth
// (truth.json); any difference is listed and the script exits 1. The database's share is the replay's
// loop over the run of this build. The data's distinct plans are counted too: a golden query repeated
// across cases, or generated SQL equal to the golden SQL, is the same plan, which EvalLens's SQLite
// result cache (core/sql/planResultCache.ts) answers without running it again; the replay runs every one.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import os from 'node:os';
import { planOf, SCORERS } from './nl2sql-verdicts.mjs';
import { failure, wholeNumber } from './lib/args.mjs';
import { measure } from './lib/measure.mjs';
import { readReport } from './lib/report.mjs';
import { round, stat } from './lib/stats.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
const { values: args } = parseArgs({
  options: {
    from: { type: 'string' },
    cases: { type: 'string', default: '10000,20000' },
    rounds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    cli: { type: 'string' },
    old: { type: 'string' },
    unique: { type: 'boolean', default: false },
  },
});
const die = failure('nl2sql-scale.mjs');
const int = wholeNumber(die);
const FROM = resolve(args.from ?? join(HERE, 'out', 'nl2sql-scale'));
const ROUNDS = int(args.rounds, 'rounds', 1);
const WARMUP = int(args.warmup, 'warmup', 0);
const CLI = resolve(args.cli ?? join(ROOT, 'dist', 'cli.js'));
const OLD = args.old === undefined ? undefined : resolve(args.old);
for (const f of ['nl2sql.json', 'truth.json', 'db-sqlite.yaml', 'sqlite.eval.yaml'])
  if (!existsSync(join(FROM, f)))
    die(`${join(FROM, f)} is missing: run node bench/nl2sql.mjs --cases 20000 --generate-only --out ${FROM}`);

const UNIQUE = args.unique;
const items = JSON.parse(readFileSync(join(FROM, 'nl2sql.json'), 'utf8')).map((item) =>
  UNIQUE ? distinct(item) : item,
);

/** The item with a comment naming it after its SQLite golden and generated SQL. */
function distinct(item) {
  const tag = (sql, which) => `${sql}\n/* ${which} SQL of case ${item.id} */`;
  const golden = {
    ...item.golden_sql,
    sqlite: item.golden_sql.sqlite.map((sql, i) => (i === 0 ? tag(sql, 'golden') : sql)),
  };
  const generated =
    typeof item.generated_sql === 'string'
      ? tag(item.generated_sql, 'generated')
      : { ...item.generated_sql, sqlite: tag(item.generated_sql.sqlite, 'generated') };
  return { ...item, golden_sql: golden, generated_sql: generated };
}
const truth = JSON.parse(readFileSync(join(FROM, 'truth.json'), 'utf8')).cases;
const COUNTS = args.cases.split(',').map((c) => int(c.trim(), 'cases', 1));
for (const n of COUNTS) if (n > items.length) die(`--cases ${n}: ${FROM} holds ${items.length} items`);

const builds = [
  { id: 'new', label: 'EvalLens (this build)', cli: CLI },
  ...(OLD === undefined ? [] : [{ id: 'old', label: 'EvalLens (old build)', cli: OLD }]),
];

/** Writes the first n items and a run config reading them; counts the distinct plans. */
function prepare(n) {
  const dataset = join(FROM, `scale-${n}${UNIQUE ? '-unique' : ''}.json`);
  writeFileSync(dataset, `${JSON.stringify(items.slice(0, n))}\n`);
  const config = readFileSync(join(FROM, 'sqlite.eval.yaml'), 'utf8').replace(
    /^dataset_config: .*$/m,
    `dataset_config: scale-${n}${UNIQUE ? '-unique' : ''}.json`,
  );
  const runConfig = join(FROM, `scale-${n}${UNIQUE ? '-unique' : ''}.eval.yaml`);
  writeFileSync(runConfig, config);
  const plans = new Set();
  for (const item of items.slice(0, n)) {
    const p = planOf(item, 'sqlite');
    for (const query of [p.golden, p.generated])
      plans.add(JSON.stringify([p.setup, query.trim(), p.evalQueries, p.cleanup]));
  }
  return { dataset, runConfig, distinctPlans: plans.size };
}

async function checkReport(file, n) {
  let results = 0;
  let durationMs;
  const mismatches = [];
  ({ durationMs } = await readReport(file, {
    onResult: (r) => {
      results++;
      const want = truth[r.caseId]?.[r.scorer];
      if (want !== r.status && mismatches.length < 5)
        mismatches.push(`${r.caseId} ${r.scorer}: ${r.status}, truth ${want}`);
    },
  }));
  const problems = [];
  if (results !== n * SCORERS.length) problems.push(`${results} results, expected ${n * SCORERS.length}`);
  if (mismatches.length) problems.push(`verdicts differ from the ground truth: ${mismatches.join('; ')}`);
  return { runMs: durationMs, problems };
}

async function runBuild(build, n, prepared) {
  const out = join(FROM, `report-${build.id}-${n}.json`);
  const runsDir = join(FROM, `runs-${build.id}`);
  rmSync(out, { force: true });
  const argv = [
    process.execPath,
    build.cli,
    'run',
    prepared.runConfig,
    '--reporter',
    'json',
    '--out',
    out,
    '--runs-dir',
    runsDir,
  ];
  const m = await measure(argv, { cwd: ROOT, scratch: FROM });
  rmSync(runsDir, { recursive: true, force: true });
  const check = existsSync(out) ? await checkReport(out, n) : { problems: ['no report'] };
  if (m.exitCode !== 0 && m.exitCode !== 1) check.problems.push(`exit ${m.exitCode}: ${m.stderr.trim().slice(-300)}`);
  rmSync(out, { force: true });
  return { kind: build.id, wallMs: m.wallMs, peakRssMb: m.peakRssMb, cpuS: m.cpuS, ...check };
}

async function runReplay(n, prepared) {
  const out = join(FROM, `replay-${n}.json`);
  const argv = [
    process.execPath,
    join(HERE, 'nl2sql-replay.mjs'),
    '--via',
    'direct',
    '--dialect',
    'sqlite',
    '--dataset',
    prepared.dataset,
    '--truth',
    join(FROM, 'truth.json'),
    '--out',
    out,
    '--sqlite-file',
    join(FROM, 'db', 'shop.sqlite'),
  ];
  const m = await measure(argv, { cwd: ROOT, scratch: FROM });
  const r = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : undefined;
  const problems = [];
  if (r === undefined) problems.push(`no replay summary: ${m.stderr.trim().slice(-300)}`);
  else if (r.mismatchCount > 0) problems.push(`${r.mismatchCount} replay verdicts differ from the ground truth`);
  return { kind: 'database', wallMs: m.wallMs, peakRssMb: m.peakRssMb, cpuS: m.cpuS, loopMs: r?.loopMs, problems };
}

const loadAtStart = os.loadavg().map((x) => round(x, 2));
const results = [];
for (const n of COUNTS) {
  const prepared = prepare(n);
  const kinds = [...builds.map((b) => () => runBuild(b, n, prepared)), () => runReplay(n, prepared)];
  const runs = [];
  for (let r = 0; r < WARMUP + ROUNDS; r++) {
    for (let i = 0; i < kinds.length; i++) {
      const run = { ...(await kinds[(i + r) % kinds.length]()), warmup: r < WARMUP, round: r - WARMUP + 1 };
      runs.push(run);
      console.log(
        `  ${n} cases ${run.warmup ? 'warm-up' : `round ${run.round}`}: ${run.kind.padEnd(8)} ${(run.wallMs / 1000).toFixed(2)} s wall, ${((run.runMs ?? run.loopMs ?? 0) / 1000).toFixed(2)} s run/loop, ${run.cpuS.toFixed(2)} s CPU, ${run.peakRssMb.toFixed(0)} MB, load ${os.loadavg()[0].toFixed(2)}${run.problems.length ? `  PROBLEM: ${run.problems.join('; ')}` : ''}`,
      );
    }
  }
  const measured = runs.filter((r) => !r.warmup);
  const of = (kind) => measured.filter((r) => r.kind === kind);
  const summary = Object.fromEntries(
    [...builds.map((b) => b.id), 'database'].map((k) => [
      k,
      {
        wallMs: stat(of(k), 'wallMs'),
        runMs: stat(of(k), 'runMs'),
        loopMs: stat(of(k), 'loopMs'),
        cpuS: stat(of(k), 'cpuS'),
        peakRssMb: stat(of(k), 'peakRssMb'),
      },
    ]),
  );
  results.push({ cases: n, distinctPlans: prepared.distinctPlans, summary, runs });
}
const loadAtEnd = os.loadavg().map((x) => round(x, 2));

const fmt = (x, d = 0) =>
  x === undefined ? 'n/a' : x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const spread = (st, f) => (st ? `${f(st.median)} (${f(st.min)}–${f(st.max)})` : 'n/a');
const lines = [
  `#### NL2SQL at scale, SQLite — ${new Date().toISOString().slice(0, 10)}`,
  '',
  `Machine: ${os.cpus().length} cores, Node ${process.version}; load average at start ${loadAtStart.join(' / ')}, at end ${loadAtEnd.join(' / ')}. ` +
    `${ROUNDS} measured rounds after ${WARMUP} warm-up per count, processes rotating; medians (min–max). ` +
    (UNIQUE
      ? 'Data: every plan made distinct (`--unique`: a comment naming the case after its SQL), so no run is answered from the result cache.'
      : 'Data: as nl2sql.mjs generates it (27 templates over a small database: golden queries repeat across cases).'),
  '',
  `| cases | distinct plans of 2 × N | process | wall s | cases/s whole process | run s | cases/s run | CPU s (user+sys) | peak RSS MB | database's share of the run |`,
  '|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|',
];
for (const r of results) {
  const db = r.summary.database.loopMs?.median;
  for (const b of builds) {
    const s = r.summary[b.id];
    lines.push(
      `| ${fmt(r.cases)} | ${fmt(r.distinctPlans)} | ${b.label} | ${spread(s.wallMs, (x) => fmt(x / 1000, 2))} | ${fmt(r.cases / (s.wallMs.median / 1000))} | ${spread(s.runMs, (x) => fmt(x / 1000, 2))} | ${s.runMs ? fmt(r.cases / (s.runMs.median / 1000)) : 'n/a'} | ${spread(s.cpuS, (x) => fmt(x, 2))} | ${spread(s.peakRssMb, (x) => fmt(x))} | ${db !== undefined && s.runMs ? `${Math.round((100 * db) / s.runMs.median)}%` : 'n/a'} |`,
    );
  }
  const d = r.summary.database;
  lines.push(
    `| ${fmt(r.cases)} | ${fmt(r.distinctPlans)} | database alone (sql.js, every plan, loop) | ${spread(d.wallMs, (x) => fmt(x / 1000, 2))} | | ${spread(d.loopMs, (x) => fmt(x / 1000, 2))} | ${d.loopMs ? fmt(r.cases / (d.loopMs.median / 1000)) : 'n/a'} | ${spread(d.cpuS, (x) => fmt(x, 2))} | ${spread(d.peakRssMb, (x) => fmt(x))} | |`,
  );
}
const problems = results.flatMap((r) =>
  r.runs.flatMap((x) =>
    x.problems.map((p) => `${r.cases} ${x.kind} ${x.warmup ? 'warm-up' : `round ${x.round}`}: ${p}`),
  ),
);
lines.push('');
lines.push(
  problems.length
    ? `**Problems:**\n${problems.map((p) => `- ${p}`).join('\n')}`
    : "Checks: every EvalLens report had N × 7 results, each equal to the ground truth; every replay's verdicts equalled it too.",
);
const markdown = `${lines.join('\n')}\n`;
const stem = `scale-results${UNIQUE ? '-unique' : ''}-${COUNTS.join('-')}`;
writeFileSync(join(FROM, `${stem}.md`), markdown);
writeFileSync(
  join(FROM, `${stem}.json`),
  `${JSON.stringify({ loadAtStart, loadAtEnd, cli: relative(ROOT, CLI), old: OLD, results }, null, 1)}\n`,
);
console.log(`\n${markdown}`);
process.exitCode = problems.length ? 1 : 0;
