/**
 * A test double of the `vscode` module, for the run path of the Test Explorer (extension/testing/
 * configRun.ts, testRunSink.ts), which imports `vscode` itself: `useFakeVscodeModule()` (below) makes
 * `require('vscode')` load this file. It holds only what that path calls — the workspace's trust and
 * folders, the confirmation dialog, TestMessage, Location, Position, Uri — and records the dialogs
 * asked; `RecordingTestRun` records the states a run gives each item, in order. Anything else is
 * missing, so a new use shows up as a failing test.
 */
import { relative } from 'node:path';
import { pathToFileURL } from 'node:url';

export class Uri {
  private constructor(readonly fsPath: string) {}
  static file(path: string): Uri {
    return new Uri(path);
  }
  toString(): string {
    return pathToFileURL(this.fsPath).href;
  }
}

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

export class Location {
  constructor(
    readonly uri: Uri,
    readonly range: Position,
  ) {}
}

export class TestMessage {
  location: Location | undefined;
  expectedOutput: string | undefined;
  actualOutput: string | undefined;
  constructor(readonly message: string) {}
  static diff(message: string, expected: string, actual: string): TestMessage {
    const test = new TestMessage(message);
    test.expectedOutput = expected;
    test.actualOutput = actual;
    return test;
  }
}

/** What the fake workspace is: a test sets it before a run. */
export const state = {
  root: '/',
  isTrusted: true,
  /** The answer to a modal warning (the judge-call confirmation): the button's label, or undefined for Cancel. */
  warningAnswer: undefined as string | undefined,
  /** The questions asked, in order. */
  warnings: [] as string[],
  /** The modal dialogs' detail texts, in the same order (the estimate of tokens and cost is there). */
  details: [] as string[],
  /** Called as a question is asked (to see what the Testing view shows meanwhile). */
  onWarning: undefined as (() => void) | undefined,
};

export const workspace = {
  get isTrusted(): boolean {
    return state.isTrusted;
  },
  getWorkspaceFolder(uri: Uri): { readonly uri: Uri } | undefined {
    return relative(state.root, uri.fsPath).startsWith('..') ? undefined : { uri: Uri.file(state.root) };
  },
  asRelativePath(pathOrUri: string | Uri): string {
    return relative(state.root, typeof pathOrUri === 'string' ? pathOrUri : pathOrUri.fsPath);
  },
};

export const window = {
  showWarningMessage(question: string, options?: { readonly detail?: string }): Promise<string | undefined> {
    state.warnings.push(question);
    state.details.push(options?.detail ?? '');
    state.onWarning?.();
    return Promise.resolve(state.warningAnswer);
  },
};

export type TestState = 'enqueued' | 'started' | 'passed' | 'failed' | 'errored' | 'skipped';

/** A TestRun that records each item's states, in order, with when each came (ms since the run was made). */
export class RecordingTestRun {
  readonly name = 'recording';
  readonly token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) };
  readonly isPersisted = false;
  readonly calls: { readonly state: TestState; readonly id: string; readonly atMs: number }[] = [];
  readonly output: string[] = [];
  /** The messages given with `errored`, in order. */
  readonly erroredMessages: { readonly id: string; readonly message: unknown }[] = [];
  private readonly made = performance.now();
  enqueued = (item: { id: string }) => this.record('enqueued', item);
  started = (item: { id: string }) => this.record('started', item);
  passed = (item: { id: string }) => this.record('passed', item);
  failed = (item: { id: string }) => this.record('failed', item);
  errored = (item: { id: string }, message?: unknown) => {
    this.erroredMessages.push({ id: item.id, message });
    this.record('errored', item);
  };
  skipped = (item: { id: string }) => this.record('skipped', item);
  appendOutput = (text: string) => void this.output.push(text);
  addCoverage(): void {}
  end(): void {}
  onDidDispose = () => ({ dispose() {} });
  /** Each item's last state. */
  finalStates(): Map<string, TestState> {
    return new Map(this.calls.map((c) => [c.id, c.state]));
  }
  private record(state: TestState, item: { id: string }): void {
    this.calls.push({ state, id: item.id, atMs: performance.now() - this.made });
  }
}
