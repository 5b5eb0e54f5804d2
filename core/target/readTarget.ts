import type { Json } from '../case';
import type { YamlSource } from '../config/yamlSource';
import type { Problem } from '../problem';
import { parseFieldPath } from '../scorers/support/path';
import type { AnswerFormat, HttpMethod, TargetConfig } from './targetConfig';
import { parseTemplate, templateStrings, type TemplatePart } from './template';
import { isUntrustedEnv } from '../config/untrustedEnv';
import { isObject } from '../../shared/isObject';

/** The keys of `target:` and of `target.http:`, for "did you mean" on an unknown key. */
export const TARGET_KEYS = [
  'cmd',
  'http',
  'format',
  'output_path',
  'trace_path',
  'timeout_ms',
  'replace_recorded',
] as const;
export const HTTP_TARGET_KEYS = ['url', 'method', 'headers', 'body'] as const;

/** The known keys at a path under `target` (empty elsewhere). */
export function targetKnownKeys(path: readonly (string | number)[]): readonly string[] {
  if (path[0] !== 'target') return [];
  if (path.length === 1) return TARGET_KEYS;
  return path.length === 2 && path[1] === 'http' ? HTTP_TARGET_KEYS : [];
}

export interface TargetContext {
  /** The config's folder: a command target runs there. */
  readonly dir: string;
  /** The environment `{{env.NAME}}` headers are checked against. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The config's `timeout_ms`, the default of the target's. */
  readonly timeoutMs: number;
}

/**
 * Reads `target:` after the run-config schema has checked its shape (so a wrong type was said
 * already and here only yields no target). What the schema cannot say is checked here, each on its
 * own value: field paths, placeholders, the URL, header names, variables the headers read, a GET
 * with a body.
 */
export function readTarget(
  source: YamlSource,
  value: unknown,
  context: TargetContext,
): { config?: TargetConfig; problems: Problem[] } {
  if (!isObject(value)) return { problems: [] };
  const problems: Problem[] = [];
  const error = (path: readonly (string | number)[], message: string, code = 'target'): void => {
    problems.push({ code, severity: 'error', message, range: source.markRange(['target', ...path]) });
  };
  const format: AnswerFormat = value['format'] === 'json' || value['format'] === 'text' ? value['format'] : 'auto';
  for (const key of ['output_path', 'trace_path'] as const) {
    const path = value[key];
    if (typeof path !== 'string') continue;
    const parsed = parseFieldPath(path);
    if (!parsed.ok)
      error([key], `\`target.${key}\`: ${parsed.message} (expected e.g. answer or choices[0].message.content)`);
    else if (format === 'text')
      error(
        [key],
        `\`target.${key}\` picks a field of a JSON answer, and \`format: text\` never reads the answer as JSON`,
      );
  }
  const common = {
    format,
    ...(typeof value['output_path'] === 'string' ? { outputPath: value['output_path'] } : {}),
    ...(typeof value['trace_path'] === 'string' ? { tracePath: value['trace_path'] } : {}),
    timeoutMs: typeof value['timeout_ms'] === 'number' ? value['timeout_ms'] : context.timeoutMs,
    replaceRecorded: value['replace_recorded'] === true,
    range: source.keyRange(['target']),
  };
  const cmd = value['cmd'];
  const http = value['http'];
  if (typeof cmd === 'string' && http === undefined)
    return { config: { kind: 'cmd', cmd, cwd: context.dir, ...common }, problems };
  if (!isObject(http) || cmd !== undefined || typeof http['url'] !== 'string') return { problems };

  const url = http['url'];
  const urlTemplate = parseTemplate(url, false);
  if (!urlTemplate.ok) error(['http', 'url'], `\`target.http.url\`: ${urlTemplate.message}`);
  else if (!isHttpUrl(urlTemplate.parts))
    error(
      ['http', 'url'],
      '`target.http.url` must be an absolute http:// or https:// URL (e.g. http://127.0.0.1:8080/chat)',
    );

  const headers: { [name: string]: string } = {};
  for (const [name, template] of Object.entries(isObject(http['headers']) ? http['headers'] : {})) {
    if (typeof template !== 'string') continue;
    headers[name] = template;
    if (!HEADER_NAME.test(name)) {
      problems.push({
        code: 'target',
        severity: 'error',
        message: `\`target.http.headers\`: "${name}" is not a valid header name (letters, digits and -)`,
        range: source.keyRange(['target', 'http', 'headers', name]),
      });
      continue;
    }
    const parsed = parseTemplate(template, true);
    if (!parsed.ok) {
      error(['http', 'headers', name], `header ${name}: ${parsed.message}`);
      continue;
    }
    for (const part of parsed.parts) {
      if (typeof part === 'string' || part.root !== 'env') continue;
      const variable = String(part.segments[0]);
      // Without trust the variable is not read (nor the target called): nothing to check.
      if (!isUntrustedEnv(context.env) && context.env[variable] === undefined) {
        error(
          ['http', 'headers', name],
          `header ${name} reads the environment variable ${variable}, which is not set (set it before the run)`,
          'unresolved-variable',
        );
      }
    }
  }

  const method: HttpMethod = isMethod(http['method']) ? http['method'] : 'POST';
  const body = http['body'] as Json | undefined;
  if (body !== undefined) {
    if (method === 'GET')
      problems.push({
        code: 'target',
        severity: 'error',
        message: '`target.http.body`: a GET request sends no body (use POST, or put the fields in the URL)',
        range: source.keyRange(['target', 'http', 'body']),
      });
    for (const { path, text } of templateStrings(body)) {
      const parsed = parseTemplate(text, false);
      if (!parsed.ok)
        error(
          ['http', 'body', ...path],
          `\`target.http.body${path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('')}\`: ${parsed.message}`,
        );
    }
  }
  return {
    config: { kind: 'http', url, method, headers, ...(body === undefined ? {} : { body }), ...common },
    problems,
  };
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Whether the URL, with a stand-in for each placeholder, is an absolute http(s) URL. */
function isHttpUrl(parts: readonly TemplatePart[]): boolean {
  const sample = parts.map((p) => (typeof p === 'string' ? p : 'x')).join('');
  try {
    const parsed = new URL(sample);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
  } catch {
    return false;
  }
}

function isMethod(value: unknown): value is HttpMethod {
  return value === 'GET' || value === 'POST' || value === 'PUT' || value === 'PATCH' || value === 'DELETE';
}
