/**
 * Baselines in the editor, inside a real extension host on a trusted workspace (issue 16): a config
 * is run, "EvalLens: Save as Baseline" writes its baseline beside it, its dataset changes so one case
 * that passed now fails (and one that failed passes), and the next run says so where the person looks:
 * the case's test message, its CodeLens and the status bar; saving that run as the baseline clears
 * them. Launched on its own by
 * test/vscode/baselineInHost.test.ts.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import type { RecordedRun } from '../../../extension/testApi';
import { runTests, waitFor } from './harness';
import { activateEvalLens, caseStates, caseTestId, evalLens, openAt, workspaceFile } from './shared';

const CONFIG = 'baseline-e2e/answers.eval.yaml';
const DATASET = 'baseline-e2e/answers.jsonl';
const BASELINE = 'baseline-e2e/answers.baseline.json';
/** Line by line (0-based line = index): `steady` passes in both runs, `broken` only in the first, `mended` only in the second. */
const FIRST = [
  { id: 'steady', output: 'Paris', expected: 'Paris' },
  { id: 'broken', output: 'Rome', expected: 'Rome' },
  { id: 'mended', output: 'Oslo', expected: 'Bergen' },
];
const SECOND = [
  { id: 'steady', output: 'Paris', expected: 'Paris' },
  { id: 'broken', output: 'Milan', expected: 'Rome' },
  { id: 'mended', output: 'Bergen', expected: 'Bergen' },
];

function writeDataset(rows: readonly object[]): void {
  writeFileSync(workspaceFile(DATASET), `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`);
}

async function runConfig(): Promise<RecordedRun['states']> {
  const before = evalLens().runs().length;
  await vscode.commands.executeCommand('evallens.runConfig', workspaceFile(CONFIG));
  const runs = await waitFor(
    () => evalLens().runs().slice(before),
    (found) => found.length > 0 && found.every((r) => r.ended),
    'the config run to end',
  );
  return caseStates(runs);
}

export async function run(): Promise<void> {
  const configUri = () => vscode.Uri.file(workspaceFile(CONFIG)).toString();
  let second: RecordedRun['states'] = {};

  await runTests([
    {
      name: 'activates',
      async fn() {
        await activateEvalLens();
        mkdirSync(dirname(workspaceFile(CONFIG)), { recursive: true });
        writeFileSync(workspaceFile(CONFIG), 'dataset: answers.jsonl\nscorers:\n  exact_match: null\n');
        writeDataset(FIRST);
      },
    },
    {
      name: 'Save as Baseline writes the last run as <name>.baseline.json beside the config',
      async fn() {
        const states = await runConfig();
        assert.deepEqual(
          FIRST.map((c) => states[caseTestId(configUri(), c.id)]?.state),
          ['passed', 'passed', 'failed'],
        );
        assert.equal(evalLens().regressionStatus(), undefined, 'no baseline yet: no regressions item');
        const written = await vscode.commands.executeCommand<string | undefined>(
          'evallens.saveBaseline',
          workspaceFile(CONFIG),
        );
        assert.equal(written, workspaceFile(BASELINE));
        assert.ok(existsSync(workspaceFile(BASELINE)));
        const baseline = readFileSync(workspaceFile(BASELINE), 'utf8');
        assert.match(baseline, /\{"id":"broken","fingerprint":"[0-9a-f]{16}","passed":true/);
        assert.match(baseline, /\{"id":"mended","fingerprint":"[0-9a-f]{16}","passed":false/);
      },
    },
    {
      name: "a regressed case's test message says it passed in the baseline, with its diff",
      async fn() {
        writeDataset(SECOND);
        second = await runConfig();
        const broken = second[caseTestId(configUri(), 'broken')];
        assert.equal(broken?.state, 'failed');
        const first = broken?.messages[0];
        assert.equal(first?.text.split('\n')[0], '▼ regressed: passed in the baseline, not in this run');
        assert.equal(first?.hasDiff, true);
        assert.equal(first?.line, 1);
        assert.equal(second[caseTestId(configUri(), 'mended')]?.state, 'passed');
      },
    },
    {
      name: 'the CodeLens shows ▼ regressed and ▲ fixed on the cases’ lines',
      async fn() {
        const editor = await openAt(workspaceFile(DATASET));
        const transitions = (lenses: readonly vscode.CodeLens[]) =>
          lenses
            .filter((l) => /^[▼▲]/.test(l.command?.title ?? ''))
            .map((l) => [l.range.start.line, l.command?.title])
            .sort();
        await waitFor(
          async () =>
            transitions(
              await vscode.commands.executeCommand<vscode.CodeLens[]>(
                'vscode.executeCodeLensProvider',
                editor.document.uri,
                100,
              ),
            ),
          (found) =>
            JSON.stringify(found) ===
            JSON.stringify([
              [1, '▼ regressed'],
              [2, '▲ fixed'],
            ]),
          'the ▼ regressed and ▲ fixed lenses',
        );
      },
    },
    {
      name: 'the status bar counts the regressions and names them',
      async fn() {
        const shown = evalLens().regressionStatus();
        assert.equal(shown?.text, '▼ 1 regressed');
        assert.match(shown?.tooltip ?? '', /passed in the baseline, not in the last run:\nbroken\n1 fixed\./);
      },
    },
    {
      name: 'saving that run as the baseline clears the regressions it was compared for',
      async fn() {
        const written = await vscode.commands.executeCommand<string | undefined>(
          'evallens.saveBaseline',
          workspaceFile(CONFIG),
        );
        assert.equal(written, workspaceFile(BASELINE));
        assert.match(
          readFileSync(workspaceFile(BASELINE), 'utf8'),
          /\{"id":"broken","fingerprint":"[0-9a-f]{16}","passed":false/,
        );
        assert.equal(evalLens().regressionStatus(), undefined);
        const editor = await openAt(workspaceFile(DATASET));
        await waitFor(
          async () =>
            (
              await vscode.commands.executeCommand<vscode.CodeLens[]>(
                'vscode.executeCodeLensProvider',
                editor.document.uri,
                100,
              )
            ).map((l) => l.command?.title ?? ''),
          (titles) => titles.some((t) => t.startsWith('Run case')) && !titles.some((t) => /^[▼▲]/.test(t)),
          'the ▼/▲ lenses to go',
        );
      },
    },
  ]);
}
