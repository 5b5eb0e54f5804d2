#!/usr/bin/env node
// EvalLens performance benchmark, side by side with promptfoo in the same run.
//
//   bash bench/peers.sh && npm run build && node bench/run.mjs [options]
//
// Options:
//   --rounds K         measured rounds (default 5); each round runs, in alternating order,
//                      (a) EvalLens on the M peer cases and (b) promptfoo on the same M cases,
//                      then (c) EvalLens alone on all N cases
//   --warmup W         unmeasured rounds before them (default 1)
//   --cases N          cases for the EvalLens-alone run (default 100000)
//   --peer-cases M     cases both tools score (default 20000: at 2,000 start-up dominates both tools' times)
//   --concurrency C    pass --concurrency C to EvalLens (default: not passed, the CLI's default)
//   --peer-jobs J      promptfoo -j (default 2: this machine's cores)
//   --no-peer          skip promptfoo (EvalLens only)
//   --skip-peer-no-write  skip the second promptfoo variant, with --no-write (no results database)
//   --out DIR          where data, reports and results go (default bench/out)
//   --cli PATH         the EvalLens CLI to run (default dist/cli.js), e.g. to compare two builds
//   --old PATH         another EvalLens CLI (a copy of an older dist/) run on the N cases in every round
//                      beside --cli, the two alternating which goes first
//
// promptfoo runs twice a round: as the brief's command (it stores the eval in its SQLite database,
// as EvalLens stores its run folder) and with --no-write (no database): the ratio to both is reported.
//
// Each run is measured as a whole process: wall time with process.hrtime around the spawn, peak RSS
// from GNU time (`/usr/bin/time -f %M`). Every run is checked: the number of results and the pass
// counts per assertion kind are read from the tool's own report and compared with the ground truth
// computed by bench/generate.mjs. Writes DIR/results.md (also printed) and DIR/results.json.

import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import os from 'node:os';
import { generate, GENERATOR_HASH } from './generate.mjs';
import { readReport } from './lib/report.mjs';
import { capture, round, stat } from './lib/stats.mjs';
import { failure, wholeNumber } from './lib/args.mjs';
import { GNU_TIME, measure } from './lib/measure.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
const PEER_DIR = join(HERE, '.peers', 'promptfoo');
const PROMPTFOO_MAIN = join(PEER_DIR, 'node_modules', 'promptfoo', 'dist', 'src', 'main.js');

// Issue 18 item 4 (issue 12's was 100,000).
const TARGET_EVALS_PER_SEC = 300_000;
const TARGET_RSS_MB = 200;
/** The five assertion kinds, in order, with each tool's name for them. */
const KINDS = [
  { kind: 'equals', evallens: 'exact_match', promptfoo: 'equals', truth: 'equals' },
  { kind: 'contains', evallens: 'contains', promptfoo: 'contains', truth: 'contains' },
  { kind: 'regex', evallens: 'regex', promptfoo: 'regex', truth: 'regex' },
  {
    kind: 'levenshtein',
    evallens: 'edit_similarity',
    promptfoo: 'levenshtein',
    truth: 'levenshtein',
    evallensTruth: 'edit_similarity',
  },
  { kind: 'is-json', evallens: 'json_schema', promptfoo: 'is-json', truth: 'json_schema' },
];

