#!/usr/bin/env node
// Language-server benchmark: EvalLens's server (dist/server.js) side by side with yaml-language-server
// 2.0.0 given EvalLens's published schemas/run-config.schema.json, in one run, on the same file.
//
//   bash bench/peers-yaml-ls.sh && npm run build && node bench/lsp.mjs [options]
//
// Options:
//   --rounds K        measured rounds (default 3); each starts both servers afresh, in alternating order
//   --changes N       one-line changes per round (default 40; the first 5 are warm-up, not counted)
//   --completions C   completion requests per round (default 60; the first 5 are warm-up)
//   --rss-configs M   configs opened for the memory figure (default 50)
//   --no-peer         EvalLens only
//   --peer DIR        yaml-language-server's package folder (default
//                     bench/.peers/yaml-language-server/node_modules/yaml-language-server)
//   --old DIR         also an older EvalLens build's server (DIR/server.js, a copy of dist/ with
//                     node_modules beside it): its first open beside this one's, in the same rounds
//   --out DIR         where the configs and results go (default bench/out/lsp)
//
// Every latency is measured over real stdio JSON-RPC, as an editor sees it: from sending the
// notification or request to receiving its answer (publishDiagnostics, or the response). A change is
// sent the way each server asks for it: the whole text to a server that declares full sync (EvalLens),
// the one changed line as a ranged edit to one that declares incremental sync (yaml-language-server).
// Writes DIR/results.md (also printed) and DIR/results.json.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { caughtBy, countKinds, elsewhere } from './lsp-kinds.mjs';
import { generateLspConfig } from './lsp-config.mjs';
import { CompletionRequestMethod, cpuTimeOf, isMethodNotFound, memoryOf, startLanguageServer } from './lsp-client.mjs';
import { capture, median, round } from './lib/stats.mjs';
import { failure, wholeNumber } from './lib/args.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
const SCHEMA = join(ROOT, 'schemas', 'run-config.schema.json');
const WARMUP = 5;

const { values: opts } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    changes: { type: 'string', default: '40' },
    completions: { type: 'string', default: '60' },
    'rss-configs': { type: 'string', default: '50' },
    'no-peer': { type: 'boolean', default: false },
    old: { type: 'string' },
    peer: { type: 'string' },
    out: { type: 'string', default: join(HERE, 'out', 'lsp') },
  },
});
const int = wholeNumber(failure('lsp.mjs'));
const ROUNDS = int(opts.rounds, 'rounds', 1);
const CHANGES = int(opts.changes, 'changes', 1);
const COMPLETIONS = int(opts.completions, 'completions', 1);
const RSS_CONFIGS = int(opts['rss-configs'], 'rss-configs', 1);
const OUT = resolve(opts.out);
const PEER_PKG = resolve(
  opts.peer ?? join(HERE, '.peers', 'yaml-language-server', 'node_modules', 'yaml-language-server'),
);

/** p-th percentile, nearest rank (p in 0–100). */
const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? undefined : s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};

const SERVERS = [
  {
    key: 'evallens',
    name: 'EvalLens',
    args: [join(ROOT, 'dist', 'server.js'), '--stdio'],
    languageId: 'evallens-yaml',
    settings: {},
  },
  {
    key: 'yamlls',
    name: 'yaml-language-server',
    args: [join(PEER_PKG, 'bin', 'yaml-language-server'), '--stdio'],
    languageId: 'yaml',
    // The schema comes from the file's modeline; nothing is fetched (schema store and CRD store off).
    settings: {
      yaml: {
        validate: true,
        hover: true,
        completion: true,
        format: { enable: false },
        schemaStore: { enable: false, url: '' },
        kubernetesCRDStore: { enable: false },
        maxItemsComputed: 5000,
      },
      http: {},
      editor: {},
    },
    asksForSettings: true,
  },
];

async function start(spec) {
  const server = await startLanguageServer({
    name: spec.name,
    args: spec.args,
    cwd: OUT,
    ...(spec.env === undefined ? {} : { env: spec.env }),
    settings: spec.settings,
    languageId: spec.languageId,
  });
  if (spec.asksForSettings) await server.whenConfigured();
  return server;
}

