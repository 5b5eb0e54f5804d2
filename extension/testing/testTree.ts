/**
 * The Test Explorer tree: config → cases. Lazy: configs are found (findFiles) when the Testing view
 * first asks, and a config's cases are read when it is expanded or run. Kept current by watchers on
 * the configs and on the datasets they name. Data stays in the CaseIndex; the items only mirror it.
 * VS Code's API comes in as a parameter (the extension passes `vscode`), so that tests can pass a
 * fake (test/support/fakeTestController.ts), as playwright-vscode does.
 */
import { maskedText } from '../runner/maskedText';
import { basename, dirname } from 'node:path';
import type * as vscode from 'vscode';
import type { SourceRange } from '../../core/text/position';
import { printable } from '../../shared/text/printable';
import type { DiscoveredConfig } from './caseDiscovery';
import type { CaseIndex } from './caseIndex';
import { caseTestId } from './testIds';

/** The part of VS Code's API the tree uses. */
export interface TestTreeApi {
  readonly tests: { createTestController(id: string, label: string): vscode.TestController };
  readonly workspace: Pick<typeof vscode.workspace, 'createFileSystemWatcher' | 'findFiles' | 'asRelativePath'>;
  readonly Uri: { file(path: string): vscode.Uri };
  readonly RelativePattern: new (base: vscode.Uri, pattern: string) => vscode.RelativePattern;
  readonly Range: new (
    startLine: number,
    startCharacter: number,
    endLine: number,
    endCharacter: number,
  ) => vscode.Range;
  readonly Disposable: { from(...disposables: { dispose(): unknown }[]): vscode.Disposable };
}

export const CONFIG_GLOB = '**/*.eval.{yaml,yml}';
/** Read every config's cases right after discovery only in workspaces this small; larger ones read on expand. */
const EAGER_CONFIG_LIMIT = 20;

export class EvalTestTree implements vscode.Disposable {
  readonly controller: vscode.TestController;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly datasetWatchers = new Map<string, vscode.Disposable>();
  private roots: Promise<void> | undefined;

  constructor(
    private readonly index: CaseIndex,
    private readonly output: Pick<vscode.LogOutputChannel, 'info' | 'error'>,
    private readonly api: TestTreeApi,
  ) {
    this.controller = this.api.tests.createTestController('evallens', 'EvalLens');
    this.disposables.push(this.controller);
    this.controller.resolveHandler = async (item) => {
      if (item === undefined) await this.discoverConfigs();
      else await this.readConfig(item.uri?.fsPath ?? '');
    };
    this.controller.refreshHandler = async () => {
      this.roots = undefined;
      await this.discoverConfigs();
      await Promise.all(this.index.configFiles().map((file) => this.readConfig(file, true)));
    };
    this.disposables.push(
      this.index.onDidChange((config) =>
        'removed' in config ? this.removeConfig(config.configFile) : this.showConfig(config),
      ),
    );

    const watcher = this.api.workspace.createFileSystemWatcher(CONFIG_GLOB);
    this.disposables.push(
      watcher,
      watcher.onDidCreate((uri) => {
        if (this.roots === undefined) return;
        this.addConfigItem(uri.fsPath);
        void this.readConfig(uri.fsPath, true);
      }),
      watcher.onDidChange((uri) => {
        if (this.index.has(uri.fsPath)) void this.readConfig(uri.fsPath, true);
      }),
      watcher.onDidDelete((uri) => this.index.remove(uri.fsPath)),
    );
  }

  /** Finds the workspace's configs once (again after a refresh). */
  discoverConfigs(): Promise<void> {
    this.roots ??= (async () => {
      const started = performance.now();
      const uris = await this.api.workspace.findFiles(CONFIG_GLOB, '**/node_modules/**');
      for (const uri of uris) this.addConfigItem(uri.fsPath);
      this.output.info(
        `Found ${uris.length} eval config${uris.length === 1 ? '' : 's'} in ${Math.round(performance.now() - started)} ms.`,
      );
      // Together, so one CLI process lists them all.
      if (uris.length <= EAGER_CONFIG_LIMIT) await Promise.all(uris.map((uri) => this.readConfig(uri.fsPath)));
    })();
    return this.roots;
  }

  configItem(configFile: string): vscode.TestItem | undefined {
    return this.controller.items.get(this.api.Uri.file(configFile).toString());
  }

