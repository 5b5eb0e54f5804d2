/**
 * Packages the extension as a person publishing it would: `npm run package` (a production build,
 * the runtime files of the bundles' externals staged into dist/node_modules, `vsce package`). The
 * .vsix is kept under test/e2e/artifacts/, named by a hash of the sources it is built from, so the
 * suite's test files (one per trust mode) package once per change of those sources. dist/ is not
 * hashed: packaging rewrites it, and so does any `npm run build`, without changing what ships.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ARTIFACTS, ROOT } from './setup';

/** What the .vsix is built from: the bundles' sources, what packaging runs, and what it copies as is. */
const PACKAGE_INPUTS = [
  'package.json',
  'package-lock.json',
  '.vscodeignore',
  'esbuild.mjs',
  'scripts/stage-runtime-modules.mjs',
  'core',
  'protocol',
  'server',
  'extension',
  'webview',
  'cli',
  'schemas',
  'syntaxes',
  'prompts',
  'language-configuration.json',
  'README.md',
  'CHANGELOG.md',
  'LICENSE',
];
const PACKAGE_LIMIT_MS = 120_000;

/** The path of a .vsix built from the working tree as it is now. */
export async function packagedExtension(): Promise<string> {
  const folder = join(ARTIFACTS, 'vsix');
  const vsix = join(folder, `evallens-${inputsHash()}.vsix`);
  if (existsSync(vsix)) return vsix;

  mkdirSync(folder, { recursive: true });
  // Packages of older trees go; a partial file may be another test file's packaging in progress.
  for (const old of readdirSync(folder).filter((name) => name.endsWith('.vsix') && !name.includes('.partial')))
    rmSync(join(folder, old), { force: true });
  const partial = `${vsix}.partial-${process.pid}.vsix`;
  // npm appends these arguments to the script's `vsce package … -o dist/evallens.vsix`; the last --out wins.
  await run('npm', ['run', '--silent', 'package', '--', '--out', partial], PACKAGE_LIMIT_MS, 'npm run package');
  if (!existsSync(partial)) throw new Error(`npm run package finished but wrote no .vsix at ${partial}`);
  renameSync(partial, vsix);
  return vsix;
}

function inputsHash(): string {
  const hash = createHash('sha256');
  const add = (path: string): void => {
    if (!existsSync(path)) return;
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort()) add(join(path, name));
      return;
    }
    hash.update(relative(ROOT, path)).update('\0').update(readFileSync(path)).update('\0');
  };
  for (const input of PACKAGE_INPUTS) add(join(ROOT, input));
  return hash.digest('hex').slice(0, 12);
}

function run(command: string, args: readonly string[], limitMs: number, what: string): Promise<void> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolveRun();
      else
        reject(
          new Error(
            `${what} failed (${signal === null ? `exit code ${String(code)}` : `killed by ${signal} after ${limitMs} ms`}):\n${output}`,
          ),
        );
    });
  });
}
