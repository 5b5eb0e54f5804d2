/**
 * The extension inside a real extension host, on a trusted workspace (a copy of examples/quickstart
 * and test/e2e/fixtures/workspace in e2e/): what it does, read through the `vscode` API rather than
 * the screen. Ordered: "Run All" comes before the tests that read its results, the CodeLens run last.
 * Screenshots at the key steps (for docs/images/ when scripts/screenshots.mjs runs the suite).
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RecordedRun, TestTreeNode } from '../../../extension/testApi';
import { hasProbe, probe, runTests, screenshot, waitFor } from './harness';
import { activateEvalLens, caseStates, caseTestId, evalLens, openAt, workspaceFile } from './shared';

const QUICKSTART_CONFIG = 'quickstart/refunds.eval.yaml';
const QUICKSTART_DATASET = 'quickstart/refunds.jsonl';
const QUICKSTART_CASES = ['refund-window', 'refund-method', 'damaged-item', 'sale-items'];
const FAILING_CASE = 'sale-items';
const EXACT_CONFIG = 'e2e/exact.eval.yaml';

export async function run(): Promise<void> {
  const file = workspaceFile;
  let runAll: RecordedRun['states'] | undefined;

  await runTests([
    {
      name: 'activates and gives the tests its API',
      async fn() {
        const api = await activateEvalLens();
        assert.equal(typeof api.testTree, 'function');
        await applyTheme();
      },
    },
    {
      name: 'an unknown scorer key gets an error diagnostic that says which key was meant',
      async fn() {
        const editor = await openAt(file('e2e/unknown-scorer.eval.yaml'));
        const diagnostics = await waitFor(
          () => vscode.languages.getDiagnostics(editor.document.uri),
          (found) => found.some((d) => d.message.includes('did you mean "contains"')),
          'a diagnostic on the misspelled key',
        );
        const typo = diagnostics.find((d) => d.message.includes('did you mean "contains"'));
        assert.equal(typo?.severity, vscode.DiagnosticSeverity.Error);
        // `contians:` on line 6, column 3 (1-based).
        assert.deepEqual([typo?.range.start.line, typo?.range.start.character], [5, 2]);
      },
    },
    {
      name: 'completion under scorers: offers the scorer keys as distinct items',
      async fn() {
        const editor = await openAt(file('e2e/completion.eval.yaml'));
        // The indented empty line under `scorers:` at the end of the file.
        const position = new vscode.Position(lineOf(editor.document, /^ {2}$/), 2);
        const list = await waitFor(
          () =>
            vscode.commands.executeCommand<vscode.CompletionList>(
              'vscode.executeCompletionItemProvider',
              editor.document.uri,
              position,
            ),
          (found) => found.items.some((item) => labelOf(item) === 'exact_match'),
          'exact_match among the completion items',
        );
        const labels = list.items.map(labelOf);
        for (const key of ['edit_similarity', 'exact_match', 'regex'])
          assert.ok(labels.includes(key), `expected ${key} among ${labels.join(', ')}`);
      },
    },
    {
      name: "hovering a scorer key shows that scorer's documentation",
      async fn() {
        const editor = await openAt(file(QUICKSTART_CONFIG));
        const line = lineOf(editor.document, /^ {2}contains:/);
        const position = new vscode.Position(line, 4);
        const hovers = await waitFor(
          () =>
            vscode.commands.executeCommand<vscode.Hover[]>(
              'vscode.executeHoverProvider',
              editor.document.uri,
              position,
            ),
          (found) => found.length > 0,
          'a hover on the contains key',
        );
        const text = hovers
          .flatMap((hover) => hover.contents.map((part) => (typeof part === 'string' ? part : part.value)))
          .join('\n');
        assert.match(text, /contains/);
        assert.match(text, /Passes when the output text contains/);
        if (hasProbe()) {
          editor.selection = new vscode.Selection(position, position);
          await vscode.commands.executeCommand('editor.action.showHover');
          await screenshot('hover', '.monaco-hover:not(.hidden) .hover-contents');
        }
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      },
    },
    {
      name: 'the Test Explorer lists each config with its cases at their dataset lines',
      async fn() {
        await vscode.commands.executeCommand('workbench.view.testing.focus');
        const tree = await waitFor(
          () => evalLens().testTree(),
          (nodes) =>
            (findNode(nodes, vscode.Uri.file(file(QUICKSTART_CONFIG)).toString())?.children.length ?? 0) ===
            QUICKSTART_CASES.length,
          `the ${QUICKSTART_CASES.length} cases of ${QUICKSTART_CONFIG} in the test tree`,
        );
        const config = findNode(tree, vscode.Uri.file(file(QUICKSTART_CONFIG)).toString());
        assert.equal(config?.label, QUICKSTART_CONFIG);
        assert.deepEqual(
          config?.children.map((c) => [c.label, c.file, c.line]),
          QUICKSTART_CASES.map((id, line) => [id, file(QUICKSTART_DATASET), line]),
        );
        const unknown = findNode(tree, vscode.Uri.file(file('e2e/unknown-scorer.eval.yaml')).toString());
        assert.ok(unknown !== undefined, 'a config with an unknown scorer is still listed');
      },
    },
    {
      name: 'testing.runAll gives each case its final state and each failure its message',
      async fn() {
        const before = evalLens().runs().length;
        await vscode.commands.executeCommand('testing.runAll');
        const runs = await waitFor(
          () => evalLens().runs().slice(before),
          (found) => found.length > 0 && found.every((r) => r.ended),
          'the run(s) testing.runAll started to end',
        );
        runAll = caseStates(runs);
        const quickstart = vscode.Uri.file(file(QUICKSTART_CONFIG)).toString();
        for (const id of QUICKSTART_CASES)
          assert.equal(
            runAll[caseTestId(quickstart, id)]?.state,
            id === FAILING_CASE ? 'failed' : 'passed',
            `state of ${id}`,
          );
        const failure = runAll[caseTestId(quickstart, FAILING_CASE)];
        const messages = failure?.messages ?? [];
        assert.ok(
          messages.some((m) => /missing from the output/.test(m.text)),
          `the failure says what is missing; its messages: ${JSON.stringify(messages)}`,
        );
        assert.ok(
          messages.every(
            (m) => m.file === file(QUICKSTART_DATASET) && m.line === QUICKSTART_CASES.indexOf(FAILING_CASE),
          ),
          `messages point at the case's dataset line: ${JSON.stringify(messages)}`,
        );

        const exact = vscode.Uri.file(file(EXACT_CONFIG)).toString();
        assert.equal(runAll[caseTestId(exact, 'states-window')]?.state, 'passed');
        const omits = runAll[caseTestId(exact, 'omits-window')];
        assert.equal(omits?.state, 'failed');
        assert.ok(
          omits?.messages.some((m) => m.hasDiff),
          'an exact_match failure carries expected and actual, for the diff',
        );
      },
    },
    {
      name: 'the results view opens on the last run and shows its cases',
      async fn() {
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
        await vscode.commands.executeCommand('workbench.action.closePanel');
        await vscode.commands.executeCommand('evallens.openResults', file(QUICKSTART_CONFIG));
        await waitFor(
          () =>
            vscode.window.tabGroups.all
              .flatMap((group) => group.tabs)
              .some(
                (tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith('evallens.results'),
              ),
          (open) => open,
          'a results view tab',
        );
        if (!hasProbe()) return;
        // What the view received, as shown: every case of the run (desktop VS Code has no driver to read the webview).
        await waitFor(
          async () => (await probe({ action: 'resultsViewText' })) ?? '',
          (text) => QUICKSTART_CASES.every((id) => text.includes(id)),
          `the results view to show the cases ${QUICKSTART_CASES.join(', ')}`,
        );
        // The view alone, at the window's width, for the picture.
        await vscode.commands.executeCommand('workbench.action.editorLayoutSingle');
        await screenshot('results-view');
      },
    },
    {
      name: 'the Test Explorer shows the run (screenshot)',
      async fn() {
        if (!hasProbe()) return;
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
        await openAt(file(QUICKSTART_DATASET));
        await probe({ action: 'showAllTests' });
        await screenshot('test-explorer', '.test-explorer-tree .monaco-list-row');
      },
    },
    {
      name: "the config's run command runs its cases; its failure opens in a peek at the dataset line",
      async fn() {
        const before = evalLens().runs().length;
        await vscode.commands.executeCommand('evallens.runConfig', file(QUICKSTART_CONFIG));
        const runs = await waitFor(
          () => evalLens().runs().slice(before),
          (found) => found.length > 0 && found.every((r) => r.ended),
          'the config run to end',
        );
        const quickstart = vscode.Uri.file(file(QUICKSTART_CONFIG)).toString();
        const states = caseStates(runs);
        assert.deepEqual(
          QUICKSTART_CASES.map((id) => states[caseTestId(quickstart, id)]?.state),
          QUICKSTART_CASES.map((id) => (id === FAILING_CASE ? 'failed' : 'passed')),
        );
        if (!hasProbe()) return;
        // The peek is drawn by the workbench, out of the extension host's sight: the driver opens the
        // failed case from the Test Explorer, as a person would, and reads the peek.
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
        const peek = (await probe({ action: 'openFailurePeek', label: FAILING_CASE })) ?? '';
        // One of the failure's messages (which one the peek opens on is VS Code's choice), and the case's own output.
        const reasons = (states[caseTestId(quickstart, FAILING_CASE)]?.messages ?? []).map(
          (m) => m.text.split('\n')[0]?.slice(0, 40) ?? '',
        );
        assert.ok(
          reasons.length > 0 && reasons.some((reason) => peek.includes(reason)),
          `the peek shows one of ${JSON.stringify(reasons)}; it reads: ${peek}`,
        );
        assert.equal(
          vscode.window.activeTextEditor?.document.uri.fsPath,
          file(QUICKSTART_DATASET),
          'the peek opens in the dataset',
        );
        await screenshot('failure-peek');
      },
    },
    {
      name: 'the "Run case" CodeLens command runs that case alone',
      async fn() {
        const editor = await openAt(file(QUICKSTART_DATASET));
        const lenses = await waitFor(
          () =>
            vscode.commands.executeCommand<vscode.CodeLens[]>(
              'vscode.executeCodeLensProvider',
              editor.document.uri,
              100,
            ),
          (found) => found.some((lens) => lens.command?.command === 'evallens.runCase'),
          'a "Run case" CodeLens in the dataset',
        );
        const lens = lenses.find((l) => l.command?.command === 'evallens.runCase' && l.range.start.line === 0);
        assert.ok(
          lens?.command !== undefined,
          `a "Run case" lens on line 1; lenses: ${JSON.stringify(lenses.map((l) => [l.range.start.line, l.command?.title]))}`,
        );
        const before = evalLens().runs().length;
        await vscode.commands.executeCommand(lens.command.command, ...(lens.command.arguments ?? []));
        const runs = await waitFor(
          () => evalLens().runs().slice(before),
          (found) => found.length > 0 && found.every((r) => r.ended),
          'the CodeLens run to end',
        );
        const states = caseStates(runs);
        const quickstart = vscode.Uri.file(file(QUICKSTART_CONFIG)).toString();
        const finalStates = Object.entries(states).filter(([, s]) => s.state !== 'enqueued' && s.state !== 'started');
        assert.deepEqual(
          finalStates.map(([id, s]) => [id, s.state]),
          [[caseTestId(quickstart, QUICKSTART_CASES[0] ?? ''), 'passed']],
        );
      },
    },
  ]);
}

/** For the screenshots (EVALLENS_IN_HOST_THEME, set by test/vscode/support/screenshots.ts): VS Code's light or dark theme. */
async function applyTheme(): Promise<void> {
  const theme = process.env['EVALLENS_IN_HOST_THEME'];
  if (theme !== 'light' && theme !== 'dark') return;
  await vscode.workspace
    .getConfiguration('workbench')
    .update(
      'colorTheme',
      theme === 'light' ? 'Default Light Modern' : 'Default Dark Modern',
      vscode.ConfigurationTarget.Global,
    );
  const kind = theme === 'light' ? vscode.ColorThemeKind.Light : vscode.ColorThemeKind.Dark;
  await waitFor(
    () => vscode.window.activeColorTheme.kind,
    (now) => now === kind,
    `the ${theme} theme`,
  );
}

function labelOf(item: vscode.CompletionItem): string {
  return typeof item.label === 'string' ? item.label : item.label.label;
}

function lineOf(document: vscode.TextDocument, pattern: RegExp): number {
  for (let line = 0; line < document.lineCount; line++) if (pattern.test(document.lineAt(line).text)) return line;
  throw new Error(`no line of ${document.uri.fsPath} matches ${String(pattern)}`);
}

function findNode(nodes: readonly TestTreeNode[], id: string): TestTreeNode | undefined {
  for (const node of nodes) {
    if (node.id === id) return node;
    const inside = findNode(node.children, id);
    if (inside !== undefined) return inside;
  }
  return undefined;
}
