import type { EngineContext } from '../engineContext';
import type { ValidateFunction } from 'ajv';
import schema from '../../schemas/model-config.schema.json';
import { readConfigFile } from '../config/readConfigFile';
import { schemaProblems } from '../config/schemaMessages';
import { maskProblems, readSecretEnv } from '../../shared/text/secretMask';
import { displayLineColumn } from '../../shared/text/displayPosition';
import { YamlSource } from '../config/yamlSource';
import { hasErrors, type Problem } from '../problem';
import { modelConfigSpec, ownValidator } from '../schema/ownValidators';
import { endpointProblem } from './endpointSafety';
import { fromEvalBenchGenerator } from './evalbenchModelConfig';
import { DEFAULT_BASE_URLS, EVALBENCH_PROJECT_ENV, EVALBENCH_REGION_ENV, vertexBaseUrl } from './modelDefaults';

export type ProviderName = 'openai' | 'anthropic' | 'gemini' | 'vertex_gemini' | 'vertex_anthropic';

/**
 * A judge's model config (`schemas/model-config.schema.json`, or an EvalBench generator config read
 * as one), from the YAML file a scorer's `model_config` names. Defaults are filled in; no secret is
 * here, only the name of the environment variable that holds a key.
 */
export interface ModelConfig {
  /** Absolute path of the file it was read from (for reasons that name it). */
  readonly file: string;
  readonly provider: ProviderName;
  /** Without a trailing slash. For the Vertex providers, the host the `/v1/projects/…` path goes on. */
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKeyEnv?: string;
  /** Vertex providers: the Google Cloud project and location; absent when neither the file nor the environment gives them. */
  readonly project?: string;
  readonly location?: string;
  /** Said after a "missing credentials" reason: what else would have worked (an EvalBench config's other route). */
  readonly credentialsHelp?: string;
  /** EvalBench's `base_prompt`, put before every prompt as EvalBench does. */
  readonly basePrompt?: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly anthropicVersion: string;
  readonly temperature: number;
  readonly maxTokens: number;
  readonly execsPerMinute?: number;
  readonly timeoutMs: number;
  readonly maxAttempts: number;
  readonly retryInitialDelayMs: number;
  readonly retryMaxDelayMs: number;
  /** What a million prompt / answer tokens cost (`price_per_million_*`); absent: the judge's cost is not known. */
  readonly pricePerMillionInputTokens?: number;
  readonly pricePerMillionOutputTokens?: number;
}

/** Whether the provider signs in with Google application-default credentials (a bearer token) rather than a key. */
export function usesGoogleCredentials(config: Pick<ModelConfig, 'provider'>): boolean {
  return config.provider === 'vertex_gemini' || config.provider === 'vertex_anthropic';
}

export type LoadedModelConfig =
  | { readonly ok: true; readonly config: ModelConfig; readonly problems: readonly Problem[] }
  | { readonly ok: false; readonly problems: readonly Problem[] };

/** Reads and checks a model config file; an unreadable or malformed file gives problems, never a throw. */
export function loadModelConfig(
  path: string,
  env: Readonly<Record<string, string | undefined>>,
  engine?: EngineContext,
): LoadedModelConfig {
  const read = readConfigFile(path, 'model config');
  if ('problem' in read) return { ok: false, problems: [read.problem] };
  return parseModelConfig(read.text, read.file, env, engine);
}

/** Checks a model config's text; the host's engine context keeps the compiled schema (absent: compiled for this call). */
export function parseModelConfig(
  text: string,
  file: string,
  env: Readonly<Record<string, string | undefined>>,
  engine?: EngineContext,
): LoadedModelConfig {
  const source = new YamlSource(text, file);
  const validators = engine?.validators ?? {};
  const loaded = parseModelSource(
    source,
    file,
    env,
    () => (validators.modelConfig ??= ownValidator(modelConfigSpec())),
  );
  // No diagnostic quotes a value `${VAR}` brought in (a key, a project).
  return { ...loaded, problems: maskProblems([...loaded.problems], source.expandedValues) };
}

