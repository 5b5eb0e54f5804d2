import type { ValidateFunction } from 'ajv';
import schema from '../../schemas/model-config.schema.json';
import { readConfigFile } from '../config/readConfigFile';
import { schemaProblems } from '../config/schemaMessages';
import { YamlSource } from '../config/yamlSource';
import { hasErrors, type Problem } from '../problem';
import { createAjv } from '../schema/ajv';

/**
 * A judge's model config (`schemas/model-config.schema.json`), read from the YAML file a scorer's
 * `model_config` names. Defaults are filled in; the key itself is never here, only the name of the
 * environment variable that holds it.
 */
export interface ModelConfig {
  /** Absolute path of the file it was read from (for reasons that name it). */
  readonly file: string;
  readonly provider: 'openai' | 'anthropic';
  /** Without a trailing slash. */
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKeyEnv?: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly anthropicVersion: string;
  readonly temperature: number;
  readonly maxTokens: number;
  readonly execsPerMinute?: number;
  readonly timeoutMs: number;
  readonly maxAttempts: number;
  readonly retryInitialDelayMs: number;
  readonly retryMaxDelayMs: number;
}

export const DEFAULT_BASE_URLS = { openai: 'https://api.openai.com/v1', anthropic: 'https://api.anthropic.com' } as const;

export type LoadedModelConfig = { readonly ok: true; readonly config: ModelConfig; readonly problems: readonly Problem[] } | { readonly ok: false; readonly problems: readonly Problem[] };

/** Reads and checks a model config file; an unreadable or malformed file gives problems, never a throw. */
export function loadModelConfig(path: string, env: Readonly<Record<string, string | undefined>>): LoadedModelConfig {
  const read = readConfigFile(path, 'model config');
  if ('problem' in read) return { ok: false, problems: [read.problem] };
  return parseModelConfig(read.text, read.file, env);
}

let validator: ValidateFunction | undefined;

export function parseModelConfig(text: string, file: string, env: Readonly<Record<string, string | undefined>>): LoadedModelConfig {
  const source = new YamlSource(text, file);
  const syntax = source.syntaxProblems();
  if (hasErrors(syntax)) return { ok: false, problems: syntax };
  const problems: Problem[] = [...syntax, ...source.expandEnvironment(env)];
  const root: unknown = source.doc.toJS({ maxAliasCount: 100 });
  const at = (path: readonly string[], message: string, code = 'schema'): Problem => ({ code, severity: 'error', message, range: source.valueRange(path) });
  if (root === null || typeof root !== 'object' || Array.isArray(root)) {
    return { ok: false, problems: [...problems, at([], 'a model config is a mapping with `provider` and `model` (and usually `api_key_env`)')] };
  }
  const data = root as Record<string, unknown>;
  if ('generator' in data && !('provider' in data)) {
    // EvalBench's model configs name a generator class; ours name a protocol.
    const generator = typeof data['generator'] === 'string' ? ` (${data['generator']})` : '';
    problems.push({
      code: 'evalbench-generator',
      severity: 'error',
      message: `this is an EvalBench generator config${generator}; an EvalLens judge needs \`provider: openai\` (any OpenAI-compatible server) or \`provider: anthropic\`, with \`model\` and \`api_key_env\` — see docs/judges.md`,
      range: source.keyRange(['generator']),
    });
    return { ok: false, problems };
  }
  validator ??= createAjv({ useDefaults: true, verbose: true }).compile(schema);
  if (!validator(data)) {
    const known = Object.keys(schema.properties);
    problems.push(...schemaProblems(validator.errors ?? [], source, { basePath: [], knownKeys: (path) => (path.length === 0 ? known : []) }));
  }
  if (hasErrors(problems)) return { ok: false, problems };
  const provider = data['provider'] as ModelConfig['provider'];
  const baseUrl = (typeof data['base_url'] === 'string' ? data['base_url'] : DEFAULT_BASE_URLS[provider]).replace(/\/+$/, '');
  const config: ModelConfig = {
    file,
    provider,
    baseUrl,
    model: data['model'] as string,
    ...(typeof data['api_key_env'] === 'string' ? { apiKeyEnv: data['api_key_env'] } : {}),
    headers: (data['headers'] ?? {}) as Record<string, string>,
    anthropicVersion: data['anthropic_version'] as string,
    temperature: data['temperature'] as number,
    maxTokens: data['max_tokens'] as number,
    ...(typeof data['execs_per_minute'] === 'number' ? { execsPerMinute: data['execs_per_minute'] } : {}),
    timeoutMs: data['timeout_ms'] as number,
    maxAttempts: data['max_attempts'] as number,
    retryInitialDelayMs: data['retry_initial_delay_ms'] as number,
    retryMaxDelayMs: data['retry_max_delay_ms'] as number,
  };
  return { ok: true, config, problems };
}

/** A problem as one line that names the file, line and column (1-based, as a person reads them). */
export function problemLine(problem: Problem): string {
  return `${problem.range.file}:${problem.range.start.line + 1}:${problem.range.start.column + 1}: ${problem.message}`;
}
