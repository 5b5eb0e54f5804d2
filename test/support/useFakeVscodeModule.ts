/**
 * Makes `require('vscode')` load test/support/fakeVscodeModule.ts (a test double: the real module exists
 * only inside VS Code), so tests and benchmarks run the extension's own run path code. Importing this
 * file does it: import it before any module that imports `vscode`.
 */
import Module from 'node:module';
import { join } from 'node:path';

const FAKE = join(__dirname, 'fakeVscodeModule.ts');
let installed = false;

type Resolve = (request: string, ...rest: unknown[]) => string;

export function useFakeVscodeModule(): void {
  if (installed) return;
  installed = true;
  const loader = Module as unknown as { _resolveFilename: Resolve };
  const original = loader._resolveFilename;
  loader._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]): string {
    return original.call(this, request === 'vscode' ? FAKE : request, ...rest);
  };
}

useFakeVscodeModule();