// --- Arguments --------------------------------------------------------------------------------------

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    cases: { type: 'string', default: '100000' },
    'peer-cases': { type: 'string', default: '20000' },
    concurrency: { type: 'string' },
    'peer-jobs': { type: 'string', default: '2' },
    'no-peer': { type: 'boolean', default: false },
    'skip-peer-no-write': { type: 'boolean', default: false },
    out: { type: 'string' },
    cli: { type: 'string' },
    old: { type: 'string' },
  },
});
const die = failure('run.mjs');
const int = wholeNumber(die);
const ROUNDS = int(args.rounds, 'rounds', 1);
const WARMUP = int(args.warmup, 'warmup', 0);
const N = int(args.cases, 'cases', 1);
const M = int(args['peer-cases'], 'peer-cases', 1);
const CONCURRENCY = args.concurrency === undefined ? undefined : int(args.concurrency, 'concurrency', 1);
const PEER_JOBS = int(args['peer-jobs'], 'peer-jobs', 1);
const WITH_PEER = !args['no-peer'];
const WITH_NO_WRITE = WITH_PEER && !args['skip-peer-no-write'];
const OUT = args.out ? resolve(args.out) : join(HERE, 'out');
const CLI = args.cli ? resolve(args.cli) : join(ROOT, 'dist', 'cli.js');
// Another build (e.g. a copy of dist/ from before a change) run on the N cases in every round, beside CLI.
const OLD_CLI = args.old ? resolve(args.old) : undefined;

// --- Preconditions ----------------------------------------------------------------------------------

if (!existsSync(GNU_TIME)) die(`${GNU_TIME} (GNU time) is missing; install it with: apt-get install -y time`);
if (!existsSync(CLI)) die(`${CLI} is missing; build it first: npm run build`);
if (WITH_PEER && !existsSync(PROMPTFOO_MAIN))
  die(`promptfoo is not installed; run: bash bench/peers.sh (or pass --no-peer)`);
if (M > N) die(`--peer-cases (${M}) must not exceed --cases (${N})`);
mkdirSync(OUT, { recursive: true });

// Data: regenerate unless the files for this N, M and the generator's seed are there already.
const expectedFile = join(OUT, 'expected-counts.json');
let truth = existsSync(expectedFile) ? JSON.parse(readFileSync(expectedFile, 'utf8')) : undefined;
const needed = ['cases.jsonl', 'cases-peer.jsonl', 'bench.eval.yaml', 'bench-peer.eval.yaml', 'promptfooconfig.yaml'];
if (
  !truth ||
  truth.generator !== GENERATOR_HASH ||
  truth.cases !== N ||
  truth.peerCases !== M ||
  needed.some((f) => !existsSync(join(OUT, f)))
) {
  console.log(`generating ${N} cases (${M} for the peer) into ${OUT} ...`);
  truth = await generate({ cases: N, peerCases: M, out: OUT });
}

const ENV_PROMPTFOO = {
  ...process.env,
  PROMPTFOO_DISABLE_TELEMETRY: '1',
  PROMPTFOO_DISABLE_UPDATE: '1',
  PROMPTFOO_DISABLE_REMOTE_GENERATION: '1',
  PROMPTFOO_DISABLE_SHARING: '1',
  // Its database, logs and settings go to a folder of ours, fresh for every run.
  PROMPTFOO_CONFIG_DIR: join(OUT, 'pf-home'),
};

const machine = {
  date: new Date().toISOString(),
  nproc: capture('nproc', []),
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model ?? 'unknown',
  memory: capture('free', ['-h']),
  totalMemGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
  node: process.version,
  platform: `${os.type()} ${os.release()} ${os.arch()}`,
  loadAvgAtStart: os.loadavg().map((x) => Math.round(x * 100) / 100),
  evallens: capture(process.execPath, [CLI, '--version']),
  evallensCommit: `${capture('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'])}${capture('git', ['-C', ROOT, 'status', '--porcelain']).length > 0 ? ' + uncommitted changes' : ''}`,
  promptfoo: WITH_PEER
    ? JSON.parse(readFileSync(join(PEER_DIR, 'node_modules', 'promptfoo', 'package.json'), 'utf8')).version
    : null,
};

// --- Measuring one process --------------------------------------------------------------------------

// --- EvalLens ---------------------------------------------------------------------------------------

