import type { YamlSource } from '../config/yamlSource';
import type { Problem } from '../problem';
import { endpointProblem } from './endpointSafety';
import type { LoadedModelConfig, ModelConfig, ProviderName } from './modelConfig';
import {
  DEFAULT_BASE_URLS,
  EVALBENCH_PROJECT_ENV,
  EVALBENCH_REGION_ENV,
  schemaDefault,
  vertexBaseUrl,
} from './modelDefaults';
import { readSecretEnv } from '../../shared/text/secretMask';
import { isObject } from '../../shared/isObject';

type Env = Readonly<Record<string, string | undefined>>;
type Data = Readonly<Record<string, unknown>>;

/**
 * EvalBench's model configs (`generator: gcp_vertex_gemini`, …) read as a judge's model config.
 * EvalBench's judge scorers build the generator the file names and send it the prompt; EvalLens calls
 * the same model directly:
 *
 * - `gcp_vertex_gemini`: Gemini on Vertex AI (`vertex_model`, project `gcp_project_id` else
 *   $EVAL_GCP_PROJECT_ID, region `gcp_region` else $EVAL_GCP_PROJECT_REGION), with Google
 *   application-default credentials; without a project and region, the Gemini API with $GEMINI_API_KEY
 *   (EvalBench's own fallback).
 * - `gcp_vertex_claude`: Claude on Vertex AI, same project and region.
 * - The agent CLIs when the file names a model: `gemini_cli` (its `vertex_model`/`model` on Vertex,
 *   project and region from its `gcp_*` keys or its `env:` block), `claude_code` (Claude on Vertex with
 *   `use_vertex`, else Anthropic with $ANTHROPIC_API_KEY), `codex_cli` (OpenAI with $OPENAI_API_KEY).
 *   The agent itself (its tools, MCP servers, skills) is not run: the judge is a plain model call.
 *
 * Anything else (an agent with no model, a NL2SQL service) is a load error that says what to use.
 */
