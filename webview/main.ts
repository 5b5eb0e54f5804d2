/// <reference types="vscode-webview" />
/**
 * The results view's entry point: connects the app to VS Code. It restores what the person chose
 * (filters, sort, selection) from the webview state, since the panel does not keep its context while
 * hidden, then says `webview/ready`; the host answers by sending the run again.
 */
import { type HostToWebview, isHostToWebview, PROTOCOL_VERSION } from '../protocol/webview';
import type { PersistedView } from './model/actions';
import { ResultsApp } from './view/app';
import './results.css';

const vscode = acquireVsCodeApi<PersistedView>();

function isPersistedView(value: unknown): value is PersistedView {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as {
    filters?: { statuses?: unknown; scorers?: unknown; search?: unknown };
    sort?: { column?: unknown; direction?: unknown };
    detailOpen?: unknown;
  };
  return (
    Array.isArray(v.filters?.statuses) &&
    Array.isArray(v.filters?.scorers) &&
    typeof v.filters?.search === 'string' &&
    typeof v.sort?.column === 'string' &&
    (v.sort.direction === 'asc' || v.sort.direction === 'desc') &&
    typeof v.detailOpen === 'boolean'
  );
}

function main(): void {
  const root = document.getElementById('root') ?? document.body;
  const app = new ResultsApp(root, {
    post: (message) => vscode.postMessage(message),
    persist: (view) => vscode.setState(view),
  });
  const saved: unknown = vscode.getState();
  if (isPersistedView(saved)) app.dispatch({ type: 'ui/restore', view: saved });
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const message: unknown = event.data;
    if (isHostToWebview(message)) app.dispatch(message satisfies HostToWebview);
  });
  vscode.postMessage({ type: 'webview/ready', version: PROTOCOL_VERSION });
}

main();
