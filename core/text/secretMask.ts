/**
 * The one masking rule of every text a person or a file may see (reasons, diagnostics, reports,
 * details, logs): values the run took from the environment or used as credentials, URL user-info and
 * query values, and every span secret_scan's detectors flag are replaced. Masking comes BEFORE any
 * cut, so a cut never leaves part of a secret showing.
 */
import type { Json } from '../case';
import type { Problem } from '../problem';
import { SECRET_DETECTORS, scanForSecrets } from '../scorers/support/secretDetectors';

export const CREDENTIAL_MASK = '<credential>';

/**
 * Known values shorter than this are not masked: "1", "us" or "true" cannot be told apart from
 * ordinary text, and masking them would garble every message.
 */
export const MIN_SECRET_LENGTH = 6;

/** `scheme://user:password@host` (the password) or `scheme://token@host` (the whole user-info). */
const URL_USER_INFO = /(\b[a-z][a-z0-9+.-]{1,20}:\/\/)([^\s/@?#:]{1,200})(?::([^\s/@?#]{1,200}))?@/gi;
/** `?key=value&…` in a URL: the values. */
const URL_QUERY_VALUE = /(\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s?#]{1,2000}\?)([^\s#]{1,4000})/gi;

/** The secret values worth masking, longest first (a value containing another is masked whole). */
export function secretSet(values: Iterable<string | undefined>): readonly string[] {
  const set = new Set<string>();
  for (const v of values) if (v !== undefined && v.length >= MIN_SECRET_LENGTH) set.add(v);
  return [...set].sort((a, b) => b.length - a.length);
}

/** `text` with each known secret, URL user-info and query values, and detector-flagged spans masked. */
export function maskSecretText(text: string, secrets: Iterable<string | undefined> = [], mask = CREDENTIAL_MASK): string {
  let masked = text;
  for (const secret of secretSet(secrets)) if (masked.includes(secret)) masked = masked.split(secret).join(mask);
  masked = masked.replace(URL_USER_INFO, (_m, scheme: string, user: string, password?: string) => (password === undefined ? `${scheme}${mask}@` : `${scheme}${user}:${mask}@`));
  masked = masked.replace(URL_QUERY_VALUE, (_m, head: string, query: string) => `${head}${query.replace(/=[^&]*/g, `=${mask}`)}`);
  // Findings come sorted by offset and may overlap: each run of overlapping spans is masked once.
  let out = '';
  let from = 0;
  for (const f of scanForSecrets(masked, SECRET_DETECTORS, { allowDocumentationExamples: false }).findings) {
    if (f.offset >= from) {
      out += `${masked.slice(from, f.offset)}${mask}`;
      from = f.offset + f.length;
    } else if (f.offset + f.length > from) from = f.offset + f.length;
  }
  return out + masked.slice(from);
}

/** Masked first, then cut to `max` characters (an ellipsis marks the cut). */
export function maskThenCut(text: string, max: number, secrets: Iterable<string | undefined> = []): string {
  const masked = maskSecretText(text, secrets);
  return masked.length <= max ? masked : `${masked.slice(0, max)}…`;
}

/** A `details` value with every string in it (keys too) masked. */
export function maskJson<T extends Json | undefined>(value: T, secrets: Iterable<string | undefined> = []): T {
  const list = secretSet(secrets);
  const walk = (v: Json): Json => {
    if (typeof v === 'string') return maskSecretText(v, list);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, inner]) => [maskSecretText(k, list), walk(inner)]));
    return v;
  };
  return (value === undefined ? value : walk(value)) as T;
}

/** Problems whose messages are masked against `secrets` and secret_scan's detectors. */
export function maskProblems(problems: Problem[], secrets: Iterable<string>): Problem[] {
  const list = secretSet(secrets);
  return problems.map((p) => {
    const message = maskSecretText(p.message, list);
    return message === p.message ? p : { ...p, message };
  });
}
