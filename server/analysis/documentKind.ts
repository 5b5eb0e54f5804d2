/**
 * Which documents the server speaks about. `*.eval.yaml` / `*.eval.yml` (language `evallens-yaml`)
 * are run configs; a plain YAML document is one when its content is an EvalBench run config (a
 * top-level `dataset_config:`, `database_configs:` or `scorers:`); a document that an open config
 * names as its dataset is a dataset. Anything else is left alone, silently.
 */
export type DocumentKind = 'config' | 'dataset' | 'other';

const CONFIG_LANGUAGE = 'evallens-yaml';
const CONFIG_NAME = /\.eval\.ya?ml$/i;
const YAML_NAME = /\.ya?ml$/i;
const EVALBENCH_CONTENT = /^(?:dataset_config|database_configs|scorers)[ \t]*:/m;

export function documentKind(uri: string, languageId: string, text: string, isDataset: boolean): DocumentKind {
  if (languageId === CONFIG_LANGUAGE || CONFIG_NAME.test(uri)) return 'config';
  if (isDataset) return 'dataset';
  if ((languageId === 'yaml' || YAML_NAME.test(uri)) && EVALBENCH_CONTENT.test(text)) return 'config';
  return 'other';
}