export function fromEvalBenchGenerator(
  data: Data,
  source: YamlSource,
  file: string,
  env: Env,
  problems: Problem[],
): LoadedModelConfig {
  const generator = typeof data['generator'] === 'string' ? data['generator'] : String(data['generator']);
  const refuse = (message: string): LoadedModelConfig => ({
    ok: false,
    problems: [
      ...problems,
      { code: 'evalbench-generator', severity: 'error', message, range: source.keyRange(['generator']) },
    ],
  });
  const fileEnv = mapping(data['env']);
  const vertexProject = () => text(data['gcp_project_id']) ?? text(readSecretEnv(env, EVALBENCH_PROJECT_ENV));
  const vertexRegion = () => text(data['gcp_region']) ?? text(env[EVALBENCH_REGION_ENV]);
  let route: Route | string;
  switch (generator) {
    case 'gcp_vertex_gemini':
      route = geminiRoute(text(data['vertex_model']), vertexProject(), vertexRegion(), true, '`vertex_model`');
      break;
    case 'gcp_vertex_claude': {
      const model = text(data['vertex_model']);
      route =
        model === undefined
          ? 'gcp_vertex_claude needs `vertex_model` (the Claude model on Vertex AI, e.g. claude-sonnet-4-5@20250929)'
          : vertexRoute('vertex_anthropic', model, vertexProject(), vertexRegion());
      break;
    }
    case 'gemini_cli': {
      const model = text(data['vertex_model']) ?? text(data['model']) ?? text(fileEnv['GEMINI_MODEL']);
      const project =
        text(data['gcp_project_id']) ??
        text(fileEnv['GOOGLE_CLOUD_PROJECT']) ??
        text(readSecretEnv(env, EVALBENCH_PROJECT_ENV));
      const region =
        text(data['gcp_region']) ?? text(fileEnv['GOOGLE_CLOUD_LOCATION']) ?? text(env[EVALBENCH_REGION_ENV]);
      const onVertex = String(fileEnv['GOOGLE_GENAI_USE_VERTEXAI'] ?? 'true').toLowerCase() !== 'false';
      route =
        model === undefined
          ? `gemini_cli runs the Gemini CLI agent with its default model, and this file names no model for a judge to call: add \`vertex_model: gemini-2.5-flash\` (or another Gemini model) to it, or point model_config at a gcp_vertex_gemini config such as datasets/model_configs/gemini_2.5_pro_model.yaml`
          : geminiRoute(model, project, region, onVertex, '`vertex_model`');
      break;
    }
    case 'claude_code': {
      const model = text(data['model']);
      if (model === undefined)
        route =
          'claude_code names no `model` for a judge to call: add one (e.g. `model: claude-sonnet-4-5`) or point model_config at a gcp_vertex_claude config';
      else if (data['use_vertex'] === true) {
        const project =
          text(data['vertex_project_id']) ??
          text(fileEnv['ANTHROPIC_VERTEX_PROJECT_ID']) ??
          text(fileEnv['GOOGLE_CLOUD_PROJECT']) ??
          text(readSecretEnv(env, EVALBENCH_PROJECT_ENV));
        const region =
          text(data['vertex_region']) ??
          text(fileEnv['CLOUD_ML_REGION']) ??
          text(fileEnv['GOOGLE_CLOUD_LOCATION']) ??
          text(env[EVALBENCH_REGION_ENV]);
        route = vertexRoute('vertex_anthropic', model, project, region);
      } else
        route = { provider: 'anthropic', model, apiKeyEnv: 'ANTHROPIC_API_KEY', baseUrl: DEFAULT_BASE_URLS.anthropic };
      break;
    }
    case 'codex_cli': {
      const model = text(data['model']);
      route =
        model === undefined
          ? 'codex_cli names no `model` for a judge to call: add one (e.g. `model: gpt-5`)'
          : { provider: 'openai', model, apiKeyEnv: 'OPENAI_API_KEY', baseUrl: DEFAULT_BASE_URLS.openai };
      break;
    }
    case 'agy_cli':
    case 'jetski_cli':
      route = `${generator} is an agent whose model is named for its own UI (${JSON.stringify(text(data['model']) ?? 'its default')}), not a model an API serves: point model_config at a gcp_vertex_gemini config such as datasets/model_configs/gemini_2.5_pro_model.yaml`;
      break;
    default:
      route = `${generator} is not a model EvalLens can ask for a verdict: a judge needs gcp_vertex_gemini, gcp_vertex_claude (or gemini_cli, claude_code, codex_cli naming a model); point model_config at, e.g., datasets/model_configs/gemini_2.5_pro_model.yaml`;
  }
  if (typeof route === 'string') return refuse(route);
  const overrides = evalLensOverrides(data);
  const config: ModelConfig = {
    file,
    provider: route.provider,
    model: route.model,
    baseUrl: (overrides.baseUrl ?? route.baseUrl).replace(/\/+$/, ''),
    ...(route.apiKeyEnv === undefined ? {} : { apiKeyEnv: overrides.apiKeyEnv ?? route.apiKeyEnv }),
    ...(route.project === undefined ? {} : { project: route.project }),
    ...(route.location === undefined ? {} : { location: route.location }),
    ...(route.credentialsHelp === undefined ? {} : { credentialsHelp: route.credentialsHelp }),
    ...(text(data['base_prompt']) === undefined ? {} : { basePrompt: data['base_prompt'] as string }),
    headers: {},
    anthropicVersion: schemaDefault('anthropic_version') as string,
    temperature:
      typeof data['temperature'] === 'number' ? data['temperature'] : (schemaDefault('temperature') as number),
    maxTokens: positiveInteger(data['max_tokens']) ?? (schemaDefault('max_tokens') as number),
    ...(positiveInteger(data['execs_per_minute']) === undefined
      ? {}
      : { execsPerMinute: positiveInteger(data['execs_per_minute']) as number }),
    timeoutMs: schemaDefault('timeout_ms') as number,
    maxAttempts: positiveInteger(data['max_attempts']) ?? (schemaDefault('max_attempts') as number),
    retryInitialDelayMs: schemaDefault('retry_initial_delay_ms') as number,
    retryMaxDelayMs: schemaDefault('retry_max_delay_ms') as number,
  };
  const unsafe = endpointProblem(config);
  if (unsafe !== undefined)
    return {
      ok: false,
      problems: [
        ...problems,
        { code: 'schema', severity: 'error', message: unsafe, range: source.valueRange(['base_url']) },
      ],
    };
  const notice: Problem = {
    code: 'evalbench-model-config',
    severity: 'information',
    message: routeNotice(generator, config),
    range: source.keyRange(['generator']),
  };
  return { ok: true, config, problems: [...problems, notice] };
}