async function runEvalLens(config, cases, label, cli = CLI) {
  const report = join(OUT, `report-${label}.json`);
  const runsDir = join(OUT, 'runs');
  rmSync(report, { force: true });
  rmSync(runsDir, { recursive: true, force: true });
  const argv = [
    process.execPath,
    cli,
    'run',
    join(OUT, config),
    '--reporter',
    'json',
    '--out',
    report,
    '--runs-dir',
    runsDir,
  ];
  if (CONCURRENCY !== undefined) argv.push('--concurrency', String(CONCURRENCY));
  // Exit 0: every case passed; 1: some failed (expected here, the data has misses). 2 is a config error.
  const m = await measure(argv, { cwd: ROOT, scratch: OUT, okCodes: [0, 1] });
  const check = await checkEvalLensReport(report, cases);
  rmSync(runsDir, { recursive: true, force: true });
  return { tool: 'evallens', label, cases, ...pickMeasure(m), ...check };
}

/**
 * Reads the JSON report line by line (the reporter writes one case or result per line), so a
 * 100,000-case report is checked without loading it whole. Counts results per scorer and status.
 */
async function checkEvalLensReport(file, cases) {
  const pass = {};
  const statuses = {};
  const caseIds = new Set();
  let results = 0;
  const { durationMs, summary } = await readReport(file, {
    onResult: (r) => {
      results += 1;
      caseIds.add(r.caseId);
      statuses[r.scorer] ??= {};
      statuses[r.scorer][r.status] = (statuses[r.scorer][r.status] ?? 0) + 1;
      if (r.status === 'pass') pass[r.scorer] = (pass[r.scorer] ?? 0) + 1;
    },
  });
  const byKind = Object.fromEntries(KINDS.map((k) => [k.kind, pass[k.evallens] ?? 0]));
  const problems = [];
  if (results !== cases * KINDS.length)
    problems.push(`${results} results, expected ${cases} x ${KINDS.length} = ${cases * KINDS.length}`);
  if (caseIds.size !== cases) problems.push(`${caseIds.size} distinct cases, expected ${cases}`);
  for (const k of KINDS) if (!statuses[k.evallens]) problems.push(`no results for scorer ${k.evallens}`);
  return { results, passByKind: byKind, statuses, inProcessMs: durationMs, summary, problems };
}

// --- promptfoo --------------------------------------------------------------------------------------

async function runPromptfoo(cases, noWrite) {
  const label = noWrite ? 'peer-no-write' : 'peer';
  const output = join(OUT, `promptfoo-output-${label}.json`);
  rmSync(output, { force: true });
  rmSync(ENV_PROMPTFOO.PROMPTFOO_CONFIG_DIR, { recursive: true, force: true });
  mkdirSync(ENV_PROMPTFOO.PROMPTFOO_CONFIG_DIR, { recursive: true });
  const argv = [
    process.execPath,
    PROMPTFOO_MAIN,
    'eval',
    '-c',
    join(OUT, 'promptfooconfig.yaml'),
    '--no-cache',
    '-j',
    String(PEER_JOBS),
    '--no-table',
    '--no-progress-bar',
    '-o',
    output,
    ...(noWrite ? ['--no-write'] : []),
  ];
  // Exit 0: all passed; 100: some assertions failed (expected here).
  const m = await measure(argv, { cwd: OUT, env: ENV_PROMPTFOO, scratch: OUT, okCodes: [0, 100] });
  const check = noWrite ? checkPromptfooMetrics(output, cases) : checkPromptfooOutput(output, cases);
  return { tool: noWrite ? 'promptfoo --no-write' : 'promptfoo', label, cases, ...pickMeasure(m), ...check };
}

function checkPromptfooOutput(file, cases) {
  const out = JSON.parse(readFileSync(file, 'utf8'));
  const rows = out.results?.results ?? [];
  const pass = {};
  const statuses = {};
  let results = 0;
  let errors = 0;
  for (const row of rows) {
    // failureReason: 0 none, 1 an assertion failed (expected here), 2 an error (provider or assertion crashed).
    if (row.failureReason === 2) errors += 1;
    for (const c of row.gradingResult?.componentResults ?? []) {
      const type = c.assertion?.type ?? 'unknown';
      results += 1;
      statuses[type] ??= {};
      const status = c.pass ? 'pass' : 'fail';
      statuses[type][status] = (statuses[type][status] ?? 0) + 1;
      if (c.pass) pass[type] = (pass[type] ?? 0) + 1;
    }
  }
  const byKind = Object.fromEntries(KINDS.map((k) => [k.kind, pass[k.promptfoo] ?? 0]));
  const problems = [];
  if (rows.length !== cases) problems.push(`${rows.length} test results, expected ${cases}`);
  if (results !== cases * KINDS.length) problems.push(`${results} assertion results, expected ${cases * KINDS.length}`);
  if (errors > 0) problems.push(`${errors} test results with an error`);
  return {
    results,
    passByKind: byKind,
    statuses,
    stats: out.results?.stats && {
      successes: out.results.stats.successes,
      failures: out.results.stats.failures,
      errors: out.results.stats.errors,
    },
    problems,
  };
}