/** One round for one server: first diagnostics after didOpen, re-validation after one-line changes, completion. */
async function measureRound(spec, config, uri) {
  const server = await start(spec);
  try {
    const text = config.text;
    const lines = text.split('\n');
    const opened = server.nextDiagnostics(uri);
    const cpu0 = cpuTimeOf(server.pid);
    const t0 = performance.now();
    await server.open(uri, text);
    const first = await opened;
    const firstMs = first.at - t0;
    const firstCpuMs = cpuTimeOf(server.pid) - cpu0;
    // EvalLens publishes a large config's top first, then the complete set: the complete one is the
    // publish equal to what the warm-up's server published last (a server that publishes once: the first).
    const complete =
      spec.complete === undefined
        ? first
        : await server.diagnosticsWhere(uri, (params) => JSON.stringify(params.diagnostics) === spec.complete);
    const completeMs = complete.at - t0;
    const completeCpuMs = complete === first ? firstCpuMs : cpuTimeOf(server.pid) - cpu0;
    const diagnostics = complete.params.diagnostics;

    // One line in the middle of the scorers (a weight) changes each time, to a new value.
    const line = config.changeLine;
    const revalidateMs = [];
    for (let i = 0; i < CHANGES + WARMUP; i++) {
      const newLine = `    weight: ${(i % 9) + 1}.${i}`;
      const replaced = { start: { line, character: 0 }, end: { line, character: lines[line].length } };
      lines[line] = newLine;
      const change = server.incremental ? { range: replaced, text: newLine } : { text: lines.join('\n') };
      const published = server.nextDiagnostics(uri);
      const t = performance.now();
      await server.change(uri, i + 2, [change]);
      const { at } = await published;
      if (i >= WARMUP) revalidateMs.push(at - t);
    }

    const completionMs = [];
    const itemCounts = {};
    let unsupported = false;
    for (let i = 0; i < COMPLETIONS + WARMUP && !unsupported; i++) {
      const site = config.completionSites[(i * 7) % config.completionSites.length];
      const t = performance.now();
      try {
        const answer = await server.request(CompletionRequestMethod, {
          textDocument: { uri },
          position: { line: site.line, character: site.character },
        });
        const ms = performance.now() - t;
        if (i >= WARMUP) completionMs.push(ms);
        const items = Array.isArray(answer) ? answer : (answer?.items ?? []);
        (itemCounts[site.what] ??= []).push(items.length);
      } catch (error) {
        if (!isMethodNotFound(error)) throw error;
        unsupported = true;
      }
    }
    return {
      firstMs,
      firstCpuMs,
      firstCount: first.params.diagnostics.length,
      completeMs,
      completeCpuMs,
      revalidateMs,
      completionMs,
      unsupported,
      itemCounts,
      diagnostics,
      stderr: server.stderr,
      logErrors: [...server.logErrors],
    };
  } finally {
    await server.stop();
  }
}

/**
 * EvalLens reopening the config in a new session (a fresh server process, the same user cache folder,
 * the config's analysis kept by the previous server): didOpen sent → first publishDiagnostics received,
 * and the server's CPU time meanwhile. Then the time until the server has done its full analysis (a
 * hover answers only after it), and whether it published again (only when the kept diagnostics were
 * not the analysis's).
 */
async function measureReopen(spec, uri, text) {
  const server = await start(spec);
  try {
    const opened = server.nextDiagnostics(uri);
    const cpu0 = cpuTimeOf(server.pid);
    const t0 = performance.now();
    await server.open(uri, text);
    const first = await opened;
    const firstMs = first.at - t0;
    const firstCpuMs = cpuTimeOf(server.pid) - cpu0;
    // A hover needs the analysis; the second one is read after the check the first publish scheduled.
    const hover = { textDocument: { uri }, position: { line: 0, character: 0 } };
    await server.request('textDocument/hover', hover);
    const analysedMs = performance.now() - t0;
    await server.request('textDocument/hover', hover);
    const later = server.publishedCount(uri) - 1;
    const last = server.publishLog(uri).at(-1)?.params.diagnostics;
    return { firstMs, firstCpuMs, analysedMs, diagnostics: first.params.diagnostics, later, last };
  } finally {
    await server.stop();
  }
}

