#!/usr/bin/env node
// EvalBench-format trace benchmark: the same N recorded agent conversations in three files, through
// EvalBench's 8 trace scorers, side by side in one run (issue 12, item 11: "bring EvalBench-format
// traces to within 2× of the native format's throughput and under 300 MB").
//
//   npm run build && node bench/evalbench-traces.mjs [options]
//
// Options:
//   --cases N      conversations (default 10000)
//   --rounds K     measured rounds (default 3)
//   --warmup W     unmeasured rounds before them (default 1)
//   --out DIR      data, configs, reports and results (default bench/out/evalbench-traces)
//   --cli PATH     the EvalLens CLI to run (default dist/cli.js)
//
// The three formats, each its own config (DIR/<format>.eval.yaml, the same 8 scorers):
//   native    native.jsonl: EvalLens's trace format (`steps`, `turns`), one case per line
//   jsonl     evalbench.jsonl: the EvalBench recording as a case's trace ({conversation_history:
//             <JSON text of {user, agent: <JSON text>} turns>, accumulated_tools}), one case per line
//   evalset   evalbench-evalset.json: an EvalBench agent evalset ({"scenarios": [...]}) whose scenarios
//             carry the recording, as EvalBench's eval outputs hold it: one JSON document
// The recordings are written as EvalBench 2026-06 writes them: the harness's stdout is
// json.dumps(final_obj, indent=2) with `tool_calls` [{tool_id, tool_name, parameters, status,
// response, timestamp, result_timestamp}] and `stats` (models, tools.byName) for Gemini CLI, Claude
// Code and Codex, and `stats` alone for agy. The history is json.dumps(turns, indent=2).
//
// Every run is checked: the JSON report must hold N × 8 results and each scorer's pass/fail counts
// must equal the ground truth computed here from the generated data (no EvalLens code). Wall time is
// process.hrtime around the spawn, peak RSS and CPU from GNU time. Exit 1 when a check failed.
// No Math.random: a seeded sfc32 PRNG (bench/lib/random.mjs), so the files are the same on every run.

import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import os from 'node:os';
import { makeRng } from './lib/random.mjs';
import { readReport } from './lib/report.mjs';
import { capture, round, stat } from './lib/stats.mjs';
import { failure, wholeNumber } from './lib/args.mjs';
import { GNU_TIME, measure } from './lib/measure.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
const SEED = 20260610;
const GENERATOR_HASH = createHash('sha256')
  .update(readFileSync(fileURLToPath(import.meta.url)))
  .digest('hex')
  .slice(0, 16);
/** The issue's bounds. */
const RATIO_BOUND = 2;
const RSS_BOUND_MB = 300;

const { values: args } = parseArgs({
  options: {
    cases: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '1' },
    out: { type: 'string' },
    cli: { type: 'string' },
  },
});
const die = failure('evalbench-traces.mjs');
const int = wholeNumber(die);
const N = int(args.cases, 'cases', 1);
const ROUNDS = int(args.rounds, 'rounds', 1);
const WARMUP = int(args.warmup, 'warmup', 0);
const OUT = args.out ? resolve(args.out) : join(HERE, 'out', 'evalbench-traces');
const CLI = args.cli ? resolve(args.cli) : join(ROOT, 'dist', 'cli.js');

// --- The scorers: EvalBench's 8 trace scorers -------------------------------------------------------

const LIMITS = {
  turn_count: 2,
  agent_steps: 8,
  end_to_end_latency: 20_000,
  tool_call_latency: 5_000,
  token_consumption: 15_000,
  tokens_processed: 25_000,
  effective_billed_tokens: 15_000,
};
const SCORERS = {
  trajectory_matcher: {},
  ...Object.fromEntries(Object.entries(LIMITS).map(([k, v]) => [k, { threshold: v, lower_is_better: true }])),
};
const KEYS = Object.keys(SCORERS);
const FORMATS = [
  { id: 'native', file: 'native.jsonl', label: 'native trace (JSONL)' },
  { id: 'jsonl', file: 'evalbench.jsonl', label: 'EvalBench recording (JSONL)' },
  { id: 'evalset', file: 'evalbench-evalset.json', label: 'EvalBench evalset (JSON)' },
];

