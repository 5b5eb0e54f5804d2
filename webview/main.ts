/// <reference types="vscode-webview" />
/**
 * The results view (placeholder): says it is ready, then shows the summary of the report the host
 * sends. Text only, through `textContent`: nothing from a run is ever parsed as HTML.
 */
import type { Report } from '../core/report/report';
import { type HostToWebview, isHostToWebview, PROTOCOL_VERSION, type WebviewToHost } from '../protocol/webview';

const vscode = acquireVsCodeApi();

function post(message: WebviewToHost): void {
  vscode.postMessage(message);
}

function render(root: HTMLElement, lines: readonly string[]): void {
  const paragraphs = lines.map((line) => {
    const p = document.createElement('p');
    p.textContent = line;
    return p;
  });
  root.replaceChildren(...paragraphs);
}

function summaryLines(report: Report): string[] {
  const s = report.summary;
  return [
    `Run ${report.runId} of ${report.configFile}${report.cancelled ? ' (cancelled)' : ''}`,
    `${s.total} cases: ${s.passed} passed, ${s.failed} failed, ${s.errored} errored, ${s.skipped} skipped`,
  ];
}

function linesFor(message: HostToWebview): string[] | undefined {
  switch (message.type) {
    case 'report/show':
      return summaryLines(message.report);
    case 'run/event':
      return message.event.type === 'run/end' ? [`Run finished: ${message.event.summary.total} cases.`] : undefined;
    case 'view/clear':
      return ['No run to show yet.'];
  }
}

function main(): void {
  const root = document.getElementById('root') ?? document.body;
  render(root, ['No run to show yet.']);
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    if (!isHostToWebview(event.data)) return;
    const lines = linesFor(event.data);
    if (lines !== undefined) render(root, lines);
  });
  post({ type: 'webview/ready', version: PROTOCOL_VERSION });
}

main();
