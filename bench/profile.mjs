#!/usr/bin/env node
// Where does EvalLens spend its time on the benchmark? Runs the CLI once under `node --cpu-prof` and
// prints the functions with the most self time, and self time per source file.
//
//   node bench/profile.mjs [--config bench/out/bench.eval.yaml] [--top 30] [--cli dist/cli.js]
//
// Run bench/generate.mjs (or bench/run.mjs) first so the config and data exist. The profile itself is
// left in bench/out/prof/ (open it in Chrome DevTools or VS Code for a flame chart).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SourceMap } from 'node:module';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
const { values } = parseArgs({
  options: {
    config: { type: 'string', default: join(HERE, 'out', 'bench.eval.yaml') },
    top: { type: 'string', default: '30' },
    cli: { type: 'string', default: join(ROOT, 'dist', 'cli.js') },
    concurrency: { type: 'string' },
  },
});
const config = resolve(values.config);
const cli = resolve(values.cli);
if (!existsSync(config)) throw new Error(`${config} is missing: run node bench/generate.mjs first`);
const out = join(HERE, 'out');
const profDir = join(out, 'prof');
rmSync(profDir, { recursive: true, force: true });
mkdirSync(profDir, { recursive: true });

const argv = [
  '--cpu-prof',
  '--cpu-prof-dir',
  profDir,
  '--cpu-prof-interval',
  '200',
  cli,
  'run',
  config,
  '--reporter',
  'json',
  '--out',
  join(out, 'report-profile.json'),
  '--runs-dir',
  join(out, 'runs-profile'),
];
if (values.concurrency) argv.push('--concurrency', values.concurrency);
const started = process.hrtime.bigint();
const run = spawnSync(process.execPath, argv, { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
rmSync(join(out, 'runs-profile'), { recursive: true, force: true });
if (run.status !== 0 && run.status !== 1) throw new Error(`the CLI exited with ${run.status}`);

const files = readdirSync(profDir).filter((f) => f.endsWith('.cpuprofile'));
if (files.length === 0) throw new Error('no .cpuprofile written');
// Map positions in the bundle back to the TypeScript sources through its source map, when there is one.
const maps = new Map();
function original(url, line, column) {
  if (!url.startsWith('file://')) return undefined;
  const path = url.slice('file://'.length);
  if (!maps.has(path)) {
    let map;
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')));
    } catch {
      map = null;
    }
    maps.set(path, map);
  }
  const map = maps.get(path);
  if (!map) return undefined;
  const entry = map.findEntry(line, column);
  if (!entry || !entry.originalSource) return undefined;
  const source = entry.originalSource.replace(/^file:\/\//, '');
  return { file: relative(ROOT, resolve(dirname(path), source)), line: entry.originalLine + 1 };
}

// The CLI may start workers; every thread writes its own profile. Sum them all.
const self = new Map();
const inclusive = new Map();
const byFile = new Map();
let totalUs = 0;
const threads = [];
for (const f of files) {
  const prof = JSON.parse(readFileSync(join(profDir, f), 'utf8'));
  const thread = { file: f, sampledUs: 0, idleUs: 0 };
  threads.push(thread);
  const nodes = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (cf) => {
    const src = original(cf.url, cf.lineNumber, cf.columnNumber);
    const file = src ? src.file : cf.url ? relative(ROOT, cf.url.replace(/^file:\/\//, '')) || cf.url : '(native)';
    return {
      file,
      key: `${cf.functionName || '(anonymous)'}  ${file}${cf.url ? `:${src ? src.line : cf.lineNumber + 1}` : ''}`,
    };
  };
  const dt = new Map();
  for (let i = 0; i < prof.samples.length; i++) {
    const us = prof.timeDeltas[i] ?? 0;
    dt.set(prof.samples[i], (dt.get(prof.samples[i]) ?? 0) + us);
  }
  for (const [id, us] of dt) {
    const { callFrame: cf } = nodes.get(id);
    thread.sampledUs += us;
    // (idle) is a thread waiting (for I/O, or a worker with nothing to do): not time spent.
    if (cf.functionName === '(idle)') {
      thread.idleUs += us;
      continue;
    }
    const { file, key } = label(cf);
    // Inclusive: every distinct project function on the sample's stack gets the sample once.
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const l = label(nodes.get(at).callFrame);
      if (!/^(cli|core|server|protocol)\//.test(l.file) || seen.has(l.key)) continue;
      seen.add(l.key);
      inclusive.set(l.key, (inclusive.get(l.key) ?? 0) + us);
    }
    self.set(key, (self.get(key) ?? 0) + us);
    byFile.set(file, (byFile.get(file) ?? 0) + us);
    totalUs += us;
  }
}

const top = Number(values.top);
const pct = (us) => `${((us / totalUs) * 100).toFixed(1).padStart(5)}%`;
const ms = (us) => `${(us / 1000).toFixed(0).padStart(7)} ms`;
console.log(
  `profile of: node ${relative(ROOT, cli)} run ${relative(ROOT, config)}  (wall ${(wallMs / 1000).toFixed(2)} s with profiling; ${files.length} profile(s) in ${relative(ROOT, profDir)})`,
);
for (const t of threads)
  console.log(
    `  thread ${t.file}: ${(t.sampledUs / 1000).toFixed(0)} ms sampled, ${((t.sampledUs - t.idleUs) / 1000).toFixed(0)} ms busy, ${(t.idleUs / 1000).toFixed(0)} ms idle`,
  );
console.log(
  `\ntop ${top} functions by self time (of ${(totalUs / 1000).toFixed(0)} ms busy, all threads; idle excluded):`,
);
for (const [k, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${ms(us)} ${pct(us)}  ${k}`);
console.log(`\ntop ${top} project functions by inclusive time (self + callees; shows the phases):`);
for (const [k, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`${ms(us)} ${pct(us)}  ${k}`);
console.log(
  '\nself time by source file (mapped through dist/cli.js.map; node:* are Node internals, node_modules/* dependencies):',
);
for (const [k, us] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`${ms(us)} ${pct(us)}  ${k}`);
