/**
 * The results view's HTML: a strict CSP (nothing loads but our own script and stylesheet, each with
 * a fresh nonce from `crypto`), and no inline script or style. No vscode here, so tests check it.
 */
import { randomBytes } from 'node:crypto';

export interface PanelResources {
  /** `webview.cspSource`. */
  readonly cspSource: string;
  /** `webview.asWebviewUri(...)` of dist/webview.js and dist/webview.css, as strings. */
  readonly scriptUri: string;
  readonly styleUri: string;
}

/** 128 random bits, base64: a nonce no page can guess. */
export function createNonce(): string {
  return randomBytes(16).toString('base64');
}

function attribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return `default-src 'none'; script-src 'nonce-${nonce}'; style-src ${cspSource} 'nonce-${nonce}'`;
}

export function panelHtml(resources: PanelResources, nonce: string = createNonce()): string {
  const csp = attribute(contentSecurityPolicy(resources.cspSource, nonce));
  const n = attribute(nonce);
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="UTF-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1.0">',
    `<link rel="stylesheet" nonce="${n}" href="${attribute(resources.styleUri)}">`,
    '<title>EvalLens Results</title>',
    '</head>',
    '<body>',
    '<div id="root"></div>',
    `<script nonce="${n}" src="${attribute(resources.scriptUri)}"></script>`,
    '</body>',
    '</html>',
  ].join('\n');
}
