/**
 * `${VAR}` expansion from the environment, in every string of a run config (and in EvalBench `!ENV`
 * values). `${VAR:-fallback}` uses the fallback when VAR is unset or empty; `$${` writes a literal `${`.
 * An unresolved variable is reported with its offset in the string, never silently left empty.
 */
export interface Unresolved {
  readonly name: string;
  /** Offset of `${` in the string. */
  readonly index: number;
  readonly length: number;
}

/**
 * The longest string `${VAR}` expansion may make (UTF-16 units). One variable repeated many times
 * in one string would otherwise grow past what a JavaScript string can hold (a RangeError) or fill
 * memory; no config value needs more than this.
 */
export const MAX_EXPANDED_CHARS = 1024 * 1024;

const PLACEHOLDER = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * The expanded text, the variables left unresolved, and the values taken from the environment (to mask
 * in messages). `tooLong`: the expansion would pass `limit` characters; the text is then left as
 * written and `tooLong` holds the offset of the placeholder that passed it.
 */
export function expandEnv(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
  limit = MAX_EXPANDED_CHARS,
): { value: string; unresolved: Unresolved[]; used: string[]; tooLong?: number } {
  if (!text.includes('${')) return { value: text, unresolved: [], used: [] };
  const unresolved: Unresolved[] = [];
  const used: string[] = [];
  // The length so far is counted before any string is built, so nothing past the limit is ever made.
  let length = 0;
  let last = 0;
  let tooLong: number | undefined;
  const value = text.replace(
    PLACEHOLDER,
    (match: string, name: string | undefined, fallback: string | undefined, index: number) => {
      length += index - last;
      last = index + match.length;
      const replacement = tooLong === undefined ? replacementOf(match, name, fallback, index) : '';
      length += replacement.length;
      if (tooLong === undefined && length > limit) tooLong = index;
      return tooLong === undefined ? replacement : '';
    },
  );
  if (tooLong !== undefined) return { value: text, unresolved: [], used: [], tooLong };
  return { value, unresolved, used };

  function replacementOf(match: string, name: string | undefined, fallback: string | undefined, index: number): string {
    if (name === undefined) return '${';
    const found = env[name];
    if (found !== undefined && found !== '') {
      used.push(found);
      return found;
    }
    if (fallback !== undefined) return fallback;
    if (found === '') return '';
    unresolved.push({ name, index, length: match.length });
    return match;
  }
}
