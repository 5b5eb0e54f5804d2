import { printable } from '../shared/text/printable';
import { maskStderr } from './maskedStderr';

/**
 * Runs a bundle's command as the process: stderr masked first, the exit code set from `main`'s
 * answer, and a throw (a bug of ours, not a user mistake) said plainly with its stack for the bug
 * report, exit code 70. Shared by dist/cli.js and dist/reportStream.js.
 */
export function runAsProcess(main: (argv: readonly string[]) => Promise<number>): void {
  maskStderr(process.stderr);
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(
        `${printable(`evallens: internal error — please report it: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`, { lines: true })}\n`,
      );
      process.exitCode = 70;
    },
  );
}
