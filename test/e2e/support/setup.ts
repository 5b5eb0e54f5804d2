/**
 * Where the end-to-end suite finds what scripts/e2e-setup.sh installs, and the one check that it is
 * there. A missing install fails the suite with the command to run; it never skips silently, since
 * a suite that skips itself in CI would look green while testing nothing.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '..', '..', '..');
export const CODE_SERVER_VERSION = '4.100.3';
export const CODE_SERVER = join(ROOT, '.vscode-test', 'code-server', 'node_modules', '.bin', 'code-server');
export const CHROMIUM = '/usr/bin/chromium';
/** Screenshots and packaged .vsix files; git-ignored. */
export const ARTIFACTS = join(ROOT, 'test', 'e2e', 'artifacts');
export const FIXTURES = join(ROOT, 'test', 'e2e', 'fixtures');

const SETUP_COMMAND = 'bash scripts/e2e-setup.sh';

/** Throws, naming what is missing and the command that installs it, unless the setup has run. */
export function requireSetup(): void {
  const missing: string[] = [];
  const marker = join(ROOT, '.vscode-test', 'code-server', `.installed-${CODE_SERVER_VERSION}`);
  if (!existsSync(marker) || !isExecutable(CODE_SERVER))
    missing.push(`code-server ${CODE_SERVER_VERSION} in .vscode-test/code-server`);
  if (!isExecutable(CHROMIUM)) missing.push(`Chromium at ${CHROMIUM} (Debian package chromium)`);
  if (missing.length > 0) {
    throw new Error(
      `The end-to-end suite (test/e2e) cannot run: missing ${missing.join(' and ')}.\n` +
        `Run \`${SETUP_COMMAND}\` once (as root: it uses apt-get), then run the tests again.`,
    );
  }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
