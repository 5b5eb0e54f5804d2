/**
 * The results view in a real browser (headless Chromium) for tests: the bundle built from
 * webview/main.ts, served on loopback inside the panel's own HTML with its real CSP and nonce. A
 * stand-in for VS Code's `acquireVsCodeApi` (named as one: `fakeVsCodeApi`) records what the view
 * posts and keeps its state, across a reload of the page too; the test posts what the host would.
 * VS Code's theme variables are set to the sizes a desktop VS Code gives a webview, so layouts
 * measure as they would there.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { type Browser, chromium, type Page } from 'playwright-core';
import { panelHtml } from '../../../extension/results/panelHtml';
import type { HostToWebview } from '../../../protocol/webview';
import { ROOT } from '../../support/cli';

export const CHROMIUM = '/usr/bin/chromium';
export const WAIT_MS = 20_000;
export const NO_CHROMIUM: string | false = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM}`;

declare global {
  interface Window {
    posted: unknown[];
    violations: string[];
  }
}

/** Stands in for VS Code's `acquireVsCodeApi`: records what the view posts, keeps its state. */
const FAKE_VSCODE_API = `
  window.posted = [];
  window.violations = [];
  document.addEventListener('securitypolicyviolation', (event) => window.violations.push(event.violatedDirective + ' ' + event.blockedURI));
  // The state outlives a reload of the page, as VS Code keeps a webview's state across a window reload.
  const fakeVsCodeApi = {
    postMessage: (message) => { window.posted.push(message); },
    getState: () => { const saved = sessionStorage.getItem('fakeVsCodeApi.state'); return saved === null ? undefined : JSON.parse(saved); },
    setState: (next) => { sessionStorage.setItem('fakeVsCodeApi.state', JSON.stringify(next)); return next; },
  };
  window.acquireVsCodeApi = () => fakeVsCodeApi;
  // What VS Code sets on a webview's root (sizes of a default desktop setup), through the CSSOM.
  const theme = {
    '--vscode-font-family': 'system-ui, sans-serif',
    '--vscode-font-size': '13px',
    '--vscode-editor-font-family': 'monospace',
    '--vscode-editor-font-size': '14px',
    '--vscode-panel-border': '#80808059',
    '--vscode-textLink-foreground': '#006ab1',
  };
  for (const [name, value] of Object.entries(theme)) document.documentElement.style.setProperty(name, value);
`;

export interface PanelPage {
  readonly page: Page;
  /** Alerts, prompts and confirms the page opened (there should be none). */
  readonly dialogs: readonly string[];
  /** Posts messages to the view as the host would. */
  send(messages: readonly HostToWebview[]): Promise<void>;
  /** What the view posted of one type, in order. */
  posted(type: string): Promise<unknown[]>;
  /** What the view last saved with `setState`. */
  savedState(): Promise<unknown>;
  /** Reloads the page (the view starts again, as after a window reload) and waits for its `webview/ready`. */
  reload(): Promise<void>;
  close(): Promise<void>;
}

export async function openPanelPage(viewport: { readonly width: number; readonly height: number }): Promise<PanelPage> {
  const dir = mkdtempSync(join(tmpdir(), 'evallens-webview-'));
  let server: Server | undefined;
  let browser: Browser | undefined;
  const close = async (): Promise<void> => {
    await browser?.close();
    await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await esbuild.build({
      entryPoints: [join(ROOT, 'webview', 'main.ts')],
      outfile: join(dir, 'webview.js'),
      bundle: true,
      format: 'iife',
      platform: 'browser',
      target: 'es2022',
      logLevel: 'silent',
    });
    server = createServer((request, response) => {
      const origin = `http://${request.headers.host ?? ''}`;
      if (request.url === '/') {
        response.setHeader('content-type', 'text/html; charset=utf-8');
        response.end(
          panelHtml({ cspSource: origin, scriptUri: `${origin}/webview.js`, styleUri: `${origin}/webview.css` }),
        );
      } else if (request.url === '/webview.js' || request.url === '/webview.css') {
        response.setHeader('content-type', request.url.endsWith('.js') ? 'text/javascript' : 'text/css');
        response.end(readFileSync(join(dir, request.url.slice(1))));
      } else {
        response.statusCode = 404;
        response.end();
      }
    });
    const listening = server;
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    const port = (listening.address() as AddressInfo).port;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    const page = await browser.newPage({ viewport: { ...viewport } });
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    // As text: a function would be serialized after tsx's transform, with helpers the page lacks.
    await page.addInitScript({ content: FAKE_VSCODE_API });
    const ready = () =>
      page.waitForFunction(
        () => window.posted.some((m) => (m as { type?: string }).type === 'webview/ready'),
        undefined,
        { timeout: WAIT_MS },
      );
    await page.goto(`http://127.0.0.1:${port}/`);
    await ready();
    return {
      page,
      dialogs,
      async send(messages) {
        // As JSON text: Playwright's own serialization of a 5,000-result object takes seconds.
        for (const message of messages)
          await page.evaluate((json) => window.postMessage(JSON.parse(json), '*'), JSON.stringify(message));
      },
      posted: (type) => page.evaluate((t) => window.posted.filter((m) => (m as { type?: string }).type === t), type),
      savedState: () =>
        page.evaluate(() => JSON.parse(sessionStorage.getItem('fakeVsCodeApi.state') ?? 'null') as unknown),
      async reload() {
        await page.reload();
        await ready();
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
