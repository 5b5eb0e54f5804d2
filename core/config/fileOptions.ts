import commonSchema from '../../schemas/scorer-common.schema.json';

/**
 * Which options of a scorer name a file, relative to the config's folder. One rule, so that the
 * engine (a missing file is a problem), the language server (path completion, go to definition) and
 * a scorer added tomorrow agree without a list to keep up to date:
 * - an option whose schema says `"x-evallens": {"path": "file"}` names a file (`"path": false`
 *   says it does not, whatever its name);
 * - otherwise a string option whose key ends in `_path` or `_file` names one (`schema_path`,
 *   `script_path`, `rubric_file`), except the common options `output_path` and `expected_path`,
 *   which select a field of a case.
 */
const FIELD_SELECTORS: ReadonlySet<string> = new Set(Object.keys(commonSchema.properties));

export function fileOptionKeys(schema: { readonly [key: string]: unknown }): string[] {
  const properties = schema['properties'];
  if (properties === null || typeof properties !== 'object') return [];
  return Object.entries(properties as Record<string, unknown>)
    .filter(([key, option]) => namesFile(key, option))
    .map(([key]) => key);
}

function namesFile(key: string, option: unknown): boolean {
  const own = option !== null && typeof option === 'object' ? (option as Record<string, unknown>) : {};
  const marker = own['x-evallens'];
  if (marker !== null && typeof marker === 'object' && 'path' in marker)
    return (marker as { path: unknown }).path === 'file';
  if (FIELD_SELECTORS.has(key)) return false;
  const type = own['type'];
  const stringValued = type === undefined || type === 'string' || (Array.isArray(type) && type.includes('string'));
  return stringValued && (key.endsWith('_path') || key.endsWith('_file'));
}

/** A place in a run config (outside `scorers:`) whose value is a path relative to the config's folder. `*` is any list item. */
export interface ConfigPathKey {
  readonly path: readonly string[];
  readonly kind: 'file' | 'folder';
  /** The value is the dataset (its completion offers dataset files). */
  readonly dataset?: true;
}

/** The run-config keys the engine resolves as paths (parseRunConfig, evalbenchCompat). */
export const CONFIG_PATH_KEYS: readonly ConfigPathKey[] = [
  { path: ['dataset'], kind: 'file', dataset: true },
  { path: ['dataset', 'path'], kind: 'file', dataset: true },
  { path: ['dataset_config'], kind: 'file', dataset: true },
  { path: ['dataset_config', 'prompts_file'], kind: 'file', dataset: true },
  { path: ['database_configs', '*'], kind: 'file' },
  { path: ['model_config'], kind: 'file' },
  { path: ['simulated_user_model_config'], kind: 'file' },
  { path: ['vuser_model_config'], kind: 'file' },
  { path: ['setup_directory'], kind: 'folder' },
  // A baseline file, a report.json or a run folder (docs/compare.md).
  { path: ['baseline'], kind: 'file' },
];

/** The path key at a value's path (indexes as numbers), if that value is a path. */
export function configPathKeyAt(path: readonly (string | number)[]): ConfigPathKey | undefined {
  return CONFIG_PATH_KEYS.find(
    (key) =>
      key.path.length === path.length &&
      key.path.every((segment, i) => (segment === '*' ? typeof path[i] === 'number' : segment === path[i])),
  );
}
