/**
 * The one masking rule of every text a person or a file may see (reasons, diagnostics, reports,
 * details, logs): values the run took from the environment or used as credentials, URL user-info and
 * query values, and every span secret_scan's detectors flag are replaced. Masking comes BEFORE any
 * cut, so a cut never leaves part of a secret showing.
 */
import type { Json } from '../../core/case';
import type { Problem } from '../../core/problem';
import { detectorAnchors, SECRET_DETECTORS, scanForSecrets } from './secretDetectors';

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

/**
 * `password=…`, `token=…` and the like in a connection string or a log line (libpq's conninfo, a DSN's
 * options, `key=value` pairs a library prints): the value. `=` only: our own messages write
 * `password: !ENV ${VAR}`, which names a variable and holds no secret.
 */
const KEY_VALUE =
  /(?<![A-Za-z0-9_.-])([A-Za-z][A-Za-z0-9_.-]{0,60})(\s{0,5}=\s{0,5})("[^"\n]{1,400}"|'[^'\n]{1,400}'|[^\s&;,'"]{1,400})/g;
/** Names of `key=value` pairs whose value is a credential. */
const SECRET_KEY_NAME = /password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|auth|credential/i;

/**
 * Every value this process has read from the environment or used as a credential (a `${VAR}` of any
 * config or evalset, `api_key_env`, `password_env`, `{{env.X}}`, an access token): each reader adds
 * the value here at the moment it reads it, and every masking call masks it. One list for the
 * process rather than one threaded through every reason's path: the gaps issue 13 found were all
 * paths a per-call list did not reach. A process runs one run (the CLI) or analyses with one
 * environment (the language server), so the list stays as small as the environment it comes from.
 *
 * It is not part of core's engine context (core/engineContext.ts), on purpose: a host that masks
 * must mask everywhere it prints — reporters, the CLI's stderr, the server's diagnostics and logs —
 * and most of those printers never see a context; a value one context read must also be masked in
 * what another context of the same process prints. A list per context would bring back the gaps
 * issue 13 closed. It holds values, not config state, and is bounded by the environment's values.
 */
const remembered = new Set<string>();
let rememberedSorted: readonly string[] = [];

/** Adds a value read from the environment or used as a credential to the process's mask list. */
export function rememberSecret(value: string | undefined): void {
  if (value === undefined || value.length < MIN_SECRET_LENGTH || remembered.has(value)) return;
  remembered.add(value);
  rememberedSorted = [...remembered].sort((a, b) => b.length - a.length);
}

/** The values remembered so far, longest first. */
export function rememberedSecrets(): readonly string[] {
  return rememberedSorted;
}

/**
 * Names of environment variables that hold credentials by convention (`OPENAI_API_KEY`,
 * `AWS_SECRET_ACCESS_KEY`, `PGPASSWORD`, `GITHUB_TOKEN`, `DATABASE_URL`'s password is caught by the URL
 * rule). A process (a scorer, a target, a library) can print one the run never read itself.
 */
const CREDENTIAL_NAME =
  /(?:^|_)(?:API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|PWD|CREDENTIALS?|AUTH)(?:_|$)|PASSWORD|SECRET|TOKEN|APIKEY/i;
/** `PWD` and `OLDPWD` are folders, not passwords. */
const NOT_CREDENTIALS = new Set(['PWD', 'OLDPWD']);

/** Remembers the value of every variable of `env` whose name says it holds a credential. */
export function rememberCredentialEnvironment(env: Readonly<Record<string, string | undefined>>): void {
  // Names first, then only those values: a variable whose name says nothing of credentials is never read.
  for (const name of Object.keys(env))
    if (!NOT_CREDENTIALS.has(name.toUpperCase()) && CREDENTIAL_NAME.test(name)) rememberSecret(env[name]);
}

/** `env[name]`, remembered as a secret: the one way a credential or `${VAR}` value is read. */
export function readSecretEnv(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const value = env[name];
  rememberSecret(value);
  return value;
}

/** The secret values worth masking, longest first (a value containing another is masked whole). */
export function secretSet(values: Iterable<string | undefined>): readonly string[] {
  const set = new Set<string>();
  for (const v of values) if (v !== undefined && v.length >= MIN_SECRET_LENGTH) set.add(v);
  return [...set].sort((a, b) => b.length - a.length);
}