// --- The simulated agent ----------------------------------------------------------------------------

const MCP = [
  'cloud-sql__list_instances',
  'cloud-sql__get_instance',
  'cloud-sql__execute_sql',
  'cloud-sql__list_databases',
  'bigquery__run_query',
  'bigquery__list_datasets',
  'monitoring__query_metrics',
];
const HARNESSES = [
  {
    id: 'gemini',
    share: 0.35,
    model: 'gemini-2.5-pro',
    native: ['read_file', 'run_shell_command', 'glob', 'update_topic'],
  },
  { id: 'claude', share: 0.3, model: 'claude-sonnet-4-5', native: ['Read', 'Bash', 'ToolSearch', 'Grep'] },
  { id: 'codex', share: 0.2, model: 'gpt-5-codex', native: ['shell', 'apply_patch'] },
  { id: 'agy', share: 0.15, model: 'gemini-3-pro', native: ['view_file', 'run_command', 'grep_search'] },
];
const weighted = (rng, list) => {
  let x = rng.rand();
  for (const item of list) if ((x -= item.share) < 0) return item;
  return list[list.length - 1];
};

function params(rng, tool) {
  if (tool.includes('sql') || tool.includes('query'))
    return {
      sql: `SELECT region, count(*) AS n FROM orders WHERE created_at > now() - interval '${rng.int(1, 30)} days' GROUP BY region ORDER BY n DESC LIMIT ${rng.int(5, 50)}`,
      project: 'acme-prod',
    };
  if (tool.startsWith('cloud-sql') || tool.startsWith('monitoring'))
    return { project: 'acme-prod', instance: `orders-db-${rng.int(1, 9)}`, region: 'europe-west1' };
  if (tool.startsWith('bigquery')) return { project: 'acme-analytics', location: 'EU' };
  return { path: `/workspace/src/module_${rng.int(1, 99)}/README.md`, limit: rng.int(50, 400) };
}

function response(rng, tool) {
  if (tool.includes('sql') || tool.includes('query'))
    return JSON.stringify(
      Array.from({ length: rng.int(2, 5) }, (_, i) => ({ region: `region-${i}`, n: rng.int(1, 9000) })),
    );
  if (tool.includes('list'))
    return JSON.stringify(
      Array.from({ length: rng.int(2, 5) }, (_, i) => ({ name: `item-${i}-${rng.digits(4)}`, state: 'READY' })),
    );
  return `# Notes\n${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(rng.int(1, 3))}`;
}

const iso = (ms) => new Date(Date.UTC(2026, 5, 10) + ms).toISOString();