  /** The case's item; created from the run's own event when the tree does not have it yet. */
  caseItem(configFile: string, caseId: string, range?: SourceRange): vscode.TestItem | undefined {
    const parent = this.configItem(configFile) ?? this.addConfigItem(configFile);
    const id = caseTestId(parent.id, caseId);
    const existing = parent.children.get(id);
    if (existing !== undefined || range === undefined) return existing;
    const item = this.createCaseItem(parent, caseId, range, parent.children.size);
    parent.children.add(item);
    return item;
  }

  /** Reads a config's cases; never throws (a failure is shown on the config's item). */
  async readConfig(configFile: string, again = false): Promise<DiscoveredConfig | undefined> {
    if (configFile === '') return undefined;
    try {
      return again ? await this.index.refresh(configFile) : await this.index.ensure(configFile);
    } catch (e) {
      const item = this.configItem(configFile);
      const message = printable(
        maskedText(`EvalLens could not read the cases of ${configFile}: ${e instanceof Error ? e.message : String(e)}`),
      );
      this.output.error(message);
      if (item !== undefined) item.error = message;
      return undefined;
    }
  }

  private addConfigItem(configFile: string): vscode.TestItem {
    this.index.add(configFile);
    const uri = this.api.Uri.file(configFile);
    const existing = this.controller.items.get(uri.toString());
    if (existing !== undefined) return existing;
    const item = this.controller.createTestItem(uri.toString(), printable(this.api.workspace.asRelativePath(uri)), uri);
    item.canResolveChildren = true;
    this.controller.items.add(item);
    return item;
  }

  private showConfig(config: DiscoveredConfig): void {
    const parent = this.addConfigItem(config.configFile);
    parent.canResolveChildren = false;
    parent.error =
      config.problem === undefined
        ? undefined
        : printable(maskedText(`${this.api.workspace.asRelativePath(config.configFile)}:${config.problem}`));
    const items = new Map<string, vscode.TestItem>();
    config.cases.forEach((c, i) => {
      const item = this.createCaseItem(parent, c.id, c.range, i);
      if (c.readError !== undefined) item.description = 'unreadable record';
      items.set(item.id, item);
    });
    parent.children.replace([...items.values()]);
    this.syncDatasetWatchers();
  }

  private removeConfig(configFile: string): void {
    this.controller.items.delete(this.api.Uri.file(configFile).toString());
    this.syncDatasetWatchers();
  }

  private createCaseItem(
    parent: vscode.TestItem,
    caseId: string,
    range: SourceRange,
    position: number,
  ): vscode.TestItem {
    // The id stays exact; the label shown is escaped (no bidi control reorders the tree).
    const item = this.controller.createTestItem(
      caseTestId(parent.id, caseId),
      printable(caseId),
      this.api.Uri.file(range.file),
    );
    item.range = new this.api.Range(range.start.line, range.start.column, range.end.line, range.end.column);
    // Dataset order, not the alphabetical order of labels.
    item.sortText = String(position).padStart(10, '0');
    return item;
  }

  /** One watcher per dataset file that a known config reads; a change re-reads those configs. */
  private syncDatasetWatchers(): void {
    const wanted = new Set<string>();
    for (const file of this.index.configFiles()) {
      const dataset = this.index.get(file)?.datasetFile;
      if (dataset !== undefined) wanted.add(dataset);
    }
    for (const [file, watcher] of this.datasetWatchers) {
      if (wanted.has(file)) continue;
      watcher.dispose();
      this.datasetWatchers.delete(file);
    }
    for (const file of wanted) {
      if (this.datasetWatchers.has(file)) continue;
      const watcher = this.api.workspace.createFileSystemWatcher(
        new this.api.RelativePattern(this.api.Uri.file(dirname(file)), basename(file)),
      );
      const reread = () => {
        for (const configFile of this.index.configsReading(file))
          if (configFile !== file) void this.readConfig(configFile, true);
      };
      this.datasetWatchers.set(
        file,
        this.api.Disposable.from(
          watcher,
          watcher.onDidChange(reread),
          watcher.onDidCreate(reread),
          watcher.onDidDelete(reread),
        ),
      );
    }
  }

  dispose(): void {
    for (const watcher of this.datasetWatchers.values()) watcher.dispose();
    this.datasetWatchers.clear();
    for (const d of this.disposables) d.dispose();
  }
}
