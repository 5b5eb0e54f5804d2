/**
 * A run from the editor of a config with a baseline beside it (extension/testing/configRun.ts over
 * the real EvalTestTree, `vscode` replaced by test/support/fakeVscodeModule.ts, a test double; the CLI
 * the real built one behind a wrapper that writes down each process's command): the run, then one
 * `evallens compare` with the baseline; the regressed case is told it passed in the baseline, and the
 * observers get the comparison. Without a baseline, the run is the only process, as before.
 */
import '../support/useFakeVscodeModule';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import type * as vscode from 'vscode';
import type { RunComparison } from '../../extension/baseline/runComparison';
import { saveBaseline } from '../../extension/runner/baselineCli';
import { runConfig } from '../../extension/testing/configRun';
import { discoverCases } from '../../extension/testing/caseDiscovery';
import { CaseIndex } from '../../extension/testing/caseIndex';
import { EvalTestTree } from '../../extension/testing/testTree';
import { readSettings } from '../../extension/settings';
import { CLI, ensureBuilt } from '../support/cli';
import { fakeTestingApi } from '../support/fakeTestController';
import { RecordingTestRun, state, type TestMessage } from '../support/fakeVscodeModule';

let work = '';
let config = '';
let countingCli = '';
let forksFile = '';

const CASES_BEFORE =
  '[{id: c1, output: x, expected: x}, {id: c2, output: y, expected: y}, {id: c3, output: z, expected: q}]';
const CASES_AFTER =
  '[{id: c1, output: x, expected: x}, {id: c2, output: n, expected: y}, {id: c3, output: z, expected: z}]';

function writeConfig(cases: string): void {
  writeFileSync(config, `scorers:\n  exact_match: null\ncases: ${cases}\n`);
}

before(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'evallens-baseline-run-'));
  config = join(work, 'answers.eval.yaml');
  forksFile = join(work, 'forks.txt');
  countingCli = join(work, 'counting-cli.js');
  writeFileSync(
    countingCli,
    `require('node:fs').appendFileSync(${JSON.stringify(forksFile)}, process.argv[2] + '\\n');\nrequire(${JSON.stringify(CLI)});\n`,
  );
  state.root = work;
  state.isTrusted = true;
});
after(() => rmSync(work, { recursive: true, force: true }));
beforeEach(() => rmSync(forksFile, { force: true }));

const forks = () =>
  existsSync(forksFile)
    ? readFileSync(forksFile, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
    : [];

/** A TestRun double that also keeps the messages each failed call carried. */
class MessageRecordingRun extends RecordingTestRun {
  readonly messages: (readonly [string, readonly TestMessage[]])[] = [];
  constructor() {
    super();
    const failed = this.failed;
    this.failed = (item: { id: string }, messages?: TestMessage | readonly TestMessage[]) => {
      this.messages.push([item.id, messages === undefined ? [] : Array.isArray(messages) ? messages : [messages]]);
      failed(item);
    };
  }
}

async function runFromEditor() {
  const [listing] = await discoverCases(CLI, [config], work);
  assert.ok(listing !== undefined);
  const index = new CaseIndex(() => Promise.resolve(listing));
  const output = { info() {}, error() {}, debug() {}, warn() {}, trace() {} } as unknown as vscode.LogOutputChannel;
  const tree = new EvalTestTree(index, output, fakeTestingApi(work, () => [config]).api);
  const discovered = await tree.readConfig(config);
  const run = new MessageRecordingRun();
  const compared: (RunComparison | undefined)[] = [];
  const observers = {
    onRunStart() {},
    onEvent() {},
    onCaseEnd() {},
    onComparison: (_configFile: string, comparison: RunComparison | undefined) => void compared.push(comparison),
    onRunEnd() {},
  };
  const token = {
    isCancellationRequested: false,
    onCancellationRequested: () => ({ dispose() {} }),
  } as unknown as vscode.CancellationToken;
  const settings = { ...readSettings(() => undefined), runsDirectory: join(work, 'runs') };
  await runConfig(
    run as unknown as vscode.TestRun,
    { configFile: config, fromSave: false },
    { cliPath: countingCli, settings, tree, output, observers, discovered },
    token,
  );
  return { run, compared };
}

describe('a run from the editor, and its baseline', () => {
  it('without a baseline beside the config: only the run, and no comparison', async () => {
    writeConfig(CASES_BEFORE);
    const { compared } = await runFromEditor();
    assert.deepEqual(forks(), ['run']);
    assert.deepEqual(compared, [undefined]);
  });

  it('with one: the run, then `evallens compare`; the regressed case is told it passed in the baseline', async () => {
    const saved = await saveBaseline(CLI, config, join(work, 'runs'), work);
    assert.deepEqual(saved, { ok: true });
    writeConfig(CASES_AFTER);
    const { run, compared } = await runFromEditor();
    assert.deepEqual(forks(), ['run', 'compare']);
    assert.deepEqual(compared[0]?.regressed, ['c2']);
    assert.deepEqual(compared[0]?.fixed, ['c3']);
    const c2 = `${String(new URL(`file://${config}`))}#c2`;
    const told = run.messages.filter(([id]) => id === c2).map(([, messages]) => messages);
    // Once as the case ended (its failure), once when the comparison came (the same failure, led by the regression).
    assert.equal(told.length, 2);
    const [failure] = told[0] ?? [];
    const [regression] = told[1] ?? [];
    assert.equal(
      regression?.message,
      `▼ regressed: passed in the baseline, not in this run\n${String(failure?.message)}`,
    );
    assert.deepEqual([regression?.expectedOutput, regression?.actualOutput], ['y', 'n']);
    assert.equal(run.finalStates().get(c2), 'failed');
    assert.ok(run.output.some((text) => text.includes('Compared with the baseline: 1 regressed, 1 fixed.')));
  });
});
