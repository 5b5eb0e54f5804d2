/**
 * Runs an in-host suite (test/vscode/suite/) the way VS Code extensions run their tests: through
 * @vscode/test-electron's runTests. Here (no route to VS Code's download servers) runTests is given
 * `vscodeExecutablePath` = test/vscode/launcher/code-server, which runs the suite in code-server's
 * extension host; with EVALLENS_IN_HOST_VSCODE=download (a desktop with the internet) it is not, and
 * runTests downloads VS Code and runs the same suite in Electron.
 *
 * The suites are bundled first (the extension host `require`s plain JavaScript; `vscode` stays
 * external), into the git-ignored test/e2e/artifacts/in-host/. The extension itself is loaded from
 * the repository (extensionDevelopmentPath), so dist/ must be built (`npm run build`).
 */
import { existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { runTests } from '@vscode/test-electron';
import { build } from 'esbuild';
import { makeWorkspace } from '../../e2e/support/session';
import { ARTIFACTS, ROOT } from '../../e2e/support/setup';
import { RESULT_PREFIX } from '../suite/harness';

export type InHostSuite = 'trusted' | 'restricted';

export interface InHostResult {
  readonly name: string;
  readonly ok: boolean;
  readonly ms: number;
  readonly error?: string;
}

export interface InHostRun {
  /** 0 when every test passed (runTests' exit code). */
  readonly code: number;
  readonly results: readonly InHostResult[];
  /** Everything the launcher and the extension host printed. */
  readonly output: string;
}

export const LAUNCHER = join(ROOT, 'test', 'vscode', 'launcher', 'code-server');
const BUNDLES = join(ARTIFACTS, 'in-host', 'suites');

/** Bundles both suites; returns the module path of each. */
export async function bundleSuites(): Promise<Record<InHostSuite, string>> {
  const suites: InHostSuite[] = ['trusted', 'restricted'];
  await build({
    entryPoints: suites.map((suite) => join(ROOT, 'test', 'vscode', 'suite', `${suite}.ts`)),
    outdir: BUNDLES,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  return { trusted: join(BUNDLES, 'trusted.js'), restricted: join(BUNDLES, 'restricted.js') };
}

export async function runInHostSuite(options: {
  suite: InHostSuite;
  module: string;
  theme?: 'light' | 'dark';
  screenshotsDir?: string;
  echo?: boolean;
}): Promise<InHostRun> {
  if (!existsSync(join(ROOT, 'dist', 'extension.js')))
    throw new Error('dist/extension.js is missing: run `npm run build` first (npm test does)');
  const workspace = makeWorkspace();
  let output = '';
  const sink = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      const text = chunk.toString();
      output += text;
      if (options.echo === true) process.stdout.write(text);
      done();
    },
  });
  const download = process.env['EVALLENS_IN_HOST_VSCODE'] === 'download';
  let code = 0;
  try {
    await runTests({
      ...(download ? {} : { vscodeExecutablePath: LAUNCHER }),
      extensionDevelopmentPath: ROOT,
      extensionTestsPath: options.module,
      launchArgs: [workspace, '--disable-extensions'],
      extensionTestsEnv: {
        EVALLENS_IN_HOST_TRUST: options.suite,
        ...(options.theme === undefined ? {} : { EVALLENS_IN_HOST_THEME: options.theme }),
        ...(options.screenshotsDir === undefined ? {} : { EVALLENS_IN_HOST_SHOTS_DIR: options.screenshotsDir }),
      },
      stdout: sink,
      stderr: sink,
    });
  } catch (error) {
    code = typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : 1;
    output += `\n${error instanceof Error ? error.message : String(error)}`;
  } finally {
    rmSync(dirname(workspace), { recursive: true, force: true });
  }
  return { code, results: parseResults(output), output };
}

function parseResults(output: string): InHostResult[] {
  const results: InHostResult[] = [];
  for (const line of output.split('\n')) {
    const at = line.indexOf(RESULT_PREFIX);
    if (at < 0) continue;
    try {
      results.push(JSON.parse(line.slice(at + RESULT_PREFIX.length)) as InHostResult);
    } catch {
      // A line that only looks like a result: the missing test shows as missing.
    }
  }
  return results;
}
