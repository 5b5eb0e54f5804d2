/**
 * A click on a config that is not free starts ONE CLI process, the run: the plan (for the judge-call
 * confirmation) comes from discovery's listing, not from `evallens plan`. The extension's own run path
 * (extension/testing/configRun.ts over the real EvalTestTree) runs here with `vscode` replaced by
 * test/support/fakeVscodeModule.ts (a test double); the CLI is the real built one behind a wrapper
 * that records each process's command. Every case is queued before the question is asked, and the run
 * hands its report over its IPC channel, so the results view needs no further process.
 */
import '../support/useFakeVscodeModule';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import type * as vscode from 'vscode';
import { runConfig } from '../../extension/testing/configRun';
import { discoverCases, type DiscoveredConfig } from '../../extension/testing/caseDiscovery';
import { CaseIndex } from '../../extension/testing/caseIndex';
import { EvalTestTree } from '../../extension/testing/testTree';
import { readSettings } from '../../extension/settings';
import { CLI, ensureBuilt } from '../support/cli';
import { fakeTestingApi } from '../support/fakeTestController';
import { RecordingTestRun, state } from '../support/fakeVscodeModule';
import { startFakeLlmServer, type FakeLlmServer } from '../support/fakeOpenAiServer';

const KEY_ENV = 'EVALLENS_TEST_ONE_PER_CLICK_KEY';
let work = '';
let config = '';
let countingCli = '';
let forksFile = '';
let server: FakeLlmServer;

before(async () => {
  ensureBuilt();
  server = await startFakeLlmServer(() => ({ text: '{"verdict": "PASS", "reason": "ok"}' }));
  work = mkdtempSync(join(tmpdir(), 'evallens-one-per-click-'));
  process.env[KEY_ENV] = 'sk-one-per-click-test';
  writeFileSync(
    join(work, 'judge.yaml'),
    `provider: openai\nbase_url: ${server.openAiBaseUrl}\nmodel: test-judge\napi_key_env: ${KEY_ENV}\n`,
  );
  const cases = [
    { id: 'a1', input: 'q', output: 'x', metadata: { binary_rubric: ['r0', 'r1', 'r2'] } },
    { id: 'a2', input: 'q', output: 'x', metadata: { binary_rubric: ['r0'] } },
    { id: 'b1', input: 'q', output: 'x' },
  ];
  config = join(work, 'judged.eval.yaml');
  writeFileSync(
    config,
    `num_trials: 2\nscorers:\n  goal_completion: {model_config: judge.yaml}\n  binary_rubric_scorer: {model_config: judge.yaml}\n  contains: {value: x}\ncases: ${JSON.stringify(cases)}\n`,
  );
  // The real CLI, behind a wrapper that writes down each process's command before running it.
  forksFile = join(work, 'forks.txt');
  countingCli = join(work, 'counting-cli.js');
  writeFileSync(
    countingCli,
    `require('node:fs').appendFileSync(${JSON.stringify(forksFile)}, process.argv[2] + '\\n');\nrequire(${JSON.stringify(CLI)});\n`,
  );
  state.root = work;
  state.isTrusted = true;
});

