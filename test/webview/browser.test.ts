/**
 * The results view in a real browser (headless Chromium): the bundle built from webview/main.ts,
 * served on loopback inside the panel's own HTML with its real CSP and nonce. A stand-in for VS
 * Code's `acquireVsCodeApi` (named as one: `fakeVsCodeApi`) records what the view posts; the test
 * posts what the host would. Checks escaping, CSP, virtualization at 100,000 results, keyboard.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as esbuild from 'esbuild';
import { type Browser, chromium, type Page } from 'playwright-core';
import type { Report } from '../../core/report/report';
import { panelHtml } from '../../extension/results/panelHtml';
import { reportMessages } from '../../extension/results/reportMessages';
import type { HostToWebview } from '../../protocol/webview';
import { ROOT } from '../support/cli';
import { CONFIG, reportOf } from './support/runs';

const CHROMIUM = '/usr/bin/chromium';
const XSS = '<img src=x onerror=alert(1)>';
const WAIT_MS = 20_000;

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
  let state;
  const fakeVsCodeApi = {
    postMessage: (message) => { window.posted.push(message); },
    getState: () => state,
    setState: (next) => { state = next; return next; },
  };
  window.acquireVsCodeApi = () => fakeVsCodeApi;
`;

/** A report whose case id, reason and judge reasoning are markup, as an output could be. */
function hostileReport(): Report {
  const report = reportOf(3);
  const results = report.results.map((r, i) => (i === 0 ? { ...r, caseId: XSS, reason: `reason ${XSS}`, details: { reasoning: XSS } } : r));
  const cases = report.cases.map((c, i) => (i === 0 ? { ...c, id: XSS } : c));
  return { ...report, cases, results };
}

describe('results view in a browser', { skip: existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM}` }, () => {
  let dir = '';
  let server: Server | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const dialogs: string[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'evallens-webview-'));
    await esbuild.build({ entryPoints: [join(ROOT, 'webview', 'main.ts')], outfile: join(dir, 'webview.js'), bundle: true, format: 'iife', platform: 'browser', target: 'es2022', logLevel: 'silent' });
    server = createServer((request, response) => {
      const origin = `http://${request.headers.host ?? ''}`;
      if (request.url === '/') {
        response.setHeader('content-type', 'text/html; charset=utf-8');
        response.end(panelHtml({ cspSource: origin, scriptUri: `${origin}/webview.js`, styleUri: `${origin}/webview.css` }));
      } else if (request.url === '/webview.js' || request.url === '/webview.css') {
        response.setHeader('content-type', request.url.endsWith('.js') ? 'text/javascript' : 'text/css');
        response.end(readFileSync(join(dir, request.url.slice(1))));
      } else {
        response.statusCode = 404;
        response.end();
      }
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    // As text: a function would be serialized after tsx's transform, with helpers the page lacks.
    await page.addInitScript({ content: FAKE_VSCODE_API });
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.waitForFunction(() => window.posted.some((m) => (m as { type?: string }).type === 'webview/ready'), undefined, { timeout: WAIT_MS });
  });

  after(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
    rmSync(dir, { recursive: true, force: true });
  });

  async function send(messages: readonly HostToWebview[]): Promise<void> {
    // As JSON text: Playwright's own serialization of a 5,000-result object takes seconds.
    for (const message of messages) await page.evaluate((json) => window.postMessage(JSON.parse(json), '*'), JSON.stringify(message));
  }

  async function posted(type: string): Promise<unknown[]> {
    return page.evaluate((t) => window.posted.filter((m) => (m as { type?: string }).type === t), type);
  }

  it('shows markup from a run as text: no element is made from it and nothing runs', async () => {
    await send(reportMessages(hostileReport()));
    await page.waitForFunction(() => document.querySelectorAll('.rows .row').length === 9, undefined, { timeout: WAIT_MS });
    const firstCase = await page.locator('.rows .row .case-link').first().textContent();
    assert.equal(firstCase, XSS);

    await page.locator('.table').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.posted.some((m) => (m as { type?: string }).type === 'case/request'), undefined, { timeout: WAIT_MS });
    assert.deepEqual((await posted('case/request')).at(-1), { type: 'case/request', configFile: CONFIG, caseId: XSS });
    await send([{ type: 'case/data', configFile: CONFIG, caseId: XSS, data: { id: XSS, input: XSS, output: XSS, expected: `<b>${XSS}</b>` } }]);
    await page.waitForFunction(() => (document.querySelector('.detail')?.textContent ?? '').includes('Diff (expected → output)'), undefined, { timeout: WAIT_MS });

    const detail = (await page.locator('.detail').textContent()) ?? '';
    assert.ok(detail.includes(`reason ${XSS}`));
    assert.ok(detail.includes(`reasoning: ${XSS}`), 'the judge reasoning in details is shown as text');
    assert.equal(await page.locator('img, b').count(), 0, 'no element came from the run');
    assert.deepEqual(dialogs, []);
    assert.deepEqual(await page.evaluate(() => window.violations), []);
  });

  it('reveals a case from its link, with its dataset line', async () => {
    await page.locator('.rows .row .case-link').nth(3).click();
    const reveal = (await posted('case/reveal')).at(-1);
    assert.deepEqual(reveal, { type: 'case/reveal', target: { configFile: CONFIG, caseId: 'case-000001', location: { file: '/work/evals/support.jsonl', line: 2, column: 1 } } });
  });

  it('keeps only the rows in view in the DOM at 100,000 results, and filters, searches and moves with keys', async () => {
    const report = reportOf(33_334);
    await send(reportMessages(report));
    await page.waitForFunction((n) => document.querySelector('.toolbar .count')?.textContent === `${n} results`, report.results.length.toLocaleString('en-US'), { timeout: WAIT_MS });
    const rendered = await page.locator('.rows .row').count();
    assert.ok(rendered > 10 && rendered < 120, `${rendered} rows in the DOM`);

    await page.locator('.table').focus();
    await page.keyboard.press('End');
    await page.waitForFunction(() => document.querySelector('.rows .row.selected .case-link')?.textContent === 'case-033333', undefined, { timeout: WAIT_MS });
    assert.ok((await page.locator('.rows .row').count()) < 120, 'still virtualized at the end');

    await page.keyboard.press('/');
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('search')), true);
    await page.keyboard.type('case-01234');
    await page.waitForFunction(() => document.querySelector('.toolbar .count')?.textContent?.startsWith('30 of '), undefined, { timeout: WAIT_MS });

    await page.locator('.toolbar .chip.status-error').click();
    await page.waitForFunction(() => /^\d+ of /.test(document.querySelector('.toolbar .count')?.textContent ?? '') && Array.from(document.querySelectorAll('.rows .row .col-status')).every((c) => c.textContent === 'error'), undefined, { timeout: WAIT_MS });
    assert.ok((await page.locator('.rows .row').count()) > 0);
    assert.deepEqual(await page.evaluate(() => window.violations), []);
  });
});
