/**
 * Runs an extension test suite (a module exporting `run()`) inside code-server's extension host, for
 * @vscode/test-electron's runTests on machines that cannot download VS Code (see ./code-server and
 * /work/shared/reference: code-server takes no --extensionTestsPath flag, so the paths go to the page
 * in its `payload`, as VS Code's own browser integration tests pass them). It reuses the e2e harness
 * (test/e2e/support/): a fresh code-server profile and headless Chromium.
 *
 * Arguments: what runTests passes to VS Code; only --extensionDevelopmentPath=, --extensionTestsPath=
 * and the workspace folder (the one argument without `--`) are read.
 * Variables (runTests' extensionTestsEnv): EVALLENS_IN_HOST_TRUST=restricted keeps workspace trust on
 * (runTests always passes --disable-workspace-trust, which is ignored here); the workbench refuses to
 * show the trust dialog while extension tests run, so the folder stays untrusted: Restricted Mode;
 * EVALLENS_IN_HOST_THEME=light|dark has the suite set that colour theme; EVALLENS_IN_HOST_SHOTS_DIR also writes the
 * suite's named screenshots there as `<name>-<theme>.png`.
 *
 * Exit code: 0 when `run()` resolved, 1 when it rejected or the module failed to load, 2 when the
 * driver itself failed or the suite did not finish in time. On anything but 0 it saves a screenshot
 * and the extension host's logs under test/e2e/artifacts/in-host/ and prints where.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { basename, join, resolve } from 'node:path';
import { format } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { startCodeServer, type CodeServer, type TrustMode } from '../../e2e/support/codeServer';
import { extensionHostLogs } from '../../e2e/support/logs';
import { ARTIFACTS, requireSetup } from '../../e2e/support/setup';
import { pollUntil } from '../../e2e/support/poll';
import { revealTestRow, showAllTests, testRow } from '../../e2e/support/testing';
import { launchBrowser, openWorkbench, UI_LIMIT_MS } from '../../e2e/support/workbench';
import { PROBE_URL_VARIABLE, type ProbeAnswer, type ProbeRequest } from '../probeProtocol';

const OUT = join(ARTIFACTS, 'in-host');
/** Workbench, extension host and every test: a suite that never settles sends nothing, so the driver ends it. */
const SUITE_LIMIT_MS = Number(process.env['EVALLENS_IN_HOST_LIMIT_MS'] ?? 600_000);

interface Arguments {
  readonly extensionDevelopmentPath: string;
  readonly extensionTestsPath: string;
  readonly workspace: string;
}

function parseArguments(argv: readonly string[]): Arguments {
  const value = (flag: string) => argv.find((arg) => arg.startsWith(`--${flag}=`))?.slice(flag.length + 3);
  const extensionDevelopmentPath = value('extensionDevelopmentPath');
  const extensionTestsPath = value('extensionTestsPath');
  const workspace = argv.find((arg) => !arg.startsWith('-'));
  if (extensionDevelopmentPath === undefined || extensionTestsPath === undefined || workspace === undefined) {
    throw new Error(
      `expected --extensionDevelopmentPath=…, --extensionTestsPath=… and a workspace folder; got: ${argv.join(' ')}`,
    );
  }
  return {
    extensionDevelopmentPath: resolve(extensionDevelopmentPath),
    extensionTestsPath: resolve(extensionTestsPath),
    workspace: resolve(workspace),
  };
}

/** The page's `payload`: the workbench reads the test paths from it, as `vscode-remote://` URIs of this server. */
function payloadQuery(serverUrl: string, args: Arguments): string {
  const remote = (path: string) => `vscode-remote://${new URL(serverUrl).host}${path}`;
  const payload = [
    ['extensionDevelopmentPath', remote(args.extensionDevelopmentPath)],
    ['extensionTestsPath', remote(args.extensionTestsPath)],
    ['skipWelcome', 'true'],
    ['skipReleaseNotes', 'true'],
  ];
  return `payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

async function main(): Promise<number> {
  requireSetup();
  const args = parseArguments(process.argv.slice(2));
  const trust: TrustMode = process.env['EVALLENS_IN_HOST_TRUST'] === 'restricted' ? 'restricted' : 'trusted';
  const theme = process.env['EVALLENS_IN_HOST_THEME'];
  const shotsDir = process.env['EVALLENS_IN_HOST_SHOTS_DIR'];
  const tag = `${trust}${theme === undefined ? '' : `-${theme}`}`;
  mkdirSync(OUT, { recursive: true });

  let page: Page | undefined;
  const probe = await startProbe(async (request) => {
    if (page === undefined) throw new Error('the page is not open yet');
    return answerProbe(page, request, { tag, shotsDir, theme });
  });
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  try {
    server = await startCodeServer({
      extensionDevelopmentPath: args.extensionDevelopmentPath,
      trust,
      // The suite sets the theme itself: the workbench of an extension test run does not read it from the profile.
      env: { [PROBE_URL_VARIABLE]: probe.url, ...(theme === undefined ? {} : { EVALLENS_IN_HOST_THEME: theme }) },
    });
    browser = await launchBrowser();
    let settle: (code: number) => void = () => undefined;
    const finished = new Promise<number>((resolveFinished) => (settle = resolveFinished));
    const started = server;
    page = await openWorkbench(browser, server.url, args.workspace, {
      query: payloadQuery(server.url, args),
      async beforeOpen(newPage) {
        // The workbench calls these when the suite's run() settles, and for each console.* of the extension host.
        await newPage.exposeFunction('codeAutomationExit', (code: number) => settle(code));
        await newPage.exposeFunction('codeAutomationLog', (_type: string, logArgs: unknown[]) =>
          console.log(format(...(Array.isArray(logArgs) ? logArgs : [logArgs]))),
        );
      },
    });
    const code = await Promise.race([finished, timeout(SUITE_LIMIT_MS)]);
    if (code === undefined) console.error(`in-host driver: the suite did not finish within ${SUITE_LIMIT_MS} ms`);
    const exitCode = code ?? 2;
    if (exitCode !== 0) await saveFailure(page, started, tag);
    return exitCode;
  } catch (error) {
    console.error(`in-host driver: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    if (page !== undefined && server !== undefined) await saveFailure(page, server, tag);
    return 2;
  } finally {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    probe.server.close();
  }
}