after(async () => {
  delete process.env[KEY_ENV];
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

beforeEach(() => {
  rmSync(forksFile, { force: true });
  state.warnings.length = 0;
  state.details.length = 0;
  state.onWarning = undefined;
});

const forks = () =>
  existsSync(forksFile)
    ? readFileSync(forksFile, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
    : [];

/** The Testing view's tree over `listing` (discovery's answer, as the real CLI gave it or changed by a test). */
async function treeOf(listing: DiscoveredConfig) {
  const index = new CaseIndex((configFile) =>
    Promise.resolve(
      configFile === listing.configFile ? listing : { configFile, cases: [], reaches: [], problem: 'not this test' },
    ),
  );
  const output = { info() {}, error() {}, debug() {}, warn() {}, trace() {} };
  const tree = new EvalTestTree(
    index,
    output as unknown as vscode.LogOutputChannel,
    fakeTestingApi(work, () => [config]).api,
  );
  const discovered = await tree.readConfig(config);
  return { tree, discovered, output: output as unknown as vscode.LogOutputChannel };
}

async function click(listing: DiscoveredConfig) {
  const { tree, discovered, output } = await treeOf(listing);
  const run = new RecordingTestRun();
  const settings = { ...readSettings(() => undefined), confirmJudgeCallsAbove: 5, runsDirectory: join(work, 'runs') };
  const ended: { reportFile?: string; reportJson?: string }[] = [];
  const observers = {
    onRunStart() {},
    onEvent() {},
    onCaseEnd() {},
    onRunEnd: (_configFile: string, _run: unknown, reportFile?: string, _testRun?: unknown, reportJson?: string) =>
      void ended.push({
        ...(reportFile === undefined ? {} : { reportFile }),
        ...(reportJson === undefined ? {} : { reportJson }),
      }),
  };
  const token = {
    isCancellationRequested: false,
    onCancellationRequested: () => ({ dispose() {} }),
  } as unknown as vscode.CancellationToken;
  let queuedWhenAsked: string[] = [];
  state.onWarning = () => (queuedWhenAsked = run.calls.filter((c) => c.state === 'enqueued').map((c) => c.id));
  await runConfig(
    run as unknown as vscode.TestRun,
    { configFile: config, fromSave: false },
    { cliPath: countingCli, settings, tree, output, observers, discovered },
    token,
  );
  return { run, queuedWhenAsked, ended };
}

describe('a click on a config with LLM judges', () => {
  it('asks with the plan from discovery and the CLI estimate of tokens (the one other process, only when it asks), and queues every case first', async () => {
    const [listing] = await discoverCases(CLI, [config], work);
    assert.ok(listing?.plan !== undefined, 'the listing carries the plan');
    state.warningAnswer = 'Run';
    const { run, queuedWhenAsked, ended } = await click(listing);
    // Discovery decides whether to ask; only a run that asks first forks `plan` for the judges' tokens and cost.
    assert.deepEqual(forks(), ['plan', 'run']);
    assert.deepEqual(state.warnings, [
      'This run of judged.eval.yaml makes 14 LLM judge calls (3 cases × 2 trials; goal_completion: 6, binary_rubric_scorer: 8).',
    ]);
    assert.match(
      state.details[0] ?? '',
      /^Estimated: about [\d,]+ prompt tokens and at most [\d,]+ answer tokens; no cost figure/,
    );
    const ids = ['a1', 'a2', 'b1'].map((id) => `${String(new URL(`file://${config}`))}#${id}`);
    assert.deepEqual(queuedWhenAsked.sort(), ids);
    assert.deepEqual(
      [...run.finalStates()].sort(),
      ids.map((id) => [id, 'passed']),
    );
    // The run hands its report over (no `evallens report` process for the results view): report.json as written.
    assert.equal(ended.length, 1);
    const { reportFile, reportJson } = ended[0] ?? {};
    assert.ok(reportFile !== undefined && reportJson !== undefined, 'the run handed its report over');
    assert.equal(reportJson, readFileSync(reportFile, 'utf8'));
  });

  it('declined, starts no process and skips the queued cases', async () => {
    const [listing] = await discoverCases(CLI, [config], work);
    state.warningAnswer = undefined;
    const { run } = await click(listing as DiscoveredConfig);
    // Only the estimate was asked for; no run.
    assert.deepEqual(forks(), ['plan']);
    assert.equal(state.warnings.length, 1);
    assert.deepEqual([...run.finalStates().values()], ['skipped', 'skipped', 'skipped']);
  });

  it('with a listing from an older CLI (no plan in it), asks `evallens plan` first, as before', async () => {
    const [listing] = await discoverCases(CLI, [config], work);
    const { plan: _plan, ...older } = listing as DiscoveredConfig;
    state.warningAnswer = 'Run';
    await click({ ...older, cases: older.cases.map(({ judgeCalls: _calls, ...c }) => c) });
    assert.deepEqual(forks(), ['plan', 'run']);
    assert.equal(state.warnings.length, 1);
  });
});
