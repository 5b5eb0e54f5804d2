/**
 * A run whose CLI stops before the run starts shows the CLI's stderr (the config's problems) on each
 * case; the extension keeps only the start of it, so a CLI that floods stderr cannot make the editor's
 * process hold all of it. The extension's run path (extension/testing/configRun.ts) runs with `vscode`
 * replaced by test/support/fakeVscodeModule.ts (a test double); the "CLI" is a small script.
 */
import '../support/useFakeVscodeModule';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type * as vscode from 'vscode';
import { MAX_KEPT_STDERR_CHARS, runConfig } from '../../extension/testing/configRun';
import { discoverCases } from '../../extension/testing/caseDiscovery';
import { CaseIndex } from '../../extension/testing/caseIndex';
import { EvalTestTree } from '../../extension/testing/testTree';
import { readSettings } from '../../extension/settings';
import { CLI, ensureBuilt } from '../support/cli';
import { fakeTestingApi } from '../support/fakeTestController';
import { RecordingTestRun, state, TestMessage } from '../support/fakeVscodeModule';

let work = '';
let config = '';
let floodingCli = '';

before(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'evallens-run-stderr-'));
  config = join(work, 'small.eval.yaml');
  writeFileSync(config, 'scorers:\n  contains: {value: x}\ncases: [{id: a, input: q, output: x}]\n');
  // 8 MB on stderr, then exit 2 before any run event: what a CLI gone wrong could print.
  floodingCli = join(work, 'flooding-cli.js');
  writeFileSync(
    floodingCli,
    "const line = 'evallens: small.eval.yaml:1:1: a problem ' + 'x'.repeat(1000) + '\\n';\nlet left = 8000;\n(function out() { while (left > 0) { left--; if (!process.stderr.write(line)) return process.stderr.once('drain', out); } process.exitCode = 2; })();\n",
  );
  state.root = work;
  state.isTrusted = true;
});

after(() => rmSync(work, { recursive: true, force: true }));

describe('a run whose CLI floods stderr before the run starts', () => {
  it('errors each case with the start of stderr, not all of it', async () => {
    const [listing] = await discoverCases(CLI, [config], work);
    assert.ok(listing !== undefined && listing.cases.length === 1, JSON.stringify(listing));
    const index = new CaseIndex((configFile) =>
      Promise.resolve(
        configFile === listing.configFile ? listing : { configFile, cases: [], reaches: [], problem: 'not this test' },
      ),
    );
    const output = { info() {}, error() {}, debug() {}, warn() {}, trace() {} } as unknown as vscode.LogOutputChannel;
    const tree = new EvalTestTree(index, output, fakeTestingApi(work, () => [config]).api);
    const discovered = await tree.readConfig(config);
    const run = new RecordingTestRun();
    const settings = { ...readSettings(() => undefined), runsDirectory: join(work, 'runs') };
    const observers = { onRunStart() {}, onEvent() {}, onCaseEnd() {}, onRunEnd() {} };
    const token = {
      isCancellationRequested: false,
      onCancellationRequested: () => ({ dispose() {} }),
    } as unknown as vscode.CancellationToken;
    await runConfig(
      run as unknown as vscode.TestRun,
      { configFile: config, fromSave: false },
      { cliPath: floodingCli, settings, tree, output, observers, discovered },
      token,
    );
    assert.equal(run.erroredMessages.length, 1);
    const message = run.erroredMessages[0]?.message;
    assert.ok(message instanceof TestMessage);
    const text = String(message.message);
    assert.match(text, /^evallens: small\.eval\.yaml:1:1: a problem/);
    assert.ok(text.length <= MAX_KEPT_STDERR_CHARS, `${text.length} characters kept`);
  });
});