function parseModelSource(
  source: YamlSource,
  file: string,
  env: Readonly<Record<string, string | undefined>>,
  compiled: () => ValidateFunction,
): LoadedModelConfig {
  const syntax = source.syntaxProblems();
  if (hasErrors(syntax)) return { ok: false, problems: syntax };
  const expanded = source.expandEnvironment(env);
  const problems: Problem[] = [...syntax, ...expanded];
  // The guarded reader: an alias that names nothing or an alias bomb is a problem at its place, not a throw.
  const asData = source.toData();
  if (asData.problems.length > 0) return { ok: false, problems: [...problems, ...asData.problems] };
  const root: unknown = asData.value;
  const at = (path: readonly string[], message: string, code = 'schema'): Problem => ({
    code,
    severity: 'error',
    message,
    range: source.valueRange(path),
  });
  if (root === null || typeof root !== 'object' || Array.isArray(root)) {
    return {
      ok: false,
      problems: [
        ...problems,
        at([], 'a model config is a mapping with `provider` and `model` (and usually `api_key_env`)'),
      ],
    };
  }
  const data = root as Record<string, unknown>;
  if ('generator' in data && !('provider' in data)) {
    // EvalBench's model configs name a generator class; read the ones that are a model EvalLens can call.
    // An unset `!ENV ${EVAL_GCP_PROJECT_ID}` there is a setting that is missing, not a broken file: the
    // value counts as unset and the judge's results say what is missing when it runs.
    const kept = [...syntax, ...expanded.filter((p) => p.code !== 'unresolved-variable')];
    if (hasErrors(kept)) return { ok: false, problems: kept };
    return fromEvalBenchGenerator(data, source, file, env, kept);
  }
  const validator = compiled();
  if (!validator(data)) {
    const known = Object.keys(schema.properties);
    problems.push(
      ...schemaProblems(validator.errors ?? [], source, {
        basePath: [],
        knownKeys: (path) => (path.length === 0 ? known : []),
      }),
    );
  }
  if (hasErrors(problems)) return { ok: false, problems };
  const provider = data['provider'] as ProviderName;
  const project =
    typeof data['project'] === 'string' ? data['project'] : readSecretEnv(env, EVALBENCH_PROJECT_ENV) || undefined;
  const location = typeof data['location'] === 'string' ? data['location'] : env[EVALBENCH_REGION_ENV] || undefined;
  const defaultBase =
    provider === 'vertex_gemini' || provider === 'vertex_anthropic'
      ? vertexBaseUrl(location)
      : DEFAULT_BASE_URLS[provider];
  const baseUrl = (typeof data['base_url'] === 'string' ? data['base_url'] : defaultBase).replace(/\/+$/, '');
  const apiKeyEnv =
    typeof data['api_key_env'] === 'string'
      ? data['api_key_env']
      : provider === 'gemini'
        ? 'GEMINI_API_KEY'
        : undefined;
  const config: ModelConfig = {
    file,
    provider,
    baseUrl,
    model: data['model'] as string,
    ...(apiKeyEnv === undefined ? {} : { apiKeyEnv }),
    ...(project === undefined ? {} : { project }),
    ...(location === undefined ? {} : { location }),
    headers: (data['headers'] ?? {}) as Record<string, string>,
    anthropicVersion: data['anthropic_version'] as string,
    temperature: data['temperature'] as number,
    maxTokens: data['max_tokens'] as number,
    ...(typeof data['execs_per_minute'] === 'number' ? { execsPerMinute: data['execs_per_minute'] } : {}),
    timeoutMs: data['timeout_ms'] as number,
    maxAttempts: data['max_attempts'] as number,
    retryInitialDelayMs: data['retry_initial_delay_ms'] as number,
    retryMaxDelayMs: data['retry_max_delay_ms'] as number,
    ...(typeof data['price_per_million_input_tokens'] === 'number'
      ? { pricePerMillionInputTokens: data['price_per_million_input_tokens'] }
      : {}),
    ...(typeof data['price_per_million_output_tokens'] === 'number'
      ? { pricePerMillionOutputTokens: data['price_per_million_output_tokens'] }
      : {}),
  };
  const unsafe = endpointProblem(config);
  if (unsafe !== undefined) return { ok: false, problems: [...problems, at(['base_url'], unsafe)] };
  return { ok: true, config, problems };
}

/** A problem as one line that names the file, line and column (1-based, as a person reads them). */
export function problemLine(problem: Problem): string {
  return `${problem.range.file}:${displayLineColumn(problem.range.start)}: ${problem.message}`;
}
