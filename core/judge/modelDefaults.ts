import schema from '../../schemas/model-config.schema.json';

export const DEFAULT_BASE_URLS = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
  gemini: 'https://generativelanguage.googleapis.com',
} as const;

/** Vertex AI's host for a location: regional, or the global endpoint. */
export function vertexBaseUrl(location: string | undefined): string {
  return location === undefined || location === 'global'
    ? 'https://aiplatform.googleapis.com'
    : `https://${location}-aiplatform.googleapis.com`;
}

/** The environment variables EvalBench reads for a Vertex project and region when its config names none. */
export const EVALBENCH_PROJECT_ENV = 'EVAL_GCP_PROJECT_ID';
export const EVALBENCH_REGION_ENV = 'EVAL_GCP_PROJECT_REGION';

/** The defaults of the schema's optional keys, for configs built from an EvalBench generator config. */
export function schemaDefault(key: string): number | string {
  const property = (schema.properties as Record<string, { default?: number | string }>)[key];
  if (property?.default === undefined) throw new Error(`model-config schema has no default for ${key}`);
  return property.default;
}