/** Memory of a fresh server after opening `count` configs of `entries` scorer entries each. */
async function measureMemory(spec, count, entries) {
  const server = await start(spec);
  try {
    const before = memoryOf(server.pid);
    for (let i = 0; i < count; i++) {
      const config = generateLspConfig({ seed: 1000 + i, entries, schemaUri: pathToFileURL(SCHEMA).href });
      const path = join(OUT, 'rss', `config-${entries}-${i}.eval.yaml`);
      writeFileSync(path, config.text);
      const uri = pathToFileURL(path).href;
      const published = server.nextDiagnostics(uri);
      await server.open(uri, config.text);
      await published;
    }
    return { before, after: memoryOf(server.pid), lines: generateLspConfig({ entries }).lineCount };
  } finally {
    await server.stop();
  }
}

// ---------------------------------------------------------------------------------------------
rmSync(OUT, { recursive: true, force: true });
mkdirSync(join(OUT, 'rss'), { recursive: true });
const config = generateLspConfig({ seed: 6, entries: 500, schemaUri: pathToFileURL(SCHEMA).href });
config.changeLine = config.text.split('\n').findIndex((l, i) => i > config.lineCount / 2 && /^ {4}weight: /.test(l));
const configPath = join(OUT, 'bench.eval.yaml');
writeFileSync(configPath, config.text);
const uri = pathToFileURL(configPath).href;
// EvalLens keeps regex verdicts and analyses in the user's cache folder: the benchmark gives it a
// folder of its own, warmed (regex verdicts) by one unmeasured open, and empties its analyses before
// each measured first open, so "first open" is a config this server has never analysed and "reopen"
// is the same config opened by a new server process after the previous one analysed it.
const CACHE_HOME = join(OUT, 'cache-home');
const ANALYSES = join(CACHE_HOME, 'analyses-v1');
SERVERS[0].env = { ...process.env, EVALLENS_CACHE_HOME: CACHE_HOME };
if (opts.old !== undefined) {
  SERVERS.splice(1, 0, {
    ...SERVERS[0],
    key: 'evallensOld',
    name: 'EvalLens (old build)',
    args: [join(resolve(opts.old), 'server.js'), '--stdio'],
  });
}
const servers = opts['no-peer'] ? SERVERS.filter((s) => s.key !== 'yamlls') : SERVERS;
const peerVersion = opts['no-peer']
  ? undefined
  : JSON.parse(readFileSync(join(PEER_PKG, 'package.json'), 'utf8')).version;

const machine = {
  date: new Date().toISOString().slice(0, 10),
  nproc: capture('nproc', []),
  cpuModel: os.cpus()[0]?.model ?? 'unknown',
  totalMemGiB: round(os.totalmem() / 2 ** 30, 1),
  node: process.version,
  loadAvgAtStart: os.loadavg().map((x) => round(x, 2)),
  evallensCommit: `${capture('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'])}${capture('git', ['-C', ROOT, 'status', '--porcelain']).length > 0 ? ' + uncommitted changes' : ''}`,
  peer: peerVersion,
};

