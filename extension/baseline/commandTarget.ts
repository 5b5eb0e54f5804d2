/**
 * Which config a command was given, however it was called: a path (a CodeLens, another command), a
 * Test Explorer item (its context menu; a case's item names its config in its id, since its own URI
 * is the dataset's), or a file URI (the explorer, an editor title). Pure; vscode-free.
 */
import { lstat } from 'node:fs/promises';
import { isObject } from '../../shared/isObject';
import { parseCaseTestId } from '../testing/testIds';

const CONFIG_FILE = /\.eval\.ya?ml$/i;

export function configOfArgument(argument: unknown, uriToPath: (uri: string) => string): string | undefined {
  if (typeof argument === 'string') return CONFIG_FILE.test(argument) ? argument : undefined;
  if (!isObject(argument)) return undefined;
  // A TestItem: its id is the config's URI, or `<configUri>#<caseId>` for a case.
  if (typeof argument['id'] === 'string' && 'children' in argument) {
    const id = argument['id'];
    const path = uriToPath(parseCaseTestId(id)?.configUri ?? id);
    return CONFIG_FILE.test(path) ? path : undefined;
  }
  const fsPath = argument['fsPath'];
  return typeof fsPath === 'string' && CONFIG_FILE.test(fsPath) ? fsPath : undefined;
}

/**
 * Why the baseline may not be written at `target`, or undefined when it may: in Restricted Mode, a
 * baseline path that is a symbolic link (the workspace could point it at any file of the person's) is
 * not written through. `shownName` is how the message names the file.
 */
export async function baselineWriteRefusal(
  target: string,
  trusted: boolean,
  shownName: string,
): Promise<string | undefined> {
  if (trusted) return undefined;
  try {
    if (!(await lstat(target)).isSymbolicLink()) return undefined;
  } catch {
    return undefined;
  }
  return `${shownName} is a symbolic link; in Restricted Mode the baseline is not written through one (trust the workspace, or remove the link)`;
}
