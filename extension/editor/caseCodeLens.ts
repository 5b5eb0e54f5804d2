/**
 * CodeLens: "Run case" and the last result above each case (a JSONL line, a JSON or YAML item, an
 * inline case), and "Run all" / "Open results" / the last run's result ("✓ 7/8 · job 0.91 · 2 min
 * ago") above `scorers:` in a config. Cases come from the CaseIndex, read lazily; the lenses refresh
 * when it, the last results or the last runs change, and each minute while a run's age is shown.
 */
import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { LastComparisons } from '../baseline/lastComparisons';
import type { CaseIndex } from '../testing/caseIndex';
import type { LastResults } from '../testing/lastResults';
import type { LastRuns } from '../testing/lastRuns';
import type { EvalTestTree } from '../testing/testTree';
import { caseLenses, configRunTitle } from './caseAnnotations';

export const RUN_CASE_COMMAND = 'evallens.runCase';
export const RUN_CONFIG_COMMAND = 'evallens.runConfig';
export const OPEN_RESULTS_COMMAND = 'evallens.openResults';

/** Configs, and the dataset formats a config can name. */
export const ANNOTATED_FILES: vscode.DocumentSelector = [
  { scheme: 'file', language: 'evallens-yaml' },
  { scheme: 'file', pattern: '**/*.{jsonl,json,yaml,yml,csv}' },
];

const CONFIG_FILE = /\.eval\.ya?ml$/;
const SCORERS_KEY = /^scorers\s*:/m;
/** How often the age of a shown run ("2 min ago") is brought up to date. */
const AGE_REFRESH_MS = 60_000;

export class CaseCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private pending: ReturnType<typeof setTimeout> | undefined;
  private readonly ageTimer: ReturnType<typeof setInterval>;

  constructor(
    private readonly index: CaseIndex,
    private readonly lastResults: LastResults,
    private readonly tree: EvalTestTree,
    private readonly lastRuns: LastRuns,
    private readonly comparisons?: LastComparisons,
  ) {
    this.disposables.push(
      index.onDidChange(() => this.refreshSoon()),
      lastResults.onDidChange(() => this.refreshSoon()),
      lastRuns.onDidChange(() => this.refreshSoon()),
    );
    if (comparisons !== undefined) this.disposables.push(comparisons.onDidChange(() => this.refreshSoon()));
    this.ageTimer = setInterval(() => {
      if (this.lastRuns.size > 0) this.changed.fire();
    }, AGE_REFRESH_MS);
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const file = document.uri.fsPath;
    // Lazily, off activation: the first lens request finds the configs; lenses refresh when they are read.
    void this.tree.discoverConfigs();
    const lenses: vscode.CodeLens[] = [];
    if (CONFIG_FILE.test(file)) {
      void this.tree.readConfig(file);
      const match = SCORERS_KEY.exec(document.getText());
      if (match !== null) {
        const range = new vscode.Range(document.positionAt(match.index), document.positionAt(match.index));
        lenses.push(
          new vscode.CodeLens(range, { title: 'Run all', command: RUN_CONFIG_COMMAND, arguments: [file] }),
          new vscode.CodeLens(range, { title: 'Open results', command: OPEN_RESULTS_COMMAND, arguments: [file] }),
        );
        const run = this.lastRuns.get(file);
        if (run !== undefined)
          lenses.push(
            new vscode.CodeLens(range, {
              title: configRunTitle(run, Date.now()),
              tooltip:
                'The last run of this config in this window: cases passed, job score, when. Click to open its results.',
              command: OPEN_RESULTS_COMMAND,
              arguments: [file],
            }),
          );
      }
    }
    const specs = caseLenses(
      this.index.sitesInFile(file),
      (config, caseId) => this.lastResults.get(config, caseId),
      (config) => basename(config),
      (config, caseId) => this.comparisons?.get(config, caseId),
    );
    for (const spec of specs) {
      const range = new vscode.Range(spec.line, 0, spec.line, 0);
      const command = spec.kind === 'run-case' ? RUN_CASE_COMMAND : OPEN_RESULTS_COMMAND;
      const args = spec.kind === 'run-case' ? [spec.configFile, spec.caseId] : [spec.configFile];
      lenses.push(
        new vscode.CodeLens(range, {
          title: spec.title,
          command,
          arguments: args,
          ...(spec.kind === 'transition' ? { tooltip: spec.tooltip } : {}),
        }),
      );
    }
    return lenses;
  }

  /** Many changes arrive together (a run ends many cases): one refresh for them. */
  private refreshSoon(): void {
    this.pending ??= setTimeout(() => {
      this.pending = undefined;
      this.changed.fire();
    }, 100);
  }

  dispose(): void {
    if (this.pending !== undefined) clearTimeout(this.pending);
    clearInterval(this.ageTimer);
    for (const d of this.disposables) d.dispose();
  }
}
