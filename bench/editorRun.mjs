#!/usr/bin/env node
// A run from VS Code against the CLI's own run of the same cases, in the same process of measuring:
//
//   npm run build && node bench/editorRun.mjs [--rounds K] [--warmup W] [--report]
//
// Per example (the quick start, the agent example, and a config with LLM judges answered by a local
// test double of an OpenAI-compatible server, test/support/fakeOpenAiServer.ts, since hosted judges
// cannot run here) and round, in alternating order:
//   cli     `node dist/cli.js run <config> --reporter jsonl --runs-dir … --no-color` (the arguments the
//           extension gives), measured as a whole process by bench/lib/measure.mjs;
//   editor  the extension's OWN run path (extension/testing/configRun.ts runConfig, loaded with tsx,
//           `vscode` replaced by test/support/fakeVscodeModule.ts), from the click to the run's end:
//           the run decision (with the plan it needs), the CLI process(es) it forks, the event mapping
//           onto a recording TestRun, and the observers the extension gives it.
//   With --report, the editor's run also gets the finished run's report as the results view does
//   when it is open (extension/resultsCommands.ts): the one the run handed over its IPC channel, else
//   read by the CLI (extension/results/reportFile.ts, `evallens report <file> --reporter json`).
// Discovery (the listing the Testing view shows before any click) is done once, before the rounds,
// with the extension's own discoverCases, and is not timed: a click finds it done.
// Not covered: VS Code itself (the extension host's IPC to the workbench, the Testing view's
// rendering, the TestRunProfile dispatch and run targeting in testRunner.ts/runTargets.ts), and the
// person's time at the judge-call confirmation (the fake dialog answers "Run" at once).
// Prints medians (ms) of each side, the ratio editor/cli, and when the first case was queued.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { register } from 'tsx/cjs/api';
import { measure } from './lib/measure.mjs';
import { median, round } from './lib/stats.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '7' },
    warmup: { type: 'string', default: '1' },
    report: { type: 'boolean', default: false },
  },
});
const rounds = Number(values.rounds);
const warmup = Number(values.warmup);

register();
const require = createRequire(import.meta.url);
require(join(ROOT, 'test/support/useFakeVscodeModule.ts')).useFakeVscodeModule();
const fakeVscode = require(join(ROOT, 'test/support/fakeVscodeModule.ts'));
const { runConfig } = require(join(ROOT, 'extension/testing/configRun.ts'));
const { discoverCases } = require(join(ROOT, 'extension/testing/caseDiscovery.ts'));
const { readReportFile } = require(join(ROOT, 'extension/results/reportFile.ts'));
const { readSettings } = require(join(ROOT, 'extension/settings.ts'));
const { startFakeLlmServer } = require(join(ROOT, 'test/support/fakeOpenAiServer.ts'));

const EXAMPLES = [
  { name: 'quick start', config: join(ROOT, 'examples/quickstart/refunds.eval.yaml') },
  { name: 'agent', config: join(ROOT, 'examples/agent/support-agent.eval.yaml') },
];

const scratch = mkdtempSync(join(tmpdir(), 'evallens-bench-editor-'));
const runsDir = join(scratch, 'runs');
fakeVscode.state.root = ROOT;
fakeVscode.state.warningAnswer = 'Run';

// A config that is not free: two judges (one per rubric item), 6 cases × 2 trials.
const judgeServer = await startFakeLlmServer(() => ({ text: '{"verdict": "PASS", "reason": "ok"}' }));
process.env.EVALLENS_BENCH_JUDGE_KEY = 'sk-bench';
writeFileSync(
  join(scratch, 'judge.yaml'),
  `provider: openai\nbase_url: ${judgeServer.openAiBaseUrl}\nmodel: bench-judge\napi_key_env: EVALLENS_BENCH_JUDGE_KEY\n`,
);
const judgedCases = Array.from({ length: 6 }, (_, i) => ({
  id: `c${i}`,
  input: 'q',
  output: 'x',
  metadata: { binary_rubric: ['r0', 'r1'] },
}));
writeFileSync(
  join(scratch, 'judged.eval.yaml'),
  `num_trials: 2\nscorers:\n  goal_completion: {model_config: judge.yaml}\n  binary_rubric_scorer: {model_config: judge.yaml}\ncases: ${JSON.stringify(judgedCases)}\n`,
);
EXAMPLES.push({ name: 'LLM judges (local judge double)', config: join(scratch, 'judged.eval.yaml') });
const settings = { ...readSettings(() => undefined), runsDirectory: runsDir };