/**
 * With --no-write promptfoo keeps no per-test rows (its -o file has an empty results list), only the
 * prompt's aggregate metrics: check those (tests and assertions counted, passes in total).
 */
function checkPromptfooMetrics(file, cases) {
  const out = JSON.parse(readFileSync(file, 'utf8'));
  const metrics = out.results?.prompts?.[0]?.metrics ?? {};
  const tests = (metrics.testPassCount ?? 0) + (metrics.testFailCount ?? 0) + (metrics.testErrorCount ?? 0);
  const results = (metrics.assertPassCount ?? 0) + (metrics.assertFailCount ?? 0);
  const problems = [];
  if (tests !== cases) problems.push(`${tests} tests counted, expected ${cases}`);
  if (results !== cases * KINDS.length)
    problems.push(`${results} assertions counted, expected ${cases * KINDS.length}`);
  if ((metrics.testErrorCount ?? 0) > 0) problems.push(`${metrics.testErrorCount} tests with an error`);
  return { results, assertPassTotal: metrics.assertPassCount ?? 0, passByKind: undefined, problems };
}

const pickMeasure = (m) => ({
  wallMs: round(m.wallMs, 1),
  peakRssMb: round(m.peakRssMb, 1),
  cpuS: round(m.cpuS, 2),
  exitCode: m.exitCode,
});

// --- Statistics -------------------------------------------------------------------------------------

// --- Main -------------------------------------------------------------------------------------------

const runs = [];
const total = WARMUP + ROUNDS;
console.log(
  `bench: ${ROUNDS} rounds (+${WARMUP} warm-up) | ${M} cases x 5: EvalLens${WITH_PEER ? ' vs promptfoo ' + machine.promptfoo : ''} | ${N} cases x 5: EvalLens alone`,
);
console.log(
  `machine: ${machine.nproc} cores (${machine.cpuModel}), ${machine.totalMemGiB} GiB, Node ${machine.node}, load ${machine.loadAvgAtStart.join(' ')}`,
);
for (let round_ = 0; round_ < total; round_++) {
  const warm = round_ < WARMUP;
  const tag = warm ? `warm-up ${round_ + 1}` : `round ${round_ - WARMUP + 1}/${ROUNDS}`;
  // The side-by-side runs rotate their order from round to round, so none always goes first.
  const tools = ['evallens', ...(WITH_PEER ? ['promptfoo'] : []), ...(WITH_NO_WRITE ? ['promptfoo-no-write'] : [])];
  const order = tools.map((_, i) => tools[(i + round_) % tools.length]);
  const done = [];
  for (const tool of order) {
    if (tool === 'evallens') done.push(await runEvalLens('bench-peer.eval.yaml', M, 'peer'));
    else done.push(await runPromptfoo(M, tool === 'promptfoo-no-write'));
  }
  // The two builds alternate which goes first.
  const fullRuns = [
    () => runEvalLens('bench.eval.yaml', N, 'full'),
    ...(OLD_CLI ? [() => runEvalLens('bench.eval.yaml', N, 'full-old', OLD_CLI)] : []),
  ];
  for (const i of fullRuns.keys()) done.push(await fullRuns[(i + round_) % fullRuns.length]());
  for (const r of done) {
    r.round = warm ? null : round_ - WARMUP + 1;
    r.warmup = warm;
    runs.push(r);
    const flag = r.problems.length ? `  PROBLEM: ${r.problems.join('; ')}` : '';
    console.log(
      `  ${tag}: ${r.tool.padEnd(20)} ${String(r.cases).padStart(6)} cases  ${(r.wallMs / 1000).toFixed(2).padStart(7)} s  ${r.peakRssMb.toFixed(0).padStart(4)} MB${flag}`,
    );
  }
}
machine.loadAvgAtEnd = os.loadavg().map((x) => Math.round(x * 100) / 100);