/** One conversation in the three formats, and the verdict each scorer must give on it. */
function makeConversation(rng, index) {
  const harness = weighted(rng, HARNESSES);
  const id = `conv-${String(index + 1).padStart(6, '0')}`;
  const turns = rng.int(1, 3);
  const history = [];
  const steps = [];
  const turnFigures = [];
  const accumulated = [];
  const called = new Set();
  let clock = 0;
  let calls = 0;
  let toolMs = 0;
  let modelMs = 0;
  let total = 0;
  let processed = 0;
  let billed = 0;
  for (let t = 0; t < turns; t++) {
    const user =
      t === 0
        ? `How many orders did each region get last week on orders-db-${rng.int(1, 9)}?`
        : rng.pick(['And the week before?', 'Break it down by day.', 'Which instance serves that?']);
    steps.push({ type: 'message', role: 'user', content: user, turn: t });
    const n = rng.int(1, 4);
    const toolCalls = [];
    let turnToolMs = 0;
    for (let c = 0; c < n; c++) {
      const name = rng.chance(0.7) ? rng.pick(MCP) : rng.pick(harness.native);
      const duration = rng.int(40, 1500);
      const failed = rng.chance(0.05);
      const call = {
        tool_id: `${harness.id}-${index}-${calls}`,
        tool_name: name,
        parameters: params(rng, name),
        status: failed ? 'error' : 'success',
        response: failed ? 'permission denied' : response(rng, name),
        timestamp: iso(clock),
        result_timestamp: iso(clock + duration),
      };
      toolCalls.push(call);
      steps.push({
        type: 'tool_call',
        id: call.tool_id,
        name,
        arguments: call.parameters,
        ...(failed ? { error: 'permission denied' } : { result: call.response }),
        start_ms: clock,
        end_ms: clock + duration,
        duration_ms: duration,
        turn: t,
      });
      clock += duration + rng.int(50, 400);
      turnToolMs += duration;
      calls += 1;
      called.add(name);
    }
    const latency = rng.int(1500, 9000);
    clock += latency;
    const input = rng.int(2000, 9000);
    const cached = harness.id === 'agy' ? 0 : rng.int(0, 12000);
    const out = harness.id === 'agy' ? 0 : rng.int(100, 1500);
    const cacheCreation = harness.id === 'claude' ? rng.int(0, 3000) : 0;
    const tokens =
      harness.id === 'agy'
        ? { input: 0, prompt: 0, candidates: 0, total: 0, cached: 0, thoughts: 0, tool: 0 }
        : {
            input,
            prompt: input,
            candidates: out,
            total: input + out,
            cached,
            ...(harness.id === 'claude' ? { cache_creation: cacheCreation } : {}),
            thoughts: 0,
            tool: 0,
          };
    const byName = {};
    for (const call of toolCalls) {
      const slot = (byName[call.tool_name] ??= {
        count: 0,
        success: 0,
        fail: 0,
        durationMs: 0,
        parameters: [],
        decisions: { accept: 0, reject: 0, modify: 0, auto_accept: 0 },
      });
      slot.count += 1;
      slot[call.status === 'success' ? 'success' : 'fail'] += 1;
      slot.durationMs += Date.parse(call.result_timestamp) - Date.parse(call.timestamp);
      slot.parameters.push(call.parameters);
      slot.decisions.accept += 1;
      slot.decisions.auto_accept += 1;
    }
    const answer =
      t === turns - 1 ? `Region counts: ${rng.digits(4)} / ${rng.digits(4)} / ${rng.digits(3)}.` : 'Let me check that.';
    const stats = {
      models: { [harness.model]: { api: { totalRequests: 1, totalErrors: 0, totalLatencyMs: latency }, tokens } },
      tools: {
        totalCalls: n,
        totalSuccess: toolCalls.filter((c) => c.status === 'success').length,
        totalFail: toolCalls.filter((c) => c.status !== 'success').length,
        totalDurationMs: turnToolMs,
        decisions: { accept: n, reject: 0, modify: 0, auto_accept: n },
        byName,
      },
    };
    const agent =
      harness.id === 'agy'
        ? { session_id: id, response: answer, stats }
        : { session_id: id, response: answer, stats, tool_calls: toolCalls };
    history.push({ user, agent: JSON.stringify(agent, null, 2) });
    accumulated.push(...Object.keys(byName));
    steps.push({ type: 'message', role: 'assistant', content: answer, turn: t });
    const nativeTokens = { ...tokens };
    if (nativeTokens.cache_creation === undefined) nativeTokens.cache_creation = 0;
    turnFigures.push({ tokens: nativeTokens, model_latency_ms: latency, tool_duration_ms: turnToolMs, tool_calls: n });
    toolMs += turnToolMs;
    modelMs += latency;
    total += tokens.total;
    processed += tokens.input + tokens.candidates + tokens.cached + (tokens.cache_creation ?? 0);
    billed += tokens.input + 0.1 * tokens.cached + 1.25 * (tokens.cache_creation ?? 0) + 5 * tokens.candidates;
  }
  // Expected trajectory: the MCP tools called, sometimes one missing or one extra.
  const mcpCalled = [...called].filter((name) => MCP.includes(name));
  const trajectory = [...mcpCalled];
  const roll = rng.rand();
  if (roll < 0.2 && trajectory.length > 1) trajectory.pop();
  else if (roll < 0.35) trajectory.push('cloud-sql__create_backup');
  const expectedSet = new Set(trajectory);
  const trajectoryPass = expectedSet.size === mcpCalled.length && mcpCalled.every((name) => expectedSet.has(name));
  const figures = {
    turn_count: turns,
    agent_steps: calls,
    end_to_end_latency: toolMs + modelMs,
    tool_call_latency: toolMs,
    token_consumption: total,
    tokens_processed: processed,
    effective_billed_tokens: billed,
  };
  const truth = {
    trajectory_matcher: trajectoryPass ? 'pass' : 'fail',
    ...Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, v <= LIMITS[k] ? 'pass' : 'fail'])),
  };
  const input = history[0].user;
  const conversation = JSON.stringify(history, null, 2);
  return {
    truth,
    native: { id, input, expected: { trajectory }, trace: { steps, turns: turnFigures, latency_ms: clock } },
    evalbench: {
      id,
      input,
      expected: { trajectory },
      trace: { conversation_history: conversation, accumulated_tools: accumulated },
    },
    scenario: {
      id,
      starting_prompt: input,
      conversation_plan: 'Ask for the counts, then a breakdown.',
      expected_trajectory: trajectory,
      max_turns: turns,
      conversation_history: conversation,
      accumulated_tools: accumulated,
      accumulated_skills: [],
    },
  };
}

