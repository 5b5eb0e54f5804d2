#!/usr/bin/env node
// CLI start-up and regex checking (issue 18, items 1 and 2): `evallens validate` on each example, with
// the ReDoS verdict cache cold (a fresh EVALLENS_CACHE_HOME each round) and warm (one kept across
// rounds), beside `node -e 0` (what any Node program pays) and, with --old, another build of the CLI.
// Wall time and CPU time (user + system) of each whole process, medians of the rounds.
// Also a config whose one pattern crashes recheck's native checker (`^(a|\1a)+$`): its time, and that
// stderr has nothing but our own message.
//
//   npm run build && node bench/startup.mjs [--rounds 10] [--cli dist/cli.js] [--old PATH] [--backend pure]
//                                           [--only TEXT] [--no-cold]
//
// --backend pure runs recheck's JavaScript checker (EVALLENS_RECHECK_BACKEND=pure) instead of its native one.
// --only TEXT keeps the configs whose name contains TEXT (e.g. `--only "quick start"`; `--version` is one
// of them); --no-cold measures with the warm verdict cache only. The builds take turns going first.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, loadavg, cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { failure, wholeNumber } from './lib/args.mjs';
import { measure } from './lib/measure.mjs';
import { median, round } from './lib/stats.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
const fail = failure('startup.mjs');
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '10' },
    cli: { type: 'string', default: join(ROOT, 'dist', 'cli.js') },
    old: { type: 'string' },
    backend: { type: 'string' },
    only: { type: 'string' },
    'no-cold': { type: 'boolean', default: false },
  },
});
const rounds = wholeNumber(fail)(values.rounds, 'rounds', 1);
if (values.backend !== undefined && values.backend !== 'pure')
  fail(`--backend must be "pure"; got "${values.backend}"`);

const scratch = mkdtempSync(join(tmpdir(), 'evallens-startup-'));
const patterns = join(scratch, 'patterns');
mkdirSync(patterns);
writeFileSync(join(patterns, 'cases.jsonl'), '{"id": "a", "output": "aaa"}\n');
writeFileSync(
  join(patterns, 'backreference.eval.yaml'),
  "dataset: cases.jsonl\nscorers:\n  regex:\n    pattern: '^(a|\\1a)+$'\n",
);

const allConfigs = [
  ['quick start', 'examples/quickstart/refunds.eval.yaml'],
  ['NL2SQL (1 regexp_matcher pattern)', 'examples/nl2sql/shop.eval.yaml'],
  ['agent (2 tool_call_match patterns)', 'examples/agent/support-agent.eval.yaml'],
  ['backreference `^(a|\\1a)+$`', join(patterns, 'backreference.eval.yaml')],
  // Every other example: no pattern to check, so what any config costs.
  ['NL2SQL on PostgreSQL', 'examples/nl2sql/shop-postgres.eval.yaml'],
  ['EvalHub', 'examples/evalhub/benchmarks.eval.yaml'],
  ['LLM judge', 'examples/judge/support-judged.eval.yaml'],
  ['subprocess per case', 'examples/subprocess/per-case.eval.yaml'],
  ['subprocess, persistent Node', 'examples/subprocess/persistent-node.eval.yaml'],
  ['subprocess, persistent Python', 'examples/subprocess/persistent-python.eval.yaml'],
  ['Python scorer', 'examples/subprocess/python-scorer.eval.yaml'],
  ['target', 'examples/target/agent.eval.yaml'],
  // No config: what loading the CLI costs.
  ['`--version`', undefined],
];
const configs = allConfigs.filter(([name]) => values.only === undefined || name.includes(values.only));
if (configs.length === 0) fail(`--only "${values.only}" matches no config`);
const caches = values['no-cold'] ? ['warm'] : ['cold', 'warm'];
const JAVA = /Exception in thread|StackOverflowError|\tat /;

const warmCache = join(scratch, 'warm');
const clis = [['EvalLens', resolve(values.cli)], ...(values.old ? [['old build', resolve(values.old)]] : [])];
const rows = new Map();
/** Lines of stderr with a Java trace in them, by CLI and config (only another build has any). */
const traces = new Map();
const add = (key, run) => {
  if (!rows.has(key)) rows.set(key, []);
  rows.get(key).push(run);
};

const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');
const loadBefore = load();
for (let r = 0; r < rounds; r++) {
  await measure([process.execPath, '-e', '0'], { cwd: ROOT, scratch, okCodes: [0] }).then((run) =>
    add('node -e 0', run),
  );
  // The builds take turns going first, so that neither always runs on a cache the other warmed.
  for (const [who, cli] of r % 2 === 0 ? clis : [...clis].reverse()) {
    for (const [name, file] of configs) {
      for (const cache of caches) {
        const home = cache === 'warm' ? `${warmCache}-${who}` : mkdtempSync(join(scratch, 'cold-'));
        const env = {
          ...process.env,
          EVALLENS_CACHE_HOME: home,
          ...(values.backend ? { EVALLENS_RECHECK_BACKEND: values.backend } : {}),
        };
        const argv = file === undefined ? [cli, '--version'] : [cli, 'validate', file];
        const run = await measure([process.execPath, ...argv], { cwd: ROOT, env, scratch, okCodes: [0] });
        if (JAVA.test(run.stderr)) {
          if (who === 'EvalLens') fail(`${name}: the checker's trace reached stderr`);
          traces.set(`${who}\t${name}`, run.stderr.split('\n').length - 1);
        }
        // The first warm round fills the cache: it is not a warm measurement.
        if (!(cache === 'warm' && r === 0)) add(`${who}\t${name}\t${cache}`, run);
        if (cache === 'cold') rmSync(home, { recursive: true, force: true });
      }
    }
  }
}
const loadAfter = load();

const fmt = (runs) => {
  const ms = runs.map((x) => x.wallMs);
  return `${round(median(ms))} (${round(Math.min(...ms))}–${round(Math.max(...ms))})`;
};
// CPU time (user + system, the process and its children): far less inflated by a loaded machine than wall time.
const cpu = (runs) => `${round(median(runs.map((x) => x.cpuS * 1000)))}`;
const cells = (key) => (rows.has(key) ? `${fmt(rows.get(key))} | ${cpu(rows.get(key))}` : '– | –');
const lines = [
  `#### Start-up and regex checking — ${new Date().toISOString().slice(0, 10)}`,
  '',
  `${cpus().length} cores, Node ${process.version}, recheck backend: ${values.backend ?? 'native where installed'}. ` +
    `Load average before ${loadBefore}, after ${loadAfter}. ${rounds} rounds (warm: ${rounds - 1}, the first fills the cache); ` +
    'whole processes: wall ms, median (min–max), and CPU ms (user + system), median.',
  '',
  `| | cold: wall ms | cold: CPU ms | warm: wall ms | warm: CPU ms |`,
  `|---|---:|---:|---:|---:|`,
  `| \`node -e 0\` | ${cells('node -e 0')} | | |`,
];
for (const [who] of clis)
  for (const [name] of configs)
    lines.push(
      `| ${who}: ${name.startsWith('`') ? name : `\`validate\` ${name}`} | ${cells(`${who}\t${name}\tcold`)} | ${cells(`${who}\t${name}\twarm`)} |`,
    );
for (const [key, count] of traces)
  lines.push('', `${key.replace('\t', ', ')}: ${count} lines of Java trace on stderr.`);
console.log(lines.join('\n'));
rmSync(scratch, { recursive: true, force: true });
