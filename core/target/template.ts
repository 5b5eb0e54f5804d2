import type { EvalCase, Json } from '../case';
import { parseFieldPath, valueAt } from '../scorers/support/path';
import { readSecretEnv } from '../../shared/text/secretMask';

/** The case fields a target sees, on stdin or in templates. Expected values are not among them. */
export const CASE_FIELDS = ['id', 'input', 'context', 'metadata'] as const;
type CaseField = (typeof CASE_FIELDS)[number];

/** `{{input.question}}` or `{{env.API_KEY}}`: what to put in, as parsed from the config. */
export interface Placeholder {
  /** As written between the braces, for reasons. */
  readonly text: string;
  readonly root: CaseField | 'env';
  /** The segments after the root (for `env`, the variable's name). */
  readonly segments: readonly (string | number)[];
}

export type TemplatePart = string | Placeholder;

/** What templates are filled from: the case payload and, for headers, the environment. */
export interface TemplateScope {
  readonly fields: CasePayload;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export type CasePayload = { readonly id: string; readonly input: Json } & { readonly [key: string]: Json };

/** `{"id", "input", "context"?, "metadata"?}`: what a command target reads on stdin and the default HTTP body. */
export function casePayload(evalCase: EvalCase): CasePayload {
  return {
    id: evalCase.id,
    input: evalCase.input ?? null,
    ...(evalCase.context === undefined ? {} : { context: evalCase.context }),
    ...(evalCase.metadata === undefined ? {} : { metadata: evalCase.metadata }),
  };
}

const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Splits a template string into text and placeholders. `env` placeholders are allowed only where
 * `allowEnv` says (headers), so a secret cannot end up in a body or a URL by accident.
 */
export function parseTemplate(
  text: string,
  allowEnv: boolean,
): { ok: true; parts: TemplatePart[] } | { ok: false; message: string } {
  const parts: TemplatePart[] = [];
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    const inner = (match[1] ?? '').trim();
    const start = match.index;
    if (start > last) parts.push(text.slice(last, start));
    last = start + match[0].length;
    const parsed = parseFieldPath(inner);
    const [root, ...rest] = parsed.ok ? parsed.segments : [];
    if (!parsed.ok || typeof root !== 'string')
      return {
        ok: false,
        message: `the placeholder {{${inner}}} is not a field path (expected e.g. {{input}} or {{metadata.lang}})`,
      };
    if (root === 'env') {
      const name = rest[0];
      if (!allowEnv)
        return {
          ok: false,
          message: `{{${inner}}}: environment variables are read in headers only, so a secret never travels in a URL or a body`,
        };
      if (rest.length !== 1 || typeof name !== 'string' || !ENV_NAME.test(name))
        return { ok: false, message: `{{${inner}}} must name one environment variable, as {{env.API_KEY}}` };
      parts.push({ text: inner, root, segments: rest });
      continue;
    }
    if (!isCaseField(root))
      return {
        ok: false,
        message: `the placeholder {{${inner}}} names no case field: expected one of ${CASE_FIELDS.map((f) => `{{${f}}}`).join(', ')}${allowEnv ? ' or {{env.NAME}}' : ''}`,
      };
    parts.push({ text: inner, root, segments: rest });
  }
  if (last < text.length) parts.push(text.slice(last));
  const stray = parts.find((p): p is string => typeof p === 'string' && (p.includes('{{') || p.includes('}}')));
  if (stray !== undefined)
    return { ok: false, message: 'a `{{` or `}}` is not part of a placeholder (expected {{field}})' };
  return { ok: true, parts };
}

function isCaseField(name: string): name is CaseField {
  return (CASE_FIELDS as readonly string[]).includes(name);
}

/** The placeholder's value; a field the case lacks, or an unset variable, is an error naming it (never its value). */
export function valueOf(placeholder: Placeholder, scope: TemplateScope): Json {
  if (placeholder.root === 'env') {
    const name = String(placeholder.segments[0]);
    const value = scope.env === undefined ? undefined : readSecretEnv(scope.env, name);
    if (value === undefined)
      throw new Error(`the environment variable ${name} that {{${placeholder.text}}} reads is not set`);
    return value;
  }
  const value = valueAt(scope.fields[placeholder.root], placeholder.segments);
  if (value === undefined)
    throw new Error(`the case has no ${placeholder.text} for the placeholder {{${placeholder.text}}}`);
  return value;
}

/** The template as text: each value as itself when a string, else its compact JSON; `encode` escapes values (URLs). */
export function renderText(
  parts: readonly TemplatePart[],
  scope: TemplateScope,
  encode: (text: string) => string = (t) => t,
): string {
  return parts.map((part) => (typeof part === 'string' ? part : encode(asText(valueOf(part, scope))))).join('');
}

/**
 * A JSON template filled in: every string is a template; a string that is one placeholder and
 * nothing else takes the value with its JSON type (`"{{input}}"` sends an object as an object).
 */
export function renderJson(template: Json, scope: TemplateScope): Json {
  if (typeof template === 'string') {
    const parsed = parseTemplate(template, false);
    if (!parsed.ok) throw new Error(parsed.message);
    const [only, ...more] = parsed.parts;
    if (only !== undefined && typeof only !== 'string' && more.length === 0) return valueOf(only, scope);
    return renderText(parsed.parts, scope);
  }
  if (Array.isArray(template)) return (template as readonly Json[]).map((item) => renderJson(item, scope));
  if (template !== null && typeof template === 'object') {
    const object = template as { readonly [key: string]: Json };
    return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, renderJson(value, scope)]));
  }
  return template;
}

/** Every string in a JSON template, with its path, so the config check can point at the one that is wrong. */
export function templateStrings(
  template: Json,
  path: (string | number)[] = [],
): { path: (string | number)[]; text: string }[] {
  if (typeof template === 'string') return [{ path, text: template }];
  if (Array.isArray(template))
    return (template as readonly Json[]).flatMap((item, i) => templateStrings(item, [...path, i]));
  if (template !== null && typeof template === 'object') {
    return Object.entries(template as { readonly [key: string]: Json }).flatMap(([key, value]) =>
      templateStrings(value, [...path, key]),
    );
  }
  return [];
}

function asText(value: Json): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
