import { existsSync } from 'node:fs';
import type { EngineContext } from '../engineContext';
import { parseRunConfig, type ParsedRunConfig } from './parseRunConfig';
import { readConfigFile } from './readConfigFile';
import type { RunConfig } from './runConfig';
import { isUntrustedEnv } from './untrustedEnv';
import { outsideOf } from './workspacePath';
import { YamlSource } from './yamlSource';
import { loadEvalhub } from '../evalhub/loadEvalhub';
import { hasErrors } from '../problem';

export interface LoadOptions {
  /**
   * The folder a run without trust may write in (the CLI's current folder). With an untrusted `env`
   * (untrustedEnv.ts), an output path the config chooses outside it is an error at its key;
   * default: the config's folder.
   */
  readonly workspace?: string;
  /** The host's engine context (the CLI makes one per process); absent: a fresh one. */
  readonly engine?: EngineContext;
}

/**
 * Reads a run config from disk and parses it; an unreadable file is a problem, not a crash. With an
 * untrusted `env` nothing is read from the environment — not the config's `${VAR}`s, not an evalset's
 * — and nothing the config chooses is written outside the workspace.
 */
export function loadRunConfig(
  path: string,
  env: Readonly<Record<string, string | undefined>>,
  options: LoadOptions = {},
): ParsedRunConfig {
  const read = readConfigFile(path, 'run config');
  if ('problem' in read) return { problems: [read.problem] };
  const source = new YamlSource(read.text, read.file);
  const parsed = parseRunConfig(read.text, read.file, env, {
    fileExists: existsSync,
    source,
    ...(options.engine === undefined ? {} : { engine: options.engine }),
  });
  const withEvalhub = completeEvalhub(parsed);
  if (!isUntrustedEnv(env) || withEvalhub.config === undefined) return withEvalhub;
  const config: RunConfig =
    withEvalhub.config.dataset === undefined
      ? withEvalhub.config
      : { ...withEvalhub.config, dataset: { ...withEvalhub.config.dataset, env } };
  const output = config.csvOutputDirectory;
  const workspace = options.workspace ?? config.dir;
  if (output === undefined || !outsideOf(workspace, output)) return { ...withEvalhub, config };
  // A workspace may not choose where an untrusted run writes: the run is refused, not redirected.
  const range = source.valueRange(['reporting', 'csv', 'output_directory']);
  const message = `the workspace is not trusted, so a run writes nothing outside it (${workspace}), and \`reporting.csv.output_directory\` is ${output}; choose a folder inside the workspace, or trust it`;
  return { problems: [...parsed.problems, { code: 'output-outside-workspace', severity: 'error', message, range }] };
}

/**
 * A config with `evalhub:` gets its collection file read here, where a run or `validate --cases`
 * loads it (the language server's check reads no other file): the job threshold by EvalHub's
 * precedence, the scoring sources on a benchmark-results dataset, and the collection's mistakes.
 */
function completeEvalhub(parsed: ParsedRunConfig): ParsedRunConfig {
  const config = parsed.config;
  if (config?.evalhub === undefined) return parsed;
  const loaded = loadEvalhub(config.evalhub, config.dataset);
  const problems = [...parsed.problems, ...loaded.problems];
  if (hasErrors(loaded.problems)) {
    const { config: _refused, ...rest } = parsed;
    return { ...rest, problems };
  }
  const providerId = config.evalhub.providerId;
  const evalhub = { sources: loaded.sources, ...(providerId === undefined ? {} : { providerId }) };
  return {
    ...parsed,
    problems,
    config: {
      ...config,
      jobThreshold: loaded.jobThreshold,
      ...(config.dataset === undefined ? {} : { dataset: { ...config.dataset, evalhub } }),
    },
  };
}
