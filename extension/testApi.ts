/**
 * What the in-extension-host suite (test/vscode/) reads of the extension, returned by `activate` only
 * when VS Code runs extension tests (ExtensionMode.Test): another extension's TestItems and test
 * results have no public API, so the suite gets the Test Explorer tree and what each run told VS Code
 * (state and messages per case) as plain data. It records through the TestController's public
 * interface only, so it keeps working whatever the runner does inside.
 */
import type * as vscode from 'vscode';

export interface TestTreeNode {
  readonly id: string;
  readonly label: string;
  /** The file the item points at, and its 0-based start line when it has a range. */
  readonly file?: string;
  readonly line?: number;
  readonly error?: string;
  readonly description?: string;
  readonly children: readonly TestTreeNode[];
}

export type RecordedState = 'enqueued' | 'started' | 'passed' | 'failed' | 'errored' | 'skipped';

export interface RecordedMessage {
  readonly text: string;
  readonly hasDiff: boolean;
  readonly file?: string;
  readonly line?: number;
}

export interface RecordedRun {
  readonly name: string | undefined;
  /** Per test item id, the last state the run gave it and the messages that came with it. */
  readonly states: Readonly<
    Record<string, { readonly state: RecordedState; readonly messages: readonly RecordedMessage[] }>
  >;
  /** What the run wrote to Test Results, with the item it was attached to. */
  readonly output: readonly { readonly text: string; readonly testId?: string }[];
  readonly ended: boolean;
}

export interface EvalLensTestApi {
  testTree(): TestTreeNode[];
  runs(): readonly RecordedRun[];
  /** The regressions status bar item's text and tooltip, while it shows (another extension's status bar items have no public API). */
  regressionStatus(): { readonly text: string; readonly tooltip: string } | undefined;
}

export function createTestApi(
  controller: vscode.TestController,
  regressionStatus: EvalLensTestApi['regressionStatus'] = () => undefined,
): EvalLensTestApi {
  const runs: RecordedRun[] = [];
  const createTestRun = controller.createTestRun.bind(controller);
  controller.createTestRun = (request, name, persist) => {
    const run = createTestRun(request, name, persist);
    const recorded = {
      name,
      states: {} as Record<string, RecordedRun['states'][string]>,
      output: [] as RecordedRun['output'][number][],
      ended: false,
    };
    runs.push(recorded);
    const mark = (
      state: RecordedState,
      test: vscode.TestItem,
      messages?: vscode.TestMessage | readonly vscode.TestMessage[],
    ) => {
      recorded.states[test.id] = {
        state,
        messages: (messages === undefined ? [] : Array.isArray(messages) ? messages : [messages]).map(recordMessage),
      };
    };
    return new Proxy(run, {
      get(target, property, receiver) {
        switch (property) {
          case 'enqueued':
          case 'started':
          case 'skipped':
            return (test: vscode.TestItem) => {
              mark(property, test);
              target[property](test);
            };
          case 'passed':
            return (test: vscode.TestItem, duration?: number) => {
              mark('passed', test);
              target.passed(test, duration);
            };
          case 'failed':
          case 'errored':
            return (
              test: vscode.TestItem,
              message: vscode.TestMessage | readonly vscode.TestMessage[],
              duration?: number,
            ) => {
              mark(property, test, message);
              target[property](test, message, duration);
            };
          case 'appendOutput':
            return (text: string, location?: vscode.Location, test?: vscode.TestItem) => {
              recorded.output.push({ text, ...(test === undefined ? {} : { testId: test.id }) });
              target.appendOutput(text, location, test);
            };
          case 'end':
            return () => {
              recorded.ended = true;
              target.end();
            };
          default: {
            const value: unknown = Reflect.get(target, property, receiver);
            return typeof value === 'function' ? value.bind(target) : value;
          }
        }
      },
    });
  };
  return {
    testTree: () => nodesOf(controller.items),
    runs: () => runs,
    regressionStatus,
  };
}

function nodesOf(items: vscode.TestItemCollection): TestTreeNode[] {
  const nodes: TestTreeNode[] = [];
  items.forEach((item) => {
    nodes.push({
      id: item.id,
      label: item.label,
      ...(item.uri === undefined ? {} : { file: item.uri.fsPath }),
      ...(item.range === undefined ? {} : { line: item.range.start.line }),
      ...(typeof item.error === 'string'
        ? { error: item.error }
        : item.error === undefined
          ? {}
          : { error: item.error.value }),
      ...(item.description === undefined ? {} : { description: item.description }),
      children: nodesOf(item.children),
    });
  });
  return nodes;
}

function recordMessage(message: vscode.TestMessage): RecordedMessage {
  return {
    text: typeof message.message === 'string' ? message.message : message.message.value,
    hasDiff: message.expectedOutput !== undefined && message.actualOutput !== undefined,
    ...(message.location === undefined
      ? {}
      : { file: message.location.uri.fsPath, line: message.location.range.start.line }),
  };
}
