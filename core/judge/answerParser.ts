import type { Json } from '../case';
import { parseJson } from '../text/jsonDepth';
import { isObject } from '../../shared/isObject';

/**
 * Reading a judge's answer. Judges are asked for one JSON object; they often wrap it in a Markdown
 * fence or in prose. The object is found when there is exactly one: the whole answer, else the one
 * fenced block that holds an object, else the one balanced `{…}` in the text. No object, an object
 * that does not parse, several candidate objects, or a field of the wrong kind is an `error` with the
 * reason: never a silent 0.
 */
export type JudgeObject = { readonly [key: string]: Json };
export type Read<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

export function parseJudgeObject(answer: string): Read<JudgeObject> {
  const text = answer.trim();
  if (text === '') return { ok: false, reason: "the judge's answer is empty" };
  const whole = tryObject(text);
  if (whole !== undefined) return { ok: true, value: whole };

  const fenced = [...text.matchAll(/```[a-zA-Z]*[ \t]*\r?\n?([\s\S]*?)```/g)].map((m) => (m[1] ?? '').trim());
  const fencedObjects = distinct(fenced.map(tryObject).filter((o): o is JudgeObject => o !== undefined));
  if (fencedObjects.length === 1 && fencedObjects[0] !== undefined) return { ok: true, value: fencedObjects[0] };
  if (fencedObjects.length > 1)
    return {
      ok: false,
      reason: `the judge's answer holds ${fencedObjects.length} different JSON objects in fenced blocks; expected one`,
    };

  const candidates = balancedObjects(text);
  const objects = distinct(candidates.map(tryObject).filter((o): o is JudgeObject => o !== undefined));
  if (objects.length === 1 && objects[0] !== undefined) return { ok: true, value: objects[0] };
  if (objects.length > 1)
    return { ok: false, reason: `the judge's answer holds ${objects.length} different JSON objects; expected one` };
  // JSON.parse's message quotes the text, which may quote the case: the answer is in details instead.
  if (candidates.length > 0)
    return {
      ok: false,
      reason: `the judge's answer has a {…} block that is not valid JSON (${candidates.length} block${candidates.length === 1 ? '' : 's'} tried); expected one JSON object`,
    };
  return {
    ok: false,
    reason: `the judge's answer holds no JSON object (${text.length} characters of text); expected one JSON object`,
  };
}

/** A field that must be one of `allowed` (case-insensitive; answered in the canonical spelling). */
export function readChoice<T extends string>(object: JudgeObject, key: string, allowed: readonly T[]): Read<T> {
  const value = object[key];
  if (typeof value !== 'string')
    return {
      ok: false,
      reason: `the judge's answer has no "${key}" string (expected one of ${allowed.join(', ')}; got ${kind(value)})`,
    };
  const found = allowed.find((a) => a.toLowerCase() === value.trim().toLowerCase());
  return found === undefined
    ? { ok: false, reason: `the judge's "${key}" is not one of ${allowed.join(', ')}` }
    : { ok: true, value: found };
}

/** A boolean field; the strings "true" and "false" are read as booleans too. */
export function readBoolean(object: JudgeObject, key: string): Read<boolean> {
  const value = object[key];
  if (typeof value === 'boolean') return { ok: true, value };
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim()))
    return { ok: true, value: value.trim().toLowerCase() === 'true' };
  return { ok: false, reason: `the judge's answer has no "${key}" true/false (got ${kind(value)})` };
}

/** A whole number in [min, max]; a numeric string is read as its number. */
export function readCount(object: JudgeObject, key: string, min: number, max: number): Read<number> {
  const raw = object[key];
  const value = typeof raw === 'string' && /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isInteger(value))
    return { ok: false, reason: `the judge's answer has no whole number "${key}" (got ${kind(raw)})` };
  if (value < min || value > max)
    return { ok: false, reason: `the judge's "${key}" is ${value}, outside ${min}–${max}` };
  return { ok: true, value };
}

/** An optional explanation; anything but a string is left out. */
export function readText(object: JudgeObject, key: string): string | undefined {
  const value = object[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The answer as kept in `details` (long answers shortened): it may quote the case, so never in a reason. */
export function answerDetail(answer: string): string {
  return answer.length > ANSWER_DETAIL_CHARS
    ? `${answer.slice(0, ANSWER_DETAIL_CHARS)}… (${answer.length} characters)`
    : answer;
}
export const ANSWER_DETAIL_CHARS = 4000;

function tryObject(text: string): JudgeObject | undefined {
  if (!text.startsWith('{')) return undefined;
  try {
    const value: unknown = parseJson(text);
    return isObject(value) ? (value as JudgeObject) : undefined;
  } catch {
    return undefined;
  }
}

/** Every top-level `{…}` span of the text, braces inside JSON strings ignored. */
function balancedObjects(text: string): string[] {
  const spans: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"' && depth > 0) inString = true;
    else if (c === '{') {
      if (depth === 0) start = i;
      depth++;
    } else if (c === '}' && depth > 0) {
      depth--;
      if (depth === 0) spans.push(text.slice(start, i + 1));
    }
  }
  return spans;
}

function distinct(objects: readonly JudgeObject[]): JudgeObject[] {
  const seen = new Set<string>();
  return objects.filter((o) => {
    const key = JSON.stringify(o);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function kind(value: Json | undefined): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
