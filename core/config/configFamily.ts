import { FAMILY_KEYS } from './evalbenchKeys';

/**
 * Which family a run config is of — the one rule, for the engine, the language server and the CLI
 * (through the engine), and the same list the published schema's `if` is built from:
 * `evalbench` when the config has one of EvalBench's own top-level keys (`dataset_config`,
 * `database_configs`, `orchestrator`: evalbenchKeys.json's `familyKeys`), else `evallens`. A key
 * whose value is empty (`dataset_config:`) still counts: it is written.
 */
export type ConfigFamily = 'evalbench' | 'evallens';

const TOP_LEVEL_KEY = /^([A-Za-z_][\w.-]*)[ \t]*:/gm;

/**
 * The family of a config given as its data (a mapping), its top-level keys, or its YAML text (read
 * line by line for top-level keys, without parsing: completion asks while the text is being typed).
 */
export function configFamily(config: Readonly<Record<string, unknown>> | readonly string[] | string): ConfigFamily {
  const keys =
    typeof config === 'string'
      ? Array.from(config.matchAll(TOP_LEVEL_KEY), (m) => m[1] ?? '')
      : Array.isArray(config)
        ? config
        : Object.keys(config).filter((key) => (config as Readonly<Record<string, unknown>>)[key] !== undefined);
  return keys.some((key) => FAMILY_KEYS.includes(key)) ? 'evalbench' : 'evallens';
}
