/** Go to definition from a path value (dataset, database config, a scorer's file option) to the file. */
import { resolveConfigPath } from '../../core/config/evalbenchCompat';
import { configPathKeyAt, fileOptionKeys } from '../../core/config/fileOptions';
import type { ConfigAnalysis, FileExists } from '../analysis/configAnalysis';
import { locate, scorerEntryAt } from './outlineQuery';

/** The absolute path of the file named by the value at `offset`, when there is one and it exists. */
export function definitionAt(analysis: ConfigAnalysis, offset: number, fileExists: FileExists): string | undefined {
  const found = locate(analysis.outline, offset);
  if (found?.on !== 'value' || found.node?.kind !== 'scalar' || typeof found.node.value !== 'string') return undefined;
  const value = found.node.value;
  let named = false;
  const entry = found.path[0] === 'scorers' ? scorerEntryAt(analysis.outline, offset) : undefined;
  if (entry !== undefined) {
    const definition = analysis.registry.get(entry.key);
    const option = found.path[2];
    named =
      definition !== undefined &&
      found.path.length === 3 &&
      typeof option === 'string' &&
      fileOptionKeys(definition.schema).includes(option);
  } else {
    named = configPathKeyAt(found.path)?.kind === 'file';
  }
  if (!named || value === '') return undefined;
  const path = resolveConfigPath(value, { dir: analysis.dir, family: analysis.family, fileExists });
  return fileExists(path) ? path : undefined;
}
