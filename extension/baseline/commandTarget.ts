/**
 * Which config a command was given, however it was called: a path (a CodeLens, another command), a
 * Test Explorer item (its context menu; a case's item names its config in its id, since its own URI
 * is the dataset's), or a file URI (the explorer, an editor title). Pure; vscode-free.
 */
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