const measured = runs.filter((r) => !r.warmup);
const elPeer = measured.filter((r) => r.tool === 'evallens' && r.label === 'peer');
const pf = measured.filter((r) => r.label === 'peer' && r.tool === 'promptfoo');
const pfnw = measured.filter((r) => r.label === 'peer-no-write');
const elFull = measured.filter((r) => r.tool === 'evallens' && r.label === 'full');
const elOld = measured.filter((r) => r.tool === 'evallens' && r.label === 'full-old');

const s = {
  evallensPeer: {
    wallMs: stat(elPeer, 'wallMs'),
    peakRssMb: stat(elPeer, 'peakRssMb'),
    cpuS: stat(elPeer, 'cpuS'),
    inProcessMs: stat(elPeer, 'inProcessMs'),
  },
  promptfooPeer: WITH_PEER
    ? { wallMs: stat(pf, 'wallMs'), peakRssMb: stat(pf, 'peakRssMb'), cpuS: stat(pf, 'cpuS') }
    : undefined,
  promptfooNoWritePeer: WITH_NO_WRITE
    ? { wallMs: stat(pfnw, 'wallMs'), peakRssMb: stat(pfnw, 'peakRssMb'), cpuS: stat(pfnw, 'cpuS') }
    : undefined,
  evallensFull: {
    wallMs: stat(elFull, 'wallMs'),
    peakRssMb: stat(elFull, 'peakRssMb'),
    cpuS: stat(elFull, 'cpuS'),
    inProcessMs: stat(elFull, 'inProcessMs'),
  },
};
// Ratio of medians, and the per-round ratios (same round, back to back) as a spread.
const ratio = WITH_PEER ? s.promptfooPeer.wallMs.median / s.evallensPeer.wallMs.median : undefined;
const ratioNoWrite = WITH_NO_WRITE ? s.promptfooNoWritePeer.wallMs.median / s.evallensPeer.wallMs.median : undefined;
const perRound = (peers) =>
  elPeer
    .map((e) => {
      const p = peers.find((x) => x.round === e.round);
      return p ? p.wallMs / e.wallMs : undefined;
    })
    .filter(Boolean);
const roundRatios = WITH_PEER ? perRound(pf) : [];
const roundRatiosNoWrite = WITH_NO_WRITE ? perRound(pfnw) : [];
const evalsPerSec = (N * KINDS.length) / (s.evallensFull.wallMs.median / 1000);
const evalsPerSecInProcess = s.evallensFull.inProcessMs
  ? (N * KINDS.length) / (s.evallensFull.inProcessMs.median / 1000)
  : undefined;
const fullRss = s.evallensFull.peakRssMb.median;
const fullRssMax = s.evallensFull.peakRssMb.max;
const targets = {
  evalsPerSec: { target: TARGET_EVALS_PER_SEC, value: round(evalsPerSec), met: evalsPerSec >= TARGET_EVALS_PER_SEC },
  peakRssMb: { target: TARGET_RSS_MB, value: fullRss, worst: fullRssMax, met: fullRssMax < TARGET_RSS_MB },
};

