import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'cli.js');

/** Builds the bundles when a test file runs on its own (`npm test` builds first). */
export function ensureBuilt(): void {
  if (existsSync(CLI)) return;
  const built = spawnSync(process.execPath, [join(ROOT, 'esbuild.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('the build failed');
}

export interface CliRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built CLI to its end (bounded: killed after `limitMs`), with colour off. */
export function runCli(
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; limitMs?: number },
): Promise<CliRun> {
  const child = startCli(args, options);
  return finished(child, options.limitMs ?? 60_000);
}

export function startCli(
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): ChildProcess & { output: { stdout: string; stderr: string } } {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: options.cwd,
    // No plain progress lines (cli/progress.ts) in outputs tests compare, unless a test asks for them.
    env: { ...process.env, NO_COLOR: '1', EVALLENS_PROGRESS_SECONDS: 'off', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (c: string) => (output.stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (output.stderr += c));
  return Object.assign(child, { output });
}

export function finished(
  child: ChildProcess & { output: { stdout: string; stderr: string } },
  limitMs: number,
): Promise<CliRun> {
  return new Promise((resolveRun, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the CLI did not finish within ${limitMs} ms; stderr so far:\n${child.output.stderr}`));
    }, limitMs);
    child.once('exit', (code, signal) => {
      // 'exit' can come before the pipes are drained; 'close' means both are.
      child.once('close', () => {
        clearTimeout(timer);
        resolveRun({ code, signal, stdout: child.output.stdout, stderr: child.output.stderr });
      });
    });
  });
}