/** What the judge will call, said once when the config loads (no environment variable's value is read for it). */
function routeNotice(generator: string, config: ModelConfig): string {
  const head = `EvalBench's ${generator} config ${config.file}: the judge calls ${config.model}`;
  const agent =
    generator === 'gemini_cli' || generator === 'claude_code' || generator === 'codex_cli'
      ? ' directly (the agent itself is not run)'
      : '';
  switch (config.provider) {
    case 'vertex_gemini':
    case 'vertex_anthropic': {
      // The project and region are not quoted: they may come from the environment.
      const where = config.project !== undefined && config.location !== undefined ? ' (in its project and region)' : '';
      const missing =
        config.project === undefined || config.location === undefined
          ? `; its results will be skipped: ${config.credentialsHelp ?? 'no project or region'}`
          : '';
      return `${head} on Vertex AI${where}${agent}, signed in with Google application-default credentials${missing}`;
    }
    case 'gemini':
      return `${head} through the Gemini API${agent} with the key in ${config.apiKeyEnv ?? 'GEMINI_API_KEY'}${config.credentialsHelp === undefined ? '' : ` (${config.credentialsHelp})`}; without it, its results are skipped`;
    default:
      return `${head} through the ${config.provider === 'openai' ? 'OpenAI' : 'Anthropic'} API${agent} with the key in ${config.apiKeyEnv ?? '(none)'}; without it, its results are skipped`;
  }
}

interface Route {
  readonly provider: ProviderName;
  readonly model: string;
  readonly baseUrl: string;
  readonly apiKeyEnv?: string;
  readonly project?: string;
  readonly location?: string;
  readonly credentialsHelp?: string;
}

const ADC_HELP =
  'Vertex AI signs in with Google application-default credentials (GOOGLE_APPLICATION_CREDENTIALS, or `gcloud auth application-default login`)';

/** Gemini: on Vertex AI when a project and region are known, else the Gemini API with GEMINI_API_KEY (EvalBench's fallback). */
function geminiRoute(
  model: string | undefined,
  project: string | undefined,
  region: string | undefined,
  onVertex: boolean,
  modelKey: string,
): Route | string {
  if (model === undefined) return `the config names no Gemini model: ${modelKey} is required (e.g. gemini-2.5-pro)`;
  if (onVertex && project !== undefined && region !== undefined)
    return vertexRoute('vertex_gemini', model, project, region);
  const why = onVertex
    ? `the file names no gcp_project_id/gcp_region and ${EVALBENCH_PROJECT_ENV}/${EVALBENCH_REGION_ENV} are not both set, so the Gemini API is used; set those two for Vertex AI instead`
    : 'GOOGLE_GENAI_USE_VERTEXAI is false in the file, so the Gemini API is used';
  return {
    provider: 'gemini',
    model,
    baseUrl: DEFAULT_BASE_URLS.gemini,
    apiKeyEnv: 'GEMINI_API_KEY',
    credentialsHelp: why,
  };
}

function vertexRoute(
  provider: 'vertex_gemini' | 'vertex_anthropic',
  model: string,
  project: string | undefined,
  region: string | undefined,
): Route {
  const missing = [
    project === undefined ? `a project (gcp_project_id or ${EVALBENCH_PROJECT_ENV})` : undefined,
    region === undefined ? `a region (gcp_region or ${EVALBENCH_REGION_ENV})` : undefined,
  ].filter((m) => m !== undefined);
  return {
    provider,
    model,
    baseUrl: vertexBaseUrl(region),
    ...(project === undefined ? {} : { project }),
    ...(region === undefined ? {} : { location: region }),
    credentialsHelp: missing.length === 0 ? ADC_HELP : `Vertex AI needs ${missing.join(' and ')}`,
  };
}

/** EvalLens keys an EvalBench config may also carry (EvalBench ignores them): where the API is, which key variable. */
function evalLensOverrides(data: Data): { readonly baseUrl?: string; readonly apiKeyEnv?: string } {
  const baseUrl = text(data['base_url']);
  const apiKeyEnv = text(data['api_key_env']);
  return {
    ...(baseUrl === undefined ? {} : { baseUrl }),
    ...(apiKeyEnv !== undefined && /^[A-Za-z_][A-Za-z0-9_]*$/.test(apiKeyEnv) ? { apiKeyEnv } : {}),
  };
}

/** A non-empty string that is not a placeholder such as `<project>` (EvalBench's sample files hold those) nor an unset `${VAR}`. */
function text(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' || /^<[^>]*>$/.test(trimmed) || trimmed.includes('${') ? undefined : trimmed;
}

function mapping(value: unknown): Readonly<Record<string, unknown>> {
  return isObject(value) ? value : {};
}

function positiveInteger(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : undefined;
}