/** The Test Explorer's items of one config, as the tree makes them from discovery. */
function treeOf(discovered) {
  const item = (id) => ({ id, children: { forEach() {} } });
  const config = item(`config:${discovered.configFile}`);
  const cases = new Map(discovered.cases.map((c) => [c.id, item(`case:${c.id}`)]));
  config.children = { forEach: (f) => cases.forEach((c) => f(c)) };
  return {
    configItem: (file) => (file === discovered.configFile ? config : undefined),
    caseItem: (file, id) => (file === discovered.configFile ? cases.get(id) : undefined),
  };
}

const silent = { info() {}, debug() {}, error() {}, warn() {}, trace() {} };
const token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) };

async function editorRun(discovered) {
  const run = new fakeVscode.RecordingTestRun();
  const started = performance.now();
  let reportRead;
  await runConfig(
    run,
    { configFile: discovered.configFile, fromSave: false },
    {
      cliPath: CLI,
      settings,
      tree: treeOf(discovered),
      output: silent,
      discovered,
      observers: {
        onRunStart() {},
        onEvent() {},
        onCaseEnd() {},
        // As extension/resultsCommands.ts does with the results view open: the report the run handed over, else read by the CLI.
        onRunEnd(_file, _mapped, reportFile, _testRun, reportJson) {
          if (!values.report || reportFile === undefined) return;
          reportRead =
            reportJson === undefined ? readReportFile(CLI, reportFile) : Promise.resolve(JSON.parse(reportJson));
        },
      },
    },
    token,
  );
  if (reportRead !== undefined) await reportRead;
  const wallMs = performance.now() - started;
  const queued = run.calls.find((c) => c.state === 'enqueued');
  const finals = [...run.finalStates().values()];
  if (finals.length === 0 || finals.some((s) => s === 'enqueued' || s === 'skipped' || s === 'errored'))
    throw new Error(`the editor's run did not finish its cases: ${JSON.stringify(run.calls)}`);
  return { wallMs, queuedMs: queued?.atMs };
}

async function cliRun(config) {
  const m = await measure(['node', CLI, 'run', config, '--reporter', 'jsonl', '--runs-dir', runsDir, '--no-color'], {
    cwd: config.startsWith(ROOT) ? ROOT : dirname(config),
    scratch,
    okCodes: [0, 1],
  });
  return { wallMs: m.wallMs };
}

const rows = [];
try {
  for (const example of EXAMPLES) {
    const [discovered] = await discoverCases(CLI, [example.config], ROOT);
    if (discovered.problem !== undefined) throw new Error(`${example.name}: ${discovered.problem}`);
    const cli = [];
    const editor = [];
    for (let i = 0; i < warmup + rounds; i++) {
      // Alternating order, so neither side always runs on a warmer machine.
      let c;
      let e;
      if (i % 2 === 0) {
        c = await cliRun(example.config);
        e = await editorRun(discovered);
      } else {
        e = await editorRun(discovered);
        c = await cliRun(example.config);
      }
      if (i < warmup) continue;
      cli.push(c);
      editor.push(e);
    }
    const cliMs = median(cli.map((r) => r.wallMs));
    const editorMs = median(editor.map((r) => r.wallMs));
    const queuedMs = median(editor.map((r) => r.queuedMs ?? Number.NaN));
    rows.push({
      example: example.name,
      cases: discovered.cases.length,
      cliMs: round(cliMs),
      editorMs: round(editorMs),
      ratio: round(editorMs / cliMs, 2),
      firstQueuedMs: round(queuedMs, 1),
    });
  }
} finally {
  await judgeServer.close();
  rmSync(scratch, { recursive: true, force: true });
}
console.log(
  `editor run vs CLI run, medians of ${rounds} rounds (after ${warmup} warm-up)${values.report ? ', editor reads the report as an open results view does' : ''}`,
);
console.log('| example | cases | CLI ms | editor ms | editor / CLI | first case queued after ms |');
console.log('|---|---|---|---|---|---|');
for (const r of rows)
  console.log(`| ${r.example} | ${r.cases} | ${r.cliMs} | ${r.editorMs} | ${r.ratio} | ${r.firstQueuedMs} |`);