async function write(stream, text) {
  if (!stream.write(text)) await once(stream, 'drain');
}

async function generate() {
  mkdirSync(OUT, { recursive: true });
  const rng = makeRng(SEED);
  const files = Object.fromEntries(FORMATS.map((f) => [f.id, createWriteStream(join(OUT, f.file))]));
  const counts = {};
  await write(files.evalset, '{\n"scenarios": [\n');
  for (let i = 0; i < N; i++) {
    const c = makeConversation(rng, i);
    for (const [scorer, status] of Object.entries(c.truth)) {
      counts[scorer] ??= {};
      counts[scorer][status] = (counts[scorer][status] ?? 0) + 1;
    }
    await write(files.native, `${JSON.stringify(c.native)}\n`);
    await write(files.jsonl, `${JSON.stringify(c.evalbench)}\n`);
    await write(files.evalset, `${i === 0 ? '' : ',\n'}${JSON.stringify(c.scenario)}`);
  }
  await write(files.evalset, '\n]\n}\n');
  for (const stream of Object.values(files)) {
    stream.end();
    await once(stream, 'finish');
  }
  const yaml = Object.entries(SCORERS)
    .map(
      ([k, v]) =>
        `  ${k}:${
          Object.keys(v).length === 0
            ? ' {}'
            : `\n${Object.entries(v)
                .map(([o, x]) => `    ${o}: ${x}`)
                .join('\n')}`
        }`,
    )
    .join('\n');
  for (const f of FORMATS) {
    writeFileSync(
      join(OUT, `${f.id}.eval.yaml`),
      `# Generated by bench/evalbench-traces.mjs: ${N} conversations, ${f.label}, EvalBench's 8 trace scorers.\ndescription: "EvalBench trace bench, ${f.id}"\ndataset: "${f.file}"\nscorers:\n${yaml}\n`,
    );
  }
  const bytes = Object.fromEntries(FORMATS.map((f) => [f.id, statSync(join(OUT, f.file)).size]));
  const truth = { generator: GENERATOR_HASH, seed: SEED, cases: N, bytes, counts };
  writeFileSync(join(OUT, 'truth.json'), `${JSON.stringify(truth, null, 2)}\n`);
  return truth;
}

async function runFormat(format, truth) {
  const report = join(OUT, `report-${format.id}.json`);
  const runsDir = join(OUT, `runs-${format.id}`);
  rmSync(report, { force: true });
  rmSync(runsDir, { recursive: true, force: true });
  const m = await measure(
    [
      process.execPath,
      CLI,
      'run',
      join(OUT, `${format.id}.eval.yaml`),
      '--reporter',
      'json',
      '--out',
      report,
      '--runs-dir',
      runsDir,
    ],
    { cwd: ROOT, scratch: OUT, okCodes: [0, 1] },
  );
  const statuses = {};
  let results = 0;
  const { durationMs } = await readReport(report, {
    onResult: (r) => {
      results += 1;
      statuses[r.scorer] ??= {};
      statuses[r.scorer][r.status] = (statuses[r.scorer][r.status] ?? 0) + 1;
    },
  });
  rmSync(runsDir, { recursive: true, force: true });
  const problems = [];
  if (results !== N * KEYS.length) problems.push(`${results} results, expected ${N} x ${KEYS.length}`);
  const show = (x) =>
    Object.entries(x ?? {})
      .sort()
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
  for (const key of KEYS) {
    const got = statuses[key] ?? {};
    const want = truth.counts[key];
    if (!Object.keys({ ...got, ...want }).every((k) => (got[k] ?? 0) === (want[k] ?? 0)))
      problems.push(`${key}: ${show(got)}; ground truth ${show(want)}`);
  }
  return {
    format: format.id,
    wallMs: round(m.wallMs, 1),
    runMs: durationMs,
    peakRssMb: round(m.peakRssMb, 1),
    cpuS: round(m.cpuS, 2),
    problems,
  };
}