// Did both tools do the same work? Pass counts per kind, from the last measured run of each.
const last = (xs) => xs[xs.length - 1];
const consistent = (xs) => xs.every((r) => JSON.stringify(r.passByKind) === JSON.stringify(xs[0].passByKind));
const agreement = KINDS.map((k) => ({
  kind: `${k.kind} (EvalLens ${k.evallens} / promptfoo ${k.promptfoo})`,
  truthPeer: truth.peer.pass[k.evallensTruth ?? k.truth],
  truthPeerPromptfoo: truth.peer.pass[k.truth],
  evallensPeer: last(elPeer)?.passByKind[k.kind],
  promptfooPeer: WITH_PEER ? last(pf)?.passByKind[k.kind] : undefined,
  truthFull: truth.full.pass[k.evallensTruth ?? k.truth],
  evallensFull: last(elFull)?.passByKind[k.kind],
}));
const problems = runs.flatMap((r) =>
  r.problems.map((p) => `${r.tool} (${r.cases} cases) ${r.warmup ? 'warm-up' : `round ${r.round}`}: ${p}`),
);
for (const a of agreement) {
  if (a.evallensPeer !== a.truthPeer)
    problems.push(`EvalLens ${a.kind}: ${a.evallensPeer} passes on ${M} cases, ground truth ${a.truthPeer}`);
  if (a.evallensFull !== a.truthFull)
    problems.push(`EvalLens ${a.kind}: ${a.evallensFull} passes on ${N} cases, ground truth ${a.truthFull}`);
  if (WITH_PEER && a.promptfooPeer !== a.truthPeerPromptfoo)
    problems.push(`promptfoo ${a.kind}: ${a.promptfooPeer} passes on ${M} cases, ground truth ${a.truthPeerPromptfoo}`);
}
const truthPassTotal = KINDS.reduce((sum, k) => sum + truth.peer.pass[k.truth], 0);
for (const r of pfnw) {
  if (r.assertPassTotal !== truthPassTotal)
    problems.push(
      `promptfoo --no-write round ${r.round}: ${r.assertPassTotal} assertions passed in all, ground truth ${truthPassTotal}`,
    );
}
for (const [name, xs] of [
  ['EvalLens peer', elPeer],
  ['promptfoo', pf],
  ['EvalLens full', elFull],
]) {
  if (xs.length && !consistent(xs)) problems.push(`${name}: pass counts differ between rounds`);
}

// --- Report -----------------------------------------------------------------------------------------

