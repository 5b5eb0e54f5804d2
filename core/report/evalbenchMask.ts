/**
 * Masking of what EvalBench's results files may hold that a person must not see: configs.csv keeps
 * every config value of the job (model API keys, database passwords, inside Python-printed dicts
 * too), and outputs can quote tokens. Masking comes before truncating, so a cut never leaves half a
 * secret showing.
 */
import { maskSecretText } from '../../shared/text/secretMask';

export const MASK = '****';

/** A config key (or the last part of a dotted path) that names a credential. */
const SECRET_KEY = /(pass(word|wd)?|secret|token|api_?key|apikey|credential|private_?key|access_?key|auth)$/i;

/** `'password': 'x'`, `"token": "x"`, `password=x` inside a printed dict, JSON or a connection string. */
const SECRET_PAIR = /(["']?)([A-Za-z_][\w.-]{0,60}?)\1(\s*[:=]\s*)(?:"([^"\\\n]*)"|'([^'\\\n]*)'|([^\s,;&}\]'"]+))/g;

/** `scheme://user:password@host` */
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@]{1,200}:)([^\s@/]{1,200})@/gi;

export function isSecretKey(key: string): boolean {
  const last = key.split('.').pop() ?? key;
  return SECRET_KEY.test(last);
}

/** `text` with credential-looking values, URL passwords and token-formatted secrets replaced by ****. */
export function maskSecrets(text: string): string {
  let masked = text.replace(URL_PASSWORD, (_m, head: string) => `${head}${MASK}@`);
  masked = masked.replace(SECRET_PAIR, (whole, quote: string, key: string, sep: string, dq?: string, sq?: string) => {
    if (!isSecretKey(key)) return whole;
    const value = dq !== undefined ? `"${MASK}"` : sq !== undefined ? `'${MASK}'` : MASK;
    return `${quote}${key}${quote}${sep}${value}`;
  });
  return maskSecretText(masked, [], MASK);
}

/** A config value of configs.csv as it may be shown: masked whole under a credential key, else masked inside. */
export function maskConfigValue(key: string, value: string): string {
  if (value !== '' && isSecretKey(key)) return MASK;
  return maskSecrets(value);
}

/** Masked, then cut to `max` characters with a note of how much was cut. */
export function shownText(text: string, max: number): string {
  const masked = maskSecrets(text);
  return masked.length <= max ? masked : `${masked.slice(0, max)}… (${masked.length - max} more characters not shown)`;
}