// --- Main -------------------------------------------------------------------------------------------

if (!existsSync(GNU_TIME)) die(`${GNU_TIME} (GNU time) is missing; install it with: apt-get install -y time`);
if (!existsSync(CLI)) die(`${CLI} is missing; build it first: npm run build`);
mkdirSync(OUT, { recursive: true });
let truth = existsSync(join(OUT, 'truth.json')) ? JSON.parse(readFileSync(join(OUT, 'truth.json'), 'utf8')) : undefined;
if (
  !truth ||
  truth.generator !== GENERATOR_HASH ||
  truth.cases !== N ||
  FORMATS.some((f) => !existsSync(join(OUT, f.file)))
) {
  console.log(`generating ${N} conversations into ${relative(ROOT, OUT)} ...`);
  truth = await generate();
}
const mb = (bytes) => (bytes / 2 ** 20).toFixed(0);
const machine = {
  date: new Date().toISOString(),
  nproc: capture('nproc', []),
  cpuModel: os.cpus()[0]?.model ?? 'unknown',
  node: process.version,
  evallensCommit: `${capture('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'])}${capture('git', ['-C', ROOT, 'status', '--porcelain', '--', 'core', 'cli']).length > 0 ? ' + uncommitted changes' : ''}`,
  loadAvgAtStart: os.loadavg().map((x) => round(x, 2)),
};
console.log(
  `evalbench trace bench: ${N} conversations x ${KEYS.length} scorers; files ${FORMATS.map((f) => `${f.id} ${mb(truth.bytes[f.id])} MB`).join(', ')}; ${ROUNDS} rounds (+${WARMUP} warm-up)`,
);
const runs = [];
for (let r = 0; r < WARMUP + ROUNDS; r++) {
  const warm = r < WARMUP;
  for (let i = 0; i < FORMATS.length; i++) {
    const format = FORMATS[(i + r) % FORMATS.length];
    const run = { ...(await runFormat(format, truth)), round: warm ? null : r - WARMUP + 1 };
    runs.push(run);
    console.log(
      `  ${warm ? 'warm-up' : `round ${run.round}/${ROUNDS}`}: ${format.id.padEnd(8)} ${(run.wallMs / 1000).toFixed(2).padStart(6)} s wall, ${(run.runMs / 1000).toFixed(2).padStart(6)} s run, ${run.peakRssMb.toFixed(0).padStart(5)} MB${run.problems.length ? `  PROBLEM: ${run.problems.join('; ')}` : ''}`,
    );
  }
}
machine.loadAvgAtEnd = os.loadavg().map((x) => round(x, 2));

const evaluations = N * KEYS.length;
const summary = {};
for (const f of FORMATS) {
  const rs = runs.filter((r) => r.round !== null && r.format === f.id);
  const s = {
    wallMs: stat(rs, 'wallMs'),
    runMs: stat(rs, 'runMs'),
    peakRssMb: stat(rs, 'peakRssMb'),
    cpuS: stat(rs, 'cpuS'),
  };
  s.evalsPerSecWall = evaluations / (s.wallMs.median / 1000);
  s.evalsPerSecRun = evaluations / (s.runMs.median / 1000);
  summary[f.id] = s;
}
const ratio = (id) => ({
  wall: summary[id].wallMs.median / summary.native.wallMs.median,
  run: summary[id].runMs.median / summary.native.runMs.median,
});
const ratios = { jsonl: ratio('jsonl'), evalset: ratio('evalset') };
const problems = runs.flatMap((r) =>
  r.problems.map((p) => `${r.format} ${r.round === null ? 'warm-up' : `round ${r.round}`}: ${p}`),
);
const holds = (id) => ratios[id].wall <= RATIO_BOUND && summary[id].peakRssMb.max <= RSS_BOUND_MB;

