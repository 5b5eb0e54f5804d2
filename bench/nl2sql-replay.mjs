#!/usr/bin/env node
// One timed replay of the NL2SQL benchmark's database work, as a process of its own (bench/nl2sql.mjs
// starts it every round): the golden and the generated plan of every case, one after the other, in the
// order EvalLens's preparer runs them (golden first), each in isolation.
//
//   node bench/nl2sql-replay.mjs --via direct --dialect sqlite   --dataset D --sqlite-file F --truth T --out O
//   node bench/nl2sql-replay.mjs --via direct --dialect postgres --dataset D --pg-url U     --truth T --out O
//   node --import tsx bench/nl2sql-replay.mjs --via engine --dialect sqlite|postgres --dataset D --db-config Y --truth T --out O
//
// --via direct: the database alone, in the same isolation (bench/nl2sql-direct.mjs: sql.js on a fresh
//   copy per plan; pg in a rolled-back transaction with savepoints). This is "time in the database".
// --via engine: EvalLens's own SQL engine (core/sql/openEngine.ts, loaded from the TypeScript sources
//   with tsx, since dist/cli.js exports nothing), opened from the same database config the run config
//   names, with the run's default time limit (30,000 ms): the database plus EvalLens's engine layer
//   (SQLite's worker thread and its message round trips; PostgreSQL's pool, statement_timeout, sequence
//   snapshot, DISCARD ALL), without the runner, the scorers or the reports.
//
// Only the loop over the plans is timed (performance.now), not start-up, loading the dataset or opening
// the database. After the loop, the results are checked: bench/nl2sql-verdicts.mjs computes every
// scorer's verdict from them, which must equal the ground truth the generator wrote (truth.json).
// Writes a JSON summary to --out.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { openDirectPostgres, openDirectSqlite } from './nl2sql-direct.mjs';
import { planOf, scorerVerdicts, SCORERS } from './nl2sql-verdicts.mjs';

const { values: args } = parseArgs({
  options: {
    via: { type: 'string' },
    dialect: { type: 'string' },
    dataset: { type: 'string' },
    'sqlite-file': { type: 'string' },
    'pg-url': { type: 'string' },
    'db-config': { type: 'string' },
    truth: { type: 'string' },
    out: { type: 'string' },
    // --via direct on SQLite: run the plans EvalLens runs on its shared read-only connection on one too.
    'shared-reader': { type: 'boolean', default: false },
  },
});
const die = (m) => {
  console.error(`bench/nl2sql-replay.mjs: ${m}`);
  process.exit(2);
};
if (!['direct', 'engine'].includes(args.via)) die('--via must be direct or engine');
if (!['sqlite', 'postgres'].includes(args.dialect)) die('--dialect must be sqlite or postgres');
for (const k of ['dataset', 'truth', 'out']) if (!args[k]) die(`--${k} is required`);

const TIMEOUT_MS = 30_000; // the run configs' default timeout_ms, which the CLI passes to the engine

const items = JSON.parse(readFileSync(args.dataset, 'utf8'));
const truth = JSON.parse(readFileSync(args.truth, 'utf8'));
const plans = items.map((item) => planOf(item, args.dialect));
const statements = plans.reduce((n, p) => n + 2 * (1 + p.evalQueries.length + p.setup.length + p.cleanup.length), 0);

/** Opens the database; `run` answers { query, evals } in bench/nl2sql-verdicts.mjs's shape. */
async function open() {
  if (args.via === 'direct') {
    if (args.dialect === 'sqlite')
      return openDirectSqlite(args['sqlite-file'] ?? die('--sqlite-file is required'), {
        sharedReader: args['shared-reader'],
      });
    return openDirectPostgres(args['pg-url'] ?? die('--pg-url is required'));
  }
  // EvalLens's engine, from its TypeScript sources (needs `node --import tsx`).
  const { loadDatabaseConfig } = await import('../core/sql/databaseConfig.ts');
  const { openEngine } = await import('../core/sql/openEngine.ts');
  const { locationOf } = await import('../core/sql/databaseConfig.ts');
  const loaded = loadDatabaseConfig(args['db-config'] ?? die('--db-config is required'), process.env);
  if (loaded.config === undefined)
    die(`the database config has problems: ${loaded.problems.map((p) => p.message).join('; ')}`);
  // The database the run config's items name: "shop" on SQLite; on PostgreSQL the config's own
  // database (the run config maps "shop" to it with db_name_overrides).
  const database = args.dialect === 'sqlite' ? 'shop' : loaded.config.name;
  const engine = await openEngine(locationOf(loaded.config, database), process.env);
  const outcome = (o) =>
    o.ok ? { ok: true, columns: o.result.columns, rows: o.result.rows } : { ok: false, error: o.error };
  return {
    async run(plan) {
      const r = await engine.run(plan, { timeoutMs: TIMEOUT_MS });
      return { query: outcome(r.query), evals: (r.evalQueries ?? []).map(outcome) };
    },
    close: () => engine.close(),
  };
}

const openStarted = performance.now();
const db = await open();
const openMs = performance.now() - openStarted;

const runs = new Array(plans.length);
const started = performance.now();
for (let i = 0; i < plans.length; i++) {
  const p = plans[i];
  const part = (query) => ({ setup: p.setup, query, evalQueries: p.evalQueries, cleanup: p.cleanup });
  const golden = await db.run(part(p.golden));
  const generated = await db.run(part(p.generated));
  runs[i] = { golden, generated };
}
const loopMs = performance.now() - started;
await db.close();

// The check, outside the timed loop.
const counts = Object.fromEntries(SCORERS.map((s) => [s, { pass: 0, fail: 0 }]));
const mismatches = [];
let queryErrors = 0;
for (let i = 0; i < plans.length; i++) {
  const { golden, generated } = runs[i];
  if (!generated.query.ok) queryErrors++;
  if (!golden.query.ok) mismatches.push(`${plans[i].id}: the golden query failed: ${golden.query.error}`);
  const verdicts = scorerVerdicts(plans[i].generated, golden, generated);
  const want = truth.cases[plans[i].id];
  for (const s of SCORERS) {
    counts[s][verdicts[s]]++;
    if (want?.[s] !== verdicts[s])
      mismatches.push(`${plans[i].id} ${s}: ${verdicts[s]} here, ${want?.[s] ?? 'nothing'} in the ground truth`);
  }
}

writeFileSync(
  args.out,
  `${JSON.stringify(
    {
      via: args.via,
      dialect: args.dialect,
      cases: plans.length,
      plans: 2 * plans.length,
      statements,
      openMs: Math.round(openMs * 10) / 10,
      loopMs: Math.round(loopMs * 10) / 10,
      generatedQueryErrors: queryErrors,
      counts,
      mismatches: mismatches.slice(0, 50),
      mismatchCount: mismatches.length,
    },
    null,
    2,
  )}\n`,
);