/** `secrets` and the remembered values, longest first. */
function withRemembered(secrets: Iterable<string | undefined>): readonly string[] {
  // Most calls give none: no set to build and sort.
  if (Array.isArray(secrets) && secrets.length === 0) return rememberedSorted;
  const given = secretSet(secrets);
  if (given.length === 0) return rememberedSorted;
  if (rememberedSorted.length === 0) return given;
  return secretSet([...given, ...rememberedSorted]);
}

/**
 * The literals the rules of maskByRules need, at least one per match: `=` (KEY_VALUE), `://` (both
 * URL rules) and each detector's anchors (secretDetectors.ts). A text holding none of them is left
 * as it is by every rule, so the one pass of this pattern stands in for the rules' four scans.
 */
const MASK_RULE_ANCHORS = ['=', '://', ...SECRET_DETECTORS.flatMap(detectorAnchors)];
const MASK_RULE_ANCHOR = new RegExp(MASK_RULE_ANCHORS.map((a) => a.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')).join('|'));

/** Whether any masking rule (URLs, `key=value`, secret_scan's detectors) could match in `text`. */
export function mayMatchAMaskRule(text: string): boolean {
  return MASK_RULE_ANCHOR.test(text);
}

/**
 * `text` with each known secret (given here, or remembered by the process), URL user-info and query
 * values, `password=…`-style values, and detector-flagged spans masked.
 */
export function maskSecretText(
  text: string,
  secrets: Iterable<string | undefined> = [],
  mask = CREDENTIAL_MASK,
): string {
  let masked = text;
  for (const secret of withRemembered(secrets)) if (masked.includes(secret)) masked = masked.split(secret).join(mask);
  // Most texts (reasons, outputs) hold none of the literals the rules below need: nothing more to mask.
  return mayMatchAMaskRule(masked) ? maskByRules(masked, mask) : masked;
}

/**
 * The masking rules after the known values: URL user-info and query values, `password=…`-style
 * values, and detector-flagged spans. Exported for the test that checks `mayMatchAMaskRule` against it.
 */
export function maskByRules(text: string, mask = CREDENTIAL_MASK): string {
  let masked = text.replace(URL_USER_INFO, (_m, scheme: string, user: string, password?: string) =>
    password === undefined ? `${scheme}${mask}@` : `${scheme}${user}:${mask}@`,
  );
  masked = masked.replace(
    URL_QUERY_VALUE,
    (_m, head: string, query: string) => `${head}${query.replace(/=[^&]*/g, `=${mask}`)}`,
  );
  masked = masked.replace(KEY_VALUE, (whole, key: string, equals: string, value: string) =>
    SECRET_KEY_NAME.test(key) && value !== mask ? `${key}${equals}${mask}` : whole,
  );
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

/**
 * A text whose beginning was cut off (the tail of a stream) without the piece of a token the cut left
 * at its start: that piece may be the end of a secret, which neither the known values nor the
 * detectors recognise once cut. Everything up to the first white space goes (all of it, when none).
 */
export function dropCutStart(text: string): string {
  const space = text.search(/\s/);
  return space < 0 ? '' : text.slice(space);
}

/** Masked first, then the last `max` characters kept, without the partial token at the cut (an ellipsis marks the cut). */
export function maskThenCutTail(text: string, max: number, secrets: Iterable<string | undefined> = []): string {
  const chars = Array.from(maskSecretText(text, secrets));
  return chars.length <= max ? chars.join('') : `…${dropCutStart(chars.slice(-max).join(''))}`;
}

/** Masked first, then cut to `max` characters (an ellipsis marks the cut). */
export function maskThenCut(text: string, max: number, secrets: Iterable<string | undefined> = []): string {
  const masked = maskSecretText(text, secrets);
  return masked.length <= max ? masked : `${masked.slice(0, max)}…`;
}

/** A `details` value with every string in it (keys too) masked. */
export function maskJson<T extends Json | undefined>(value: T, secrets: Iterable<string | undefined> = []): T {
  const list = withRemembered(secrets);
  const walk = (v: Json): Json => {
    if (typeof v === 'string') return maskSecretText(v, list);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, inner]) => [maskSecretText(k, list), walk(inner)]));
    return v;
  };
  return (value === undefined ? value : walk(value)) as T;
}

/** Problems whose messages are masked against `secrets` and secret_scan's detectors. */
export function maskProblems(problems: Problem[], secrets: Iterable<string> = []): Problem[] {
  const list = withRemembered(secrets);
  return problems.map((p) => {
    const message = maskSecretText(p.message, list);
    return message === p.message ? p : { ...p, message };
  });
}