const fmt = (x) => Math.round(x).toLocaleString('en-US');
const spread = (st, f) => `${f(st.median)} (${f(st.min)}–${f(st.max)})`;
const sec = (ms) => (ms / 1000).toFixed(2);
const lines = [];
lines.push(`#### EvalBench-format traces — ${machine.date.slice(0, 10)}`);
lines.push('');
lines.push(
  `Machine: ${machine.nproc} cores (${machine.cpuModel}), Node ${machine.node}, EvalLens ${machine.evallensCommit}; load ${machine.loadAvgAtStart.join(' / ')} at start, ${machine.loadAvgAtEnd.join(' / ')} at end. ` +
    `${fmt(N)} conversations × ${KEYS.length} scorers (${KEYS.join(', ')}) = ${fmt(evaluations)} evaluations per run; ${ROUNDS} measured rounds after ${WARMUP} warm-up, order rotating; medians (min–max).`,
);
lines.push('');
lines.push(`| | ${FORMATS.map((f) => `${f.label}, ${mb(truth.bytes[f.id])} MB`).join(' | ')} |`);
lines.push('|---|---:|---:|---:|');
lines.push(`| wall time, s | ${FORMATS.map((f) => spread(summary[f.id].wallMs, sec)).join(' | ')} |`);
lines.push(`| run (durationMs), s | ${FORMATS.map((f) => spread(summary[f.id].runMs, sec)).join(' | ')} |`);
lines.push(
  `| **evaluations / s, whole process** | ${FORMATS.map((f) => `**${fmt(summary[f.id].evalsPerSecWall)}**`).join(' | ')} |`,
);
lines.push(`| evaluations / s, run | ${FORMATS.map((f) => fmt(summary[f.id].evalsPerSecRun)).join(' | ')} |`);
lines.push(
  `| **peak RSS, MB** | ${FORMATS.map((f) => `**${spread(summary[f.id].peakRssMb, (x) => x.toFixed(0))}**`).join(' | ')} |`,
);
lines.push(
  `| CPU (user+sys), s | ${FORMATS.map((f) => spread(summary[f.id].cpuS, (x) => x.toFixed(2))).join(' | ')} |`,
);
lines.push(
  `| time ÷ native (wall / run) | 1 | ${ratios.jsonl.wall.toFixed(2)}× / ${ratios.jsonl.run.toFixed(2)}× | ${ratios.evalset.wall.toFixed(2)}× / ${ratios.evalset.run.toFixed(2)}× |`,
);
lines.push('');
lines.push(
  `Bounds (≤ ${RATIO_BOUND}× the native wall time, peak RSS ≤ ${RSS_BOUND_MB} MB): EvalBench JSONL ${holds('jsonl') ? 'holds' : 'missed'}, EvalBench evalset ${holds('evalset') ? 'holds' : 'missed'}.`,
);
lines.push('');
lines.push(
  problems.length
    ? `**Problems:**\n${problems.map((p) => `- ${p}`).join('\n')}`
    : `Checks: every run had ${fmt(evaluations)} results and each scorer's pass/fail counts equal to the ground truth (${KEYS.map((k) => `${k} ${truth.counts[k].pass ?? 0}/${truth.counts[k].fail ?? 0}`).join(', ')}).`,
);
const markdown = `${lines.join('\n')}\n`;
writeFileSync(join(OUT, 'results.md'), markdown);
writeFileSync(
  join(OUT, 'results.json'),
  `${JSON.stringify({ machine, settings: { cases: N, rounds: ROUNDS, warmup: WARMUP }, scorers: SCORERS, summary, ratios, truth, problems, runs }, null, 2)}\n`,
);
console.log('');
console.log(markdown);
process.exitCode = problems.length ? 1 : 0;