async function answerProbe(
  page: Page,
  request: ProbeRequest,
  mode: { tag: string; shotsDir: string | undefined; theme: string | undefined },
): Promise<string> {
  switch (request.action) {
    case 'screenshot': {
      if (request.waitFor !== undefined)
        await page.locator(request.waitFor).first().waitFor({ state: 'visible', timeout: UI_LIMIT_MS });
      const name = basename(request.name).replace(/[^a-z0-9-]/gi, '-');
      const path = join(OUT, `${mode.tag}-${name}.png`);
      await page.screenshot({ path, timeout: UI_LIMIT_MS });
      if (mode.shotsDir !== undefined) {
        mkdirSync(mode.shotsDir, { recursive: true });
        await page.screenshot({
          path: join(mode.shotsDir, `${name}-${mode.theme ?? 'default'}.png`),
          timeout: UI_LIMIT_MS,
        });
      }
      return path;
    }
    case 'text': {
      const element = page.locator(request.selector).first();
      await element.waitFor({ state: 'visible', timeout: UI_LIMIT_MS });
      return element.innerText({ timeout: UI_LIMIT_MS });
    }
    case 'resultsViewText': {
      const frame = page.frameLocator('iframe.webview.ready').first().frameLocator('#active-frame');
      const body = frame.locator('body');
      return (await body.count()) === 0 ? '' : body.innerText({ timeout: UI_LIMIT_MS });
    }
    case 'showAllTests':
      await showAllTests(page);
      return '';
    case 'openFailurePeek': {
      await showAllTests(page);
      await revealTestRow(page, request.label);
      const peek = page.locator('.peekview-widget').first();
      await pollUntil(
        async () => {
          await testRow(page, request.label)
            .dblclick({ timeout: 1000 })
            .catch(() => undefined);
          return peek.isVisible();
        },
        `the failure peek of ${request.label}`,
        UI_LIMIT_MS,
      );
      return peek.innerText({ timeout: UI_LIMIT_MS });
    }
  }
}

/** The loopback endpoint the suite's probe.ts posts its requests to, one JSON object each. */
function startProbe(answer: (request: ProbeRequest) => Promise<string>): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const reply = (result: ProbeAnswer) =>
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
      Promise.resolve()
        .then(() => answer(JSON.parse(body) as ProbeRequest))
        .then(
          (value) => reply({ ok: true, value }),
          (error: unknown) => reply({ ok: false, error: error instanceof Error ? error.message : String(error) }),
        );
    });
  });
  return new Promise((resolveProbe, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      resolveProbe({ url: `http://127.0.0.1:${port}`, server });
    });
  });
}

async function saveFailure(page: Page, server: CodeServer, tag: string): Promise<void> {
  const shot = join(OUT, `${tag}-failed.png`);
  const logs = join(OUT, `${tag}-exthost.log`);
  const shotSaved = await page.screenshot({ path: shot, timeout: UI_LIMIT_MS }).then(
    () => true,
    () => false,
  );
  writeFileSync(logs, `${extensionHostLogs(server.userDataDir)}\n--- code-server output\n${server.output()}`);
  console.error(`in-host driver: ${shotSaved ? `screenshot ${shot}, ` : ''}extension host logs ${logs}`);
}

function timeout(ms: number): Promise<undefined> {
  return new Promise((resolveTimeout) => setTimeout(() => resolveTimeout(undefined), ms).unref());
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`in-host driver: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
