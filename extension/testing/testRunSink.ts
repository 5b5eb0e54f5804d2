/** The vscode side of RunEventMapper: case events become TestRun states on the tree's items. */
import * as vscode from 'vscode';
import type { SourceRange } from '../../core/text/position';
import { printable } from '../../shared/text/printable';
import { terminalText } from './resultText';
import type { CaseMessage, MessageLocation, TestRunSink } from './runEventMapper';
import type { EvalTestTree } from './testTree';

export function testRunSink(run: vscode.TestRun, tree: EvalTestTree, configFile: string): TestRunSink {
  const item = (caseId: string, range?: SourceRange) => tree.caseItem(configFile, caseId, range);
  return {
    started(caseId, range) {
      const test = item(caseId, range);
      if (test !== undefined) run.started(test);
    },
    passed(caseId, durationMs) {
      const test = item(caseId);
      if (test !== undefined) run.passed(test, durationMs);
    },
    failed(caseId, messages, durationMs) {
      const test = item(caseId);
      if (test !== undefined) run.failed(test, messages.map(toTestMessage), durationMs);
    },
    errored(caseId, messages, durationMs) {
      const test = item(caseId);
      if (test !== undefined) run.errored(test, messages.map(toTestMessage), durationMs);
    },
    skipped(caseId) {
      const test = item(caseId);
      if (test !== undefined) run.skipped(test);
    },
    output(text, caseId, location) {
      run.appendOutput(
        terminalText(text),
        location === undefined ? undefined : toLocation(location),
        caseId === undefined ? undefined : item(caseId),
      );
    },
  };
}

export function toTestMessage(message: CaseMessage): vscode.TestMessage {
  const test =
    message.expected !== undefined && message.actual !== undefined
      ? vscode.TestMessage.diff(printable(message.text, { lines: true }), message.expected, message.actual)
      : new vscode.TestMessage(printable(message.text, { lines: true }));
  if (message.location !== undefined) test.location = toLocation(message.location);
  return test;
}

export function toLocation(location: MessageLocation): vscode.Location {
  return new vscode.Location(vscode.Uri.file(location.file), new vscode.Position(location.line, location.column));
}