const sec = (ms) => (ms / 1000).toFixed(2);
const spread = (st, f) => `${f(st.median)} (${f(st.min)}–${f(st.max)})`;
const mb = (x) => x.toFixed(0);
const fmtInt = (x) => (x === undefined ? '–' : Math.round(x).toLocaleString('en-US'));
const lines = [];
lines.push(`## EvalLens benchmark — ${machine.date.slice(0, 10)}`);
lines.push('');
lines.push(
  `Machine: ${machine.nproc} cores (${machine.cpuModel}), ${machine.totalMemGiB} GiB RAM, ${machine.platform}, Node ${machine.node}. ` +
    `EvalLens ${machine.evallens} (${machine.evallensCommit})${WITH_PEER ? `, promptfoo ${machine.promptfoo}` : ''}. ` +
    `Load average at start ${machine.loadAvgAtStart.join(' / ')}, at end ${machine.loadAvgAtEnd.join(' / ')}.`,
);
lines.push(
  `${ROUNDS} measured rounds after ${WARMUP} warm-up; medians with (min–max). Whole processes: wall time around the spawn, peak RSS from GNU time. ` +
    `EvalLens concurrency: ${CONCURRENCY ?? 'CLI default'}${WITH_PEER ? `; promptfoo -j ${PEER_JOBS}` : ''}.`,
);
lines.push('');
if (WITH_PEER) {
  lines.push(`### Side by side: ${fmtInt(M)} cases × 5 assertions`);
  lines.push('');
  const cols = [
    ['EvalLens', s.evallensPeer],
    ['promptfoo', s.promptfooPeer],
    ...(WITH_NO_WRITE ? [['promptfoo --no-write', s.promptfooNoWritePeer]] : []),
  ];
  const rr = (xs) => `per round ${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}×`;
  lines.push(`| | ${cols.map((c) => c[0]).join(' | ')} |`);
  lines.push(`|---|${cols.map(() => '---:').join('|')}|`);
  lines.push(`| wall time, s | ${cols.map((c) => spread(c[1].wallMs, sec)).join(' | ')} |`);
  lines.push(
    `| **wall time ÷ EvalLens's** | 1 | **${ratio.toFixed(1)}×** (${rr(roundRatios)}) |${WITH_NO_WRITE ? ` **${ratioNoWrite.toFixed(1)}×** (${rr(roundRatiosNoWrite)}) |` : ''}`,
  );
  lines.push(`| CPU time (user+sys), s | ${cols.map((c) => spread(c[1].cpuS, (x) => x.toFixed(2))).join(' | ')} |`);
  lines.push(`| peak RSS, MB | ${cols.map((c) => spread(c[1].peakRssMb, mb)).join(' | ')} |`);
  lines.push(
    `| evaluations / s (whole process) | ${cols.map((c) => fmtInt((M * 5) / (c[1].wallMs.median / 1000))).join(' | ')} |`,
  );
  lines.push('');
}
lines.push(`### EvalLens alone: ${fmtInt(N)} cases × 5 scorers (targets from the issue)`);
lines.push('');
lines.push('| | median (min–max) | target | met |');
lines.push('|---|---:|---:|:---:|');
lines.push(`| wall time, s | ${spread(s.evallensFull.wallMs, sec)} | | |`);
lines.push(
  `| evaluations / s (whole process) | ${fmtInt(evalsPerSec)} | ≥ ${fmtInt(TARGET_EVALS_PER_SEC)} | ${targets.evalsPerSec.met ? 'yes' : '**no**'} |`,
);
lines.push(
  `| peak RSS, MB | ${spread(s.evallensFull.peakRssMb, mb)} | < ${TARGET_RSS_MB} | ${targets.peakRssMb.met ? 'yes' : '**no**'} |`,
);
if (s.evallensFull.inProcessMs)
  lines.push(
    `| run duration reported by EvalLens (report.durationMs), s | ${spread(s.evallensFull.inProcessMs, sec)} (${fmtInt(evalsPerSecInProcess)} evals/s) | | |`,
  );
lines.push(`| CPU time (user+sys), s | ${spread(s.evallensFull.cpuS, (x) => x.toFixed(2))} | | |`);
lines.push('');
if (elOld.length > 0) {
  const old = { wallMs: stat(elOld, 'wallMs'), peakRssMb: stat(elOld, 'peakRssMb'), cpuS: stat(elOld, 'cpuS') };
  lines.push(
    `Beside it in the same rounds, the build given with \`--old\` (${OLD_CLI}) on the same ${fmtInt(N)} cases:`,
  );
  lines.push('');
  lines.push('| | this build | --old build | old ÷ this |');
  lines.push('|---|---:|---:|---:|');
  lines.push(
    `| wall time, s | ${spread(s.evallensFull.wallMs, sec)} | ${spread(old.wallMs, sec)} | ${(old.wallMs.median / s.evallensFull.wallMs.median).toFixed(2)}× |`,
  );
  lines.push(
    `| evaluations / s (whole process) | ${fmtInt(evalsPerSec)} | ${fmtInt((N * KINDS.length) / (old.wallMs.median / 1000))} | |`,
  );
  lines.push(
    `| CPU time (user+sys), s | ${spread(s.evallensFull.cpuS, (x) => x.toFixed(2))} | ${spread(old.cpuS, (x) => x.toFixed(2))} | ${(old.cpuS.median / s.evallensFull.cpuS.median).toFixed(2)}× |`,
  );
  lines.push(`| peak RSS, MB | ${spread(s.evallensFull.peakRssMb, mb)} | ${spread(old.peakRssMb, mb)} | |`);
  lines.push('');
}
lines.push("### Same work: passes per assertion kind (checked every run against the generator's ground truth)");
lines.push('');
lines.push(
  `| assertion | ground truth (${fmtInt(M)}) | EvalLens (${fmtInt(M)}) | ${WITH_PEER ? `promptfoo (${fmtInt(M)}) | ` : ''}ground truth (${fmtInt(N)}) | EvalLens (${fmtInt(N)}) |`,
);
lines.push(`|---|---:|---:|${WITH_PEER ? '---:|' : ''}---:|---:|`);
for (const a of agreement) {
  lines.push(
    `| ${a.kind} | ${fmtInt(a.truthPeer)} | ${fmtInt(a.evallensPeer)} | ${WITH_PEER ? `${fmtInt(a.promptfooPeer)} | ` : ''}${fmtInt(a.truthFull)} | ${fmtInt(a.evallensFull)} |`,
  );
}
if (WITH_NO_WRITE)
  lines.push(
    `| all five, passes in total (promptfoo --no-write keeps only this total: ${fmtInt(last(pfnw)?.assertPassTotal)}) | ${fmtInt(truthPassTotal)} | ${fmtInt(KINDS.reduce((x, k) => x + (last(elPeer)?.passByKind[k.kind] ?? 0), 0))} | ${fmtInt(KINDS.reduce((x, k) => x + (last(pf)?.passByKind[k.kind] ?? 0), 0))} | ${fmtInt(KINDS.reduce((x, k) => x + truth.full.pass[k.evallensTruth ?? k.truth], 0))} | ${fmtInt(KINDS.reduce((x, k) => x + (last(elFull)?.passByKind[k.kind] ?? 0), 0))} |`,
  );
