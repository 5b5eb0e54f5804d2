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

const PLACEHOLDER = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** The expanded text, the variables left unresolved, and the values taken from the environment (to mask in messages). */
export function expandEnv(text: string, env: Readonly<Record<string, string | undefined>>): { value: string; unresolved: Unresolved[]; used: string[] } {
  if (!text.includes('${')) return { value: text, unresolved: [], used: [] };
  const unresolved: Unresolved[] = [];
  const used: string[] = [];
  const value = text.replace(PLACEHOLDER, (match: string, name: string | undefined, fallback: string | undefined, index: number) => {
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
  });
  return { value, unresolved, used };
}