process.stderr.write('warm-up: EvalLens opens the config once (fills its regex verdicts)\n');
// What it published last, after its full analysis, is the complete set every EvalLens build must publish.
const { last: completeSet } = await measureReopen(SERVERS[0], uri, config.text);
for (const spec of servers) if (spec.key.startsWith('evallens')) spec.complete = JSON.stringify(completeSet);
const runs = Object.fromEntries(servers.map((s) => [s.key, []]));
const reopens = [];
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 === 0 ? servers : [...servers].reverse();
  for (const spec of order) {
    process.stderr.write(`round ${r + 1}/${ROUNDS}: ${spec.name}\n`);
    if (spec.key.startsWith('evallens')) rmSync(ANALYSES, { recursive: true, force: true });
    runs[spec.key].push(await measureRound(spec, config, uri));
    if (spec.key === 'evallens') {
      // That server kept the analysis of the text as opened (and, at shutdown, of the text it ended with).
      process.stderr.write(`round ${r + 1}/${ROUNDS}: EvalLens reopens\n`);
      reopens.push(await measureReopen(SERVERS[0], uri, config.text));
    }
  }
}
const memory = {};
for (const spec of servers) {
  if (spec.key === 'evallensOld') continue;
  for (const entries of [50, 500]) {
    process.stderr.write(`memory: ${spec.name}, ${RSS_CONFIGS} configs of ${entries} entries\n`);
    (memory[spec.key] ??= {})[entries] = await measureMemory(spec, RSS_CONFIGS, entries);
  }
}
machine.loadAvgAtEnd = os.loadavg().map((x) => round(x, 2));

const summary = {};
for (const spec of servers) {
  const rs = runs[spec.key];
  const reval = rs.flatMap((x) => x.revalidateMs);
  const compl = rs.flatMap((x) => x.completionMs);
  summary[spec.key] = {
    firstMs: median(rs.map((x) => x.firstMs)),
    firstMsAll: rs.map((x) => round(x.firstMs, 1)),
    firstCpuMs: median(rs.map((x) => x.firstCpuMs)),
    firstCpuMsAll: rs.map((x) => x.firstCpuMs),
    firstCounts: rs.map((x) => x.firstCount),
    completeMs: median(rs.map((x) => x.completeMs)),
    completeMsAll: rs.map((x) => round(x.completeMs, 1)),
    completeCpuMs: median(rs.map((x) => x.completeCpuMs)),
    completeCpuMsAll: rs.map((x) => x.completeCpuMs),
    revalidateP50: percentile(reval, 50),
    revalidateP95: percentile(reval, 95),
    completionP50: percentile(compl, 50),
    completionP95: percentile(compl, 95),
    completionUnsupported: rs.some((x) => x.unsupported),
    completionItems: rs[0].itemCounts,
    diagnostics: rs[0].diagnostics.length,
    kinds: countKinds(rs[0].diagnostics),
    caught: caughtBy(config.seeded, rs[0].diagnostics),
    elsewhere: elsewhere(config.seeded, rs[0].diagnostics).map(
      (d) => `${d.range.start.line + 1}: ${d.message.split('\n')[0].slice(0, 100)}`,
    ),
    samples: { revalidate: reval.length, completion: compl.length },
    stderr: rs
      .map((x) => x.stderr)
      .join('')
      .slice(0, 2000),
    logErrors: rs.flatMap((x) => x.logErrors).slice(0, 10),
    memory: memory[spec.key],
  };
}
if (reopens.length > 0) {
  const firstOpen = JSON.stringify(runs.evallens[0].diagnostics);
  summary.evallens.reopen = {
    firstMs: median(reopens.map((x) => x.firstMs)),
    firstMsAll: reopens.map((x) => round(x.firstMs, 1)),
    firstCpuMs: median(reopens.map((x) => x.firstCpuMs)),
    firstCpuMsAll: reopens.map((x) => x.firstCpuMs),
    analysedMs: median(reopens.map((x) => x.analysedMs)),
    sameAsFirstOpen: reopens.every((x) => JSON.stringify(x.diagnostics) === firstOpen),
    laterPublishes: reopens.reduce((n, x) => n + x.later, 0),
  };
}
writeFileSync(
  join(OUT, 'results.json'),
  `${JSON.stringify({ machine, options: { ROUNDS, CHANGES, COMPLETIONS, RSS_CONFIGS }, lineCount: config.lineCount, summary }, null, 2)}\n`,
);
const { renderLspResults } = await import('./lsp-render.mjs');
const md = renderLspResults({
  machine,
  summary,
  config,
  rounds: ROUNDS,
  changes: CHANGES,
  completions: COMPLETIONS,
  rssConfigs: RSS_CONFIGS,
  warmup: WARMUP,
});
writeFileSync(join(OUT, 'results.md'), md);
process.stdout.write(md);
