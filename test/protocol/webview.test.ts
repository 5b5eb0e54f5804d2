import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type HostToWebview,
  isHostToWebview,
  isWebviewToHost,
  PROTOCOL_VERSION,
  type WebviewToHost,
} from '../../protocol/webview';
import { reportOf } from '../webview/support/runs';

describe('webview protocol guards', () => {
  it('accepts every message the view sends, as posted (after a JSON round trip)', () => {
    const messages: WebviewToHost[] = [
      { type: 'webview/ready', version: PROTOCOL_VERSION },
      { type: 'case/reveal', target: { configFile: '/a.eval.yaml', caseId: 'c1' } },
      {
        type: 'case/reveal',
        target: { configFile: '/a.eval.yaml', caseId: 'c1', location: { file: '/a.jsonl', line: 3, column: 1 } },
      },
      { type: 'case/request', configFile: '/a.eval.yaml', caseId: 'c1' },
    ];
    for (const message of messages) assert.ok(isWebviewToHost(JSON.parse(JSON.stringify(message))), message.type);
  });

  it('refuses what the host would misread', () => {
    const bad: unknown[] = [
      null,
      'webview/ready',
      [],
      { type: 'webview/ready' },
      { type: 'webview/ready', version: '2' },
      { type: 'case/reveal', caseId: 'c1' },
      { type: 'case/reveal', target: { caseId: 'c1' } },
      {
        type: 'case/reveal',
        target: { configFile: '/a', caseId: 'c1', location: { file: '/a.jsonl', line: 0, column: 1 } },
      },
      {
        type: 'case/reveal',
        target: { configFile: '/a', caseId: 'c1', location: { file: '/a.jsonl', line: 1.5, column: 1 } },
      },
      { type: 'case/request', configFile: '/a' },
      { type: 'report/show' },
      { type: 'nothing' },
    ];
    for (const message of bad) assert.equal(isWebviewToHost(message), false, JSON.stringify(message));
  });

  it('accepts every message the host sends, and refuses malformed ones', () => {
    const report = reportOf(2);
    const good: HostToWebview[] = [
      { type: 'report/show', report, complete: false },
      { type: 'report/append', cases: report.cases, results: report.results, complete: true },
      { type: 'run/events', events: [] },
      { type: 'run/events', events: [], aggregates: { scorers: report.scorers } },
      { type: 'case/data', configFile: '/a', caseId: 'c', data: { id: 'c' } },
      { type: 'case/unavailable', configFile: '/a', caseId: 'c', reason: 'gone' },
      { type: 'view/clear' },
    ];
    for (const message of good) assert.ok(isHostToWebview(JSON.parse(JSON.stringify(message))), message.type);
    const bad: unknown[] = [
      { type: 'report/show', report: { ...report, results: undefined }, complete: true },
      { type: 'report/show', report },
      { type: 'report/append', cases: [], complete: true },
      { type: 'run/events', events: {} },
      { type: 'run/event', event: {} },
      { type: 'case/data', configFile: '/a', caseId: 'c' },
      { type: 'case/unavailable', configFile: '/a', caseId: 'c' },
      { type: 'webview/ready', version: 2 },
      undefined,
    ];
    for (const message of bad) assert.equal(isHostToWebview(message), false, JSON.stringify(message));
  });
});
