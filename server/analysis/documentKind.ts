/**
 * Which documents the server speaks about. `*.eval.yaml` / `*.eval.yml` (language `evallens-yaml`)
 * are run configs; a plain YAML document is one when its content is a run config: of EvalBench's
 * family (configFamily: a top-level `dataset_config:`, `database_configs:` or `orchestrator:`), or
 * with a top-level `scorers:`; a document that an open config names as its dataset is a dataset.
 * Anything else is left alone, silently.
 */
import { configFamily } from '../../core/config/configFamily';

export type DocumentKind = 'config' | 'dataset' | 'other';

const CONFIG_LANGUAGE = 'evallens-yaml';
const CONFIG_NAME = /\.eval\.ya?ml$/i;
const YAML_NAME = /\.ya?ml$/i;
const SCORERS_KEY = /^scorers[ \t]*:/m;

export function documentKind(uri: string, languageId: string, text: string, isDataset: boolean): DocumentKind {
  if (languageId === CONFIG_LANGUAGE || CONFIG_NAME.test(uri)) return 'config';
  if (isDataset) return 'dataset';
  if ((languageId === 'yaml' || YAML_NAME.test(uri)) && (configFamily(text) === 'evalbench' || SCORERS_KEY.test(text)))
    return 'config';
  return 'other';
}
