// One command under GNU time, as every benchmark measures it: wall time, peak resident memory and CPU
// seconds of the process and its children.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export const GNU_TIME = '/usr/bin/time';

/**
 * Runs `argv` in `cwd` and resolves `{ wallMs, peakRssMb, cpuS, exitCode, stderr, stdout }`.
 * - `scratch`: the folder for GNU time's output file (removed after).
 * - `okCodes`: exit codes that count as a finished run; any other rejects, naming the command and the
 *   end of its stderr. `undefined` accepts every code (the caller judges it).
 * - `keepStdout`: keep the first 64 KiB of stdout; otherwise it goes to /dev/null (the console
 *   reporter prints every case, which is not what is measured). stderr is kept up to 1 MiB.
 */
export function measure(argv, { cwd, env = process.env, scratch, okCodes, keepStdout = false }) {
  const timeFile = join(scratch, `.time-${process.pid}.txt`);
  rmSync(timeFile, { force: true });
  return new Promise((resolveRun, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(GNU_TIME, ['-f', '%M %e %U %S', '-o', timeFile, ...argv], {
      cwd,
      env,
      stdio: ['ignore', keepStdout ? 'pipe' : 'ignore', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => {
      if (stdout.length < 1 << 16) stdout += d;
    });
    child.stderr.on('data', (d) => {
      if (stderr.length < 1 << 20) stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      const timeLine = existsSync(timeFile) ? readFileSync(timeFile, 'utf8').trim().split('\n').pop() : '';
      const [maxRssKb, , userS, sysS] = timeLine.split(/\s+/).map(Number);
      rmSync(timeFile, { force: true });
      if (okCodes !== undefined && !okCodes.includes(code)) {
        reject(new Error(`${argv.join(' ')} exited with ${code}\n--- stderr ---\n${stderr.slice(-4000)}`));
        return;
      }
      resolveRun({ wallMs, peakRssMb: maxRssKb / 1024, cpuS: userS + sysS, exitCode: code, stderr, stdout });
    });
  });
}