lines.push(
  `| results per run | ${fmtInt(M * 5)} | ${fmtInt(last(elPeer)?.results)} | ${WITH_PEER ? `${fmtInt(last(pf)?.results)} | ` : ''}${fmtInt(N * 5)} | ${fmtInt(last(elFull)?.results)} |`,
);
lines.push('');
lines.push(
  problems.length
    ? `**Problems:**\n${problems.map((p) => `- ${p}`).join('\n')}`
    : 'Checks: every run produced cases × 5 results and the pass counts above, equal to the ground truth, in every round.',
);
lines.push('');
lines.push('<details><summary>Every run</summary>');
lines.push('');
lines.push('| round | tool | cases | wall s | CPU s | peak RSS MB |');
lines.push('|---|---|---:|---:|---:|---:|');
for (const r of runs)
  lines.push(
    `| ${r.warmup ? 'warm-up' : r.round} | ${r.tool} | ${fmtInt(r.cases)} | ${sec(r.wallMs)} | ${r.cpuS.toFixed(2)} | ${mb(r.peakRssMb)} |`,
  );
lines.push('');
lines.push('</details>');
const markdown = `${lines.join('\n')}\n`;

writeFileSync(join(OUT, 'results.md'), markdown);
writeFileSync(
  join(OUT, 'results.json'),
  `${JSON.stringify(
    {
      machine,
      settings: {
        rounds: ROUNDS,
        warmup: WARMUP,
        cases: N,
        peerCases: M,
        concurrency: CONCURRENCY ?? null,
        peerJobs: WITH_PEER ? PEER_JOBS : null,
        peerNoWrite: WITH_NO_WRITE,
      },
      summary: s,
      ratioPromptfooOverEvalLens: ratio === undefined ? null : round(ratio, 2),
      perRoundRatios: roundRatios.map((x) => round(x, 2)),
      ratioPromptfooNoWriteOverEvalLens: ratioNoWrite === undefined ? null : round(ratioNoWrite, 2),
      perRoundRatiosNoWrite: roundRatiosNoWrite.map((x) => round(x, 2)),
      evalsPerSecWholeProcess: round(evalsPerSec),
      evalsPerSecInProcess: round(evalsPerSecInProcess),
      targets,
      agreement,
      groundTruth: truth,
      problems,
      runs: runs.map(({ stderr, ...r }) => r),
    },
    null,
    2,
  )}\n`,
);
console.log('');
console.log(markdown);
console.log(`written: ${join(OUT, 'results.md')}, ${join(OUT, 'results.json')}`);
process.exitCode = problems.length ? 1 : 0;
