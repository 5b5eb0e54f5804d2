/**
 * The extension inside a real extension host in Restricted Mode (a second launch with workspace trust
 * on; while extension tests run the workbench shows no trust dialog, so the folder stays untrusted,
 * as after answering it "No" in test/e2e/restricted.test.ts): configs are still
 * checked, and a case whose scorer would run workspace code is not run but skipped with the trust
 * reason. The case is run through the "Run case" CodeLens command: VS Code's own Testing commands ask
 * for trust first, in a dialog.
 *
 * On desktop VS Code, @vscode/test-electron's runTests always passes --disable-workspace-trust, so this
 * suite can only run through our launcher (it says so and fails, rather than pass without testing).
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { runTests, screenshot, waitFor } from './harness';
import { activateEvalLens, caseStates, caseTestId, evalLens, openAt, workspaceFile } from './shared';

const SUBPROCESS_CONFIG = 'e2e/subprocess.eval.yaml';
const SUBPROCESS_DATASET = 'e2e/subprocess.jsonl';
const CASE = 'names-window';

export async function run(): Promise<void> {
  const file = workspaceFile;

  await runTests([
    {
      name: 'activates in Restricted Mode',
      async fn() {
        assert.equal(
          vscode.workspace.isTrusted,
          false,
          'the workspace is trusted: this suite needs workspace trust on and the folder not trusted (runTests on desktop disables trust)',
        );
        await activateEvalLens();
      },
    },
    {
      name: 'configs are still checked in Restricted Mode',
      async fn() {
        const editor = await openAt(file('e2e/unknown-scorer.eval.yaml'));
        await waitFor(
          () => vscode.languages.getDiagnostics(editor.document.uri).map((d) => d.message),
          (messages) => messages.some((m) => m.includes('did you mean "contains"')),
          'the unknown-scorer diagnostic',
        );
      },
    },
    {
      name: 'a case whose scorer runs workspace code is skipped, saying the workspace is not trusted',
      async fn() {
        const before = evalLens().runs().length;
        await vscode.commands.executeCommand('evallens.runCase', file(SUBPROCESS_CONFIG), CASE);
        const runs = await waitFor(
          () => evalLens().runs().slice(before),
          (found) => found.length > 0 && found.every((r) => r.ended),
          'the run of the case to end',
        );
        const states = caseStates(runs);
        assert.equal(states[caseTestId(vscode.Uri.file(file(SUBPROCESS_CONFIG)).toString(), CASE)]?.state, 'skipped');
        const output = runs.flatMap((r) => r.output.map((o) => o.text)).join('');
        assert.match(output, /not trusted/i, 'Test Results says why');
        await openAt(file(SUBPROCESS_DATASET));
        await screenshot('restricted-skipped');
      },
    },
  ]);
}
