/**
 * A test double of the part of VS Code's API the Test Explorer glue uses (tests.createTestController,
 * test items and their collections, file system watchers, findFiles, Uri, Range), so the tree and run
 * targeting are tested without VS Code, as playwright-vscode tests its extension with a mock `vscode`.
 * Items keep what the tree sets on them; watchers record their pattern and let a test fire events.
 * Only what the glue calls is here: anything else throws, so a new use shows up as a failing test.
 */
import { relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as vscode from 'vscode';
import type { TestTreeApi } from '../../extension/testing/testTree';

class FakeUri {
  constructor(readonly fsPath: string) {}
  toString(): string {
    return pathToFileURL(this.fsPath).href;
  }
}

class FakeRange {
  readonly start: { readonly line: number; readonly character: number };
  readonly end: { readonly line: number; readonly character: number };
  constructor(startLine: number, startCharacter: number, endLine: number, endCharacter: number) {
    this.start = { line: startLine, character: startCharacter };
    this.end = { line: endLine, character: endCharacter };
  }
}

class FakeRelativePattern {
  constructor(
    readonly baseUri: FakeUri,
    readonly pattern: string,
  ) {}
}

export class FakeTestItemCollection implements vscode.TestItemCollection {
  private readonly items = new Map<string, FakeTestItem>();
  constructor(private readonly owner: FakeTestItem | undefined) {}
  get size(): number {
    return this.items.size;
  }
  replace(items: readonly vscode.TestItem[]): void {
    this.items.clear();
    for (const item of items) this.add(item);
  }
  forEach(callback: (item: vscode.TestItem, collection: vscode.TestItemCollection) => unknown): void {
    for (const item of this.items.values()) callback(item, this);
  }
  add(item: vscode.TestItem): void {
    const fake = item as FakeTestItem;
    fake.parent = this.owner;
    this.items.set(item.id, fake);
  }
  delete(itemId: string): void {
    this.items.delete(itemId);
  }
  get(itemId: string): FakeTestItem | undefined {
    return this.items.get(itemId);
  }
  [Symbol.iterator](): Iterator<[id: string, testItem: vscode.TestItem]> {
    return this.items.entries();
  }
  /** The items in the order the Testing view shows them (by sortText, then label). */
  sorted(): FakeTestItem[] {
    return [...this.items.values()].sort((a, b) => (a.sortText ?? a.label).localeCompare(b.sortText ?? b.label));
  }
}

export class FakeTestItem implements vscode.TestItem {
  readonly children: FakeTestItemCollection = new FakeTestItemCollection(this);
  parent: FakeTestItem | undefined;
  tags: readonly vscode.TestTag[] = [];
  canResolveChildren = false;
  busy = false;
  description?: string;
  sortText?: string;
  range: vscode.Range | undefined;
  error: string | vscode.MarkdownString | undefined;
  constructor(
    readonly id: string,
    public label: string,
    readonly uri: vscode.Uri | undefined,
  ) {}
}

export class FakeTestController implements vscode.TestController {
  readonly items = new FakeTestItemCollection(undefined);
  resolveHandler?: (item: vscode.TestItem | undefined) => Thenable<void> | void;
  refreshHandler: ((token: vscode.CancellationToken) => Thenable<void> | void) | undefined;
  disposed = false;
  constructor(
    readonly id: string,
    public label: string,
  ) {}
  createTestItem(id: string, label: string, uri?: vscode.Uri): FakeTestItem {
    return new FakeTestItem(id, label, uri);
  }
  createRunProfile(): vscode.TestRunProfile {
    throw new Error('FakeTestController: createRunProfile is not faked');
  }
  createTestRun(): vscode.TestRun {
    throw new Error('FakeTestController: createTestRun is not faked');
  }
  invalidateTestResults(): void {
    throw new Error('FakeTestController: invalidateTestResults is not faked');
  }
  dispose(): void {
    this.disposed = true;
  }
}

type Listener = (uri: vscode.Uri) => unknown;

/** A file system watcher: its pattern, and the events a test fires at it. */
export class FakeFileSystemWatcher {
  readonly listeners = { create: new Set<Listener>(), change: new Set<Listener>(), delete: new Set<Listener>() };
  disposed = false;
  constructor(readonly pattern: string | FakeRelativePattern) {}
  readonly ignoreCreateEvents = false;
  readonly ignoreChangeEvents = false;
  readonly ignoreDeleteEvents = false;
  onDidCreate = (listener: Listener) => this.listen('create', listener);
  onDidChange = (listener: Listener) => this.listen('change', listener);
  onDidDelete = (listener: Listener) => this.listen('delete', listener);
  fire(kind: 'create' | 'change' | 'delete', file: string): void {
    for (const listener of this.listeners[kind]) listener(new FakeUri(file) as unknown as vscode.Uri);
  }
  dispose(): void {
    this.disposed = true;
  }
  /** The one file a relative pattern names, or undefined for a glob. */
  get file(): string | undefined {
    return typeof this.pattern === 'string' ? undefined : `${this.pattern.baseUri.fsPath}/${this.pattern.pattern}`;
  }
  private listen(kind: 'create' | 'change' | 'delete', listener: Listener): vscode.Disposable {
    this.listeners[kind].add(listener);
    return { dispose: () => this.listeners[kind].delete(listener) };
  }
}

export interface FakeTestingApi {
  readonly api: TestTreeApi;
  /** The controllers created, in order. */
  readonly controllers: FakeTestController[];
  /** Every watcher created, disposed or not. */
  readonly watchers: FakeFileSystemWatcher[];
  /** Calls to findFiles, with their glob. */
  readonly searches: string[];
}

/** The fake API over a workspace at `root` whose findFiles returns `files()` (absolute paths). */
export function fakeTestingApi(root: string, files: () => readonly string[]): FakeTestingApi {
  const controllers: FakeTestController[] = [];
  const watchers: FakeFileSystemWatcher[] = [];
  const searches: string[] = [];
  const workspace = {
    createFileSystemWatcher(pattern: string | FakeRelativePattern): FakeFileSystemWatcher {
      const watcher = new FakeFileSystemWatcher(pattern);
      watchers.push(watcher);
      return watcher;
    },
    findFiles(glob: string): Promise<FakeUri[]> {
      searches.push(glob);
      return Promise.resolve(files().map((file) => new FakeUri(file)));
    },
    asRelativePath(pathOrUri: string | FakeUri): string {
      return relative(root, typeof pathOrUri === 'string' ? pathOrUri : pathOrUri.fsPath);
    },
  };
  const fake = {
    tests: {
      createTestController(id: string, label: string): FakeTestController {
        const controller = new FakeTestController(id, label);
        controllers.push(controller);
        return controller;
      },
    },
    workspace,
    Uri: { file: (path: string) => new FakeUri(path) },
    RelativePattern: FakeRelativePattern,
    Range: FakeRange,
    Disposable: {
      from: (...disposables: { dispose(): unknown }[]) => ({ dispose: () => disposables.forEach((d) => d.dispose()) }),
    },
  };
  // The one cast of this double: its Uri, Range and watchers have only the members the glue uses.
  return { api: fake as unknown as TestTreeApi, controllers, watchers, searches };
}
