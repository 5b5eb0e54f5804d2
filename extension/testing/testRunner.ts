/**
 * The run profiles — "Run" (default, continuous-capable) and "Run with trials…" — and how a request
 * (items picked in the Testing view, a CodeLens, a save) becomes one CLI run per config. Every
 * TestRun is ended in a `finally`.
 */
import * as vscode from 'vscode';
import type { EvalLensSettings } from '../settings';
import type { CaseIndex } from './caseIndex';
import { requestedItems, runConfig, type RunObservers } from './configRun';
import { targetsOf, type Targets } from './runTargets';
import type { EvalTestTree } from './testTree';

export interface TestRunnerDeps {
  readonly tree: EvalTestTree;
  readonly index: CaseIndex;
  readonly cliPath: string;
  readonly output: vscode.LogOutputChannel;
  readonly settings: () => EvalLensSettings;
  readonly observers: RunObservers;
  /** After a test run's configs have all run (not when it failed to): which ones, and whether a save started it. */
  readonly afterRun?: (configFiles: readonly string[], fromSave: boolean) => void;
}

const MAX_TRIALS = 1000;

export class EvalTestRunner implements vscode.Disposable {
  readonly runProfile: vscode.TestRunProfile;
  readonly trialsProfile: vscode.TestRunProfile;
  /** Configs with a save-started run in flight, and whether another save came in meanwhile. */
  private readonly saveRuns = new Map<string, { again: boolean }>();

  constructor(private readonly deps: TestRunnerDeps) {
    const controller = deps.tree.controller;
    this.runProfile = controller.createRunProfile(
      'Run',
      vscode.TestRunProfileKind.Run,
      (request, token) => this.handle(request, token),
      true,
      undefined,
      true,
    );
    this.trialsProfile = controller.createRunProfile(
      'Run with trials…',
      vscode.TestRunProfileKind.Run,
      async (request, token) => {
        const trials = await askTrials();
        if (trials !== undefined) await this.handle(request, token, trials);
      },
    );
  }

  /** "Run case" (CodeLens) and "Run all": a request like one from the Testing view, so its results show there. */
  async runItems(configFile: string, caseId?: string): Promise<void> {
    await this.deps.tree.readConfig(configFile);
    const item =
      caseId === undefined ? this.deps.tree.configItem(configFile) : this.deps.tree.caseItem(configFile, caseId);
    if (item === undefined) {
      void vscode.window.showWarningMessage(
        `EvalLens: ${caseId === undefined ? 'the config' : `case "${caseId}"`} is not in the Test Explorer (see the EvalLens output).`,
      );
      return;
    }
    const source = new vscode.CancellationTokenSource();
    try {
      await this.handle(new vscode.TestRunRequest([item], undefined, this.runProfile), source.token);
    } finally {
      source.dispose();
    }
  }

  /** A config or its dataset was saved: run its free scorers (evallens.run.onSave, or a continuous run). */
  async runOnSave(configFile: string, caseIds?: readonly string[]): Promise<void> {
    const inFlight = this.saveRuns.get(configFile);
    if (inFlight !== undefined) {
      inFlight.again = true;
      return;
    }
    const state = { again: false };
    this.saveRuns.set(configFile, state);
    try {
      do {
        state.again = false;
        const targets: Targets = new Map([[configFile, caseIds === undefined ? undefined : new Set(caseIds)]]);
        const source = new vscode.CancellationTokenSource();
        try {
          await this.runTargets(targets, this.requestFor(targets, true), source.token, undefined, true);
        } finally {
          source.dispose();
        }
      } while (state.again);
    } finally {
      this.saveRuns.delete(configFile);
    }
  }

  private async handle(
    request: vscode.TestRunRequest,
    token: vscode.CancellationToken,
    trials?: number,
  ): Promise<void> {
    const targets = await targetsOf(request, this.deps.tree, (uri) => vscode.Uri.parse(uri).fsPath);
    if (request.continuous === true) return this.watch(targets, token);
    await this.runTargets(targets, request, token, trials, false);
  }

  private async runTargets(
    targets: Targets,
    request: vscode.TestRunRequest,
    token: vscode.CancellationToken,
    trials: number | undefined,
    fromSave: boolean,
  ): Promise<void> {
    const run = this.deps.tree.controller.createTestRun(
      request,
      targets.size === 1 ? vscode.workspace.asRelativePath([...targets.keys()][0] ?? '') : 'EvalLens',
      true,
    );
    try {
      const parts = [...targets].map(([configFile, caseIds]) => ({
        configFile,
        fromSave,
        ...(caseIds === undefined ? {} : { caseIds: [...caseIds] }),
        ...(trials === undefined ? {} : { trials }),
      }));
      // Every config's cases queued at once: the later configs' too, while the first one runs.
      for (const part of parts) for (const item of requestedItems(this.deps.tree, part)) run.enqueued(item);
      for (const part of parts) {
        if (token.isCancellationRequested) {
          // Queued above, never to run: not left showing as queued.
          for (const item of requestedItems(this.deps.tree, part)) run.skipped(item);
          continue;
        }
        const discovered = await this.deps.tree.readConfig(part.configFile);
        await runConfig(
          run,
          part,
          {
            cliPath: this.deps.cliPath,
            settings: this.deps.settings(),
            tree: this.deps.tree,
            output: this.deps.output,
            observers: this.deps.observers,
            discovered,
          },
          token,
        );
      }
      this.deps.afterRun?.([...targets.keys()], fromSave);
    } catch (e) {
      this.deps.output.error(`The run failed: ${e instanceof Error ? e.message : String(e)}`);
      void vscode.window.showErrorMessage('EvalLens: the run failed. See the EvalLens output for details.');
    } finally {
      run.end();
    }
  }

  /** A continuous run: until cancelled, each save of a watched config or dataset runs its part again. */
  private async watch(targets: Targets, token: vscode.CancellationToken): Promise<void> {
    const listener = vscode.workspace.onDidSaveTextDocument((document) => {
      for (const configFile of this.deps.index.configsReading(document.uri.fsPath)) {
        if (!targets.has(configFile)) continue;
        const caseIds = targets.get(configFile);
        void this.runOnSave(configFile, caseIds === undefined ? undefined : [...caseIds]);
      }
    });
    try {
      await new Promise<void>((resolve) => {
        if (token.isCancellationRequested) resolve();
        token.onCancellationRequested(() => resolve());
      });
    } finally {
      listener.dispose();
    }
  }

  private requestFor(targets: Targets, continuous: boolean): vscode.TestRunRequest {
    const items: vscode.TestItem[] = [];
    for (const [configFile, caseIds] of targets) {
      if (caseIds === undefined) {
        const item = this.deps.tree.configItem(configFile);
        if (item !== undefined) items.push(item);
      } else {
        for (const id of caseIds) {
          const item = this.deps.tree.caseItem(configFile, id);
          if (item !== undefined) items.push(item);
        }
      }
    }
    return new vscode.TestRunRequest(items, undefined, this.runProfile, continuous);
  }

  dispose(): void {
    this.runProfile.dispose();
    this.trialsProfile.dispose();
  }
}

async function askTrials(): Promise<number | undefined> {
  const answer = await vscode.window.showInputBox({
    title: 'EvalLens: Run with trials',
    prompt: 'How many times should each case be scored?',
    value: '3',
    validateInput: (text) =>
      /^\d+$/.test(text.trim()) && Number(text) >= 1 && Number(text) <= MAX_TRIALS
        ? undefined
        : `Enter a whole number from 1 to ${MAX_TRIALS}.`,
  });
  return answer === undefined ? undefined : Number(answer.trim());
}
