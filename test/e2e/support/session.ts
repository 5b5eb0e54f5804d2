/**
 * One end-to-end session: the packaged extension installed in a fresh code-server, a workspace made
 * from a copy of the examples the checks use plus this suite's fixtures (in `e2e/`), and a headless
 * Chromium on the workbench. `endSession` closes the browser and ends code-server's process group, in
 * any case.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startCheck, type Check } from './check';
import { startCodeServer, type CodeServer, type TrustMode } from './codeServer';
import { packagedExtension } from './packageExtension';
import { ARTIFACTS, FIXTURES, requireSetup, ROOT } from './setup';
import { launchBrowser, openWorkbench } from './workbench';

export interface Session {
  readonly vsix: string;
  readonly server: CodeServer;
  readonly browser: Browser;
  readonly page: Page;
  /** The workspace folder: the copied examples' folders (quickstart/) and e2e/. */
  readonly workspace: string;
  check(name: string): Check;
}

/** Where the suite's own fixtures go inside the workspace. */
export const FIXTURE_FOLDER = 'e2e';

/**
 * The folders of examples/ that the checks use. Not all of them: "Run All Tests" runs every config in
 * the workspace, and the others need PostgreSQL, Python or an agent process and take most of a minute;
 * a workspace this small also keeps every Test Explorer row in view (its tree draws only what is on
 * screen, so a case below the fold has no row to read).
 */
const EXAMPLES_USED = ['quickstart'];

export async function startSession(trust: TrustMode): Promise<Session> {
  requireSetup();
  removeScreenshots(trust);
  const vsix = await packagedExtension();
  const workspace = makeWorkspace();
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  try {
    server = await startCodeServer({ vsix, trust });
    browser = await launchBrowser();
    const page = await openWorkbench(browser, server.url, workspace);
    const started = server;
    return {
      vsix,
      server,
      browser,
      page,
      workspace,
      check: (name) => startCheck(name, page, started.userDataDir, trust),
    };
  } catch (error) {
    await browser?.close();
    await server?.stop();
    rmSync(dirname(workspace), { recursive: true, force: true });
    throw error;
  }
}

export async function endSession(session: Session | undefined): Promise<void> {
  if (session === undefined) return;
  try {
    await session.browser.close();
  } finally {
    await session.server.stop();
    rmSync(dirname(session.workspace), { recursive: true, force: true });
  }
}

/** A previous run's screenshots of this session go, so every one in the folder is from this run. */
function removeScreenshots(trust: TrustMode): void {
  if (!existsSync(ARTIFACTS)) return;
  for (const name of readdirSync(ARTIFACTS).filter((file) => file.startsWith(`${trust}-`) && file.endsWith('.png')))
    rmSync(join(ARTIFACTS, name), { force: true });
}

/** A fresh copy of the workspace the checks use (also the in-host suite's, test/vscode/); remove its parent folder after. */
export function makeWorkspace(): string {
  const workspace = join(mkdtempSync(join(tmpdir(), 'evallens-e2e-workspace-')), 'workspace');
  for (const example of EXAMPLES_USED)
    cpSync(join(ROOT, 'examples', example), join(workspace, example), { recursive: true });
  cpSync(join(FIXTURES, 'workspace'), join(workspace, FIXTURE_FOLDER), { recursive: true });
  return workspace;
}
