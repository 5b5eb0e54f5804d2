/**
 * One code-server (the real VS Code workbench and extension host) with the packaged extension
 * installed into a fresh profile: its own user-data and extensions folders in a temp dir, on a free
 * loopback port. `stop` ends the whole process group it started (the server, its extension host and
 * the language server under it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CODE_SERVER } from './setup';
import { pollUntil } from './poll';

export type TrustMode = 'trusted' | 'restricted';

export interface CodeServer {
  readonly url: string;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  /** The folder of the installed EvalLens extension (the development folder when none was installed). */
  readonly extensionFolder: string;
  /** What code-server printed, for a failure report. */
  output(): string;
  stop(): Promise<void>;
}

const INSTALL_LIMIT_MS = 60_000;
const START_LIMIT_MS = 30_000;
const STOP_LIMIT_MS = 10_000;

/**
 * Settings a fresh profile starts with: nothing opens by itself, nothing phones home. With trust
 * 'restricted' the workspace trust dialog stays on, so a test can answer it "No".
 */
function profileSettings(trust: TrustMode): Record<string, unknown> {
  return {
    'security.workspace.trust.enabled': trust === 'restricted',
    'security.workspace.trust.startupPrompt': 'always',
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.welcomePage.walkthroughs.openOnInstall': false,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'chat.commandCenter.enabled': false,
    'git.enabled': false,
    'editor.accessibilitySupport': 'off',
    // VS Code in a browser saves edits after a second by default (desktop VS Code does not): the checks
    // edit fixtures and revert them, and a save in between would change them for the checks after.
    'files.autoSave': 'off',
    // The offer after a failing run is a notification over the lower right corner, where the checks
    // click Test Results rows; the checks reach failures with the command "EvalLens: Show Failures".
    'evallens.run.offerShowFailures': false,
  };
}

export interface CodeServerOptions {
  /** The packaged extension to install; or `extensionDevelopmentPath`, the page then loads it from its folder (test/vscode/). */
  readonly vsix?: string;
  readonly extensionDevelopmentPath?: string;
  readonly trust: TrustMode;
  /** The installed extension's `publisher.name` (EvalLens unless told otherwise). */
  readonly extensionId?: string;
  /** Variables for code-server and so for its extension host. */
  readonly env?: Readonly<Record<string, string>>;
}

export async function startCodeServer(options: CodeServerOptions): Promise<CodeServer> {
  const home = mkdtempSync(join(tmpdir(), `evallens-e2e-${options.trust}-`));
  const userDataDir = join(home, 'user-data');
  const extensionsDir = join(home, 'extensions');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  // Its own config file too: code-server would otherwise create one under the user's home.
  writeFileSync(join(home, 'config.yaml'), 'auth: none\n');
  const profile = [
    '--config',
    join(home, 'config.yaml'),
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    extensionsDir,
  ];

  const { vsix, extensionDevelopmentPath } = options;
  let extensionFolder: string;
  if (vsix !== undefined) {
    const installed = await installExtension(
      vsix,
      profile,
      home,
      extensionsDir,
      options.extensionId ?? 'evallens.evallens',
    ).catch((error: unknown) => {
      rmSync(home, { recursive: true, force: true });
      throw error;
    });
    extensionFolder = join(extensionsDir, installed);
  } else if (extensionDevelopmentPath !== undefined) {
    extensionFolder = extensionDevelopmentPath;
  } else {
    throw new Error('startCodeServer: give a .vsix to install or an extensionDevelopmentPath');
  }
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify(profileSettings(options.trust), null, 2));

  const port = await freePort();
  const server = launch(
    [
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--auth',
      'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--ignore-last-opened',
      ...profile,
    ],
    home,
    options.env,
  );
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    await endProcessGroup(server.child);
    rmSync(home, { recursive: true, force: true });
  };
  try {
    await pollUntil(
      async () => {
        if (server.child.exitCode !== null)
          throw new Error(`code-server exited (code ${server.child.exitCode}) before it served:\n${server.output()}`);
        return (await httpStatus(`${url}/healthz`)) === 200;
      },
      `code-server to answer on ${url}`,
      START_LIMIT_MS,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, userDataDir, extensionsDir, extensionFolder, output: server.output, stop };
}

/** Installs the .vsix into the profile; returns the folder it was unpacked to. */
async function installExtension(
  vsix: string,
  profile: readonly string[],
  home: string,
  extensionsDir: string,
  extensionId: string,
): Promise<string> {
  const install = launch([...profile, '--install-extension', vsix], home);
  const installed = await exited(install.child, INSTALL_LIMIT_MS);
  if (installed !== 0)
    throw new Error(`code-server --install-extension ${vsix} failed (exit ${String(installed)}):\n${install.output()}`);
  const folder = readdirSync(extensionsDir).find((name) => name.startsWith(`${extensionId}-`));
  if (folder === undefined)
    throw new Error(`${extensionId} is not in ${extensionsDir} after --install-extension:\n${install.output()}`);
  return folder;
}

function launch(
  args: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string>> = {},
): { child: ChildProcess; output: () => string } {
  // detached: its own process group, so stopping it ends every process it started.
  const child = spawn(CODE_SERVER, args, {
    cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env, VSCODE_PROXY_URI: '' },
  });
  let text = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  return { child, output: () => text };
}

function exited(child: ChildProcess, limitMs: number): Promise<number | null> {
  return new Promise((resolveExit, reject) => {
    const timer = setTimeout(() => {
      killGroup(child, 'SIGKILL');
      reject(new Error(`code-server did not finish within ${limitMs} ms`));
    }, limitMs);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolveExit(code);
    });
  });
}

async function endProcessGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const closed = new Promise<void>((resolveClose) => child.once('close', () => resolveClose()));
  killGroup(child, 'SIGTERM');
  const timer = setTimeout(() => killGroup(child, 'SIGKILL'), STOP_LIMIT_MS);
  await closed;
  clearTimeout(timer);
  // The extension host and the language server may outlive the server by a moment; end them too.
  killGroup(child, 'SIGKILL');
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => (port > 0 ? resolvePort(port) : reject(new Error('no free port'))));
    });
  });
}

function httpStatus(url: string): Promise<number> {
  return new Promise((resolveStatus) => {
    const request = get(url, (response) => {
      response.resume();
      resolveStatus(response.statusCode ?? 0);
    });
    request.setTimeout(2000, () => request.destroy());
    request.once('error', () => resolveStatus(0));
  });
}
