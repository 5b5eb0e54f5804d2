/**
 * The ids of one dataset's records, so that every record a reader yields has an id no other record of
 * the dataset has. A case whose id was taken earlier becomes an error record (the first one still
 * runs); error records take their own id when it is free, else a positional one.
 */
export class CaseIdTracker {
  /** id → 0-based line of the record that took it first. */
  private readonly lines = new Map<string, number>();

  /**
   * Takes `id` for the record that starts at the 0-based `line`. Returns `undefined` when it was free
   * (it is now taken), else the 0-based line of the record that has it.
   */
  claim(id: string, line: number): number | undefined {
    const first = this.lines.get(id);
    if (first !== undefined) return first;
    this.lines.set(id, line);
    return undefined;
  }

  /**
   * An id for an error record at the 0-based `line`: `preferred` when given and free, else `positional`,
   * else `positional` with the first free `~2`, `~3`, … suffix. The id returned is taken.
   */
  claimForError(preferred: string | undefined, positional: string, line: number): string {
    if (preferred !== undefined && this.claim(preferred, line) === undefined) return preferred;
    if (this.claim(positional, line) === undefined) return positional;
    for (let n = 2; ; n++) {
      const candidate = `${positional}~${n}`;
      if (this.claim(candidate, line) === undefined) return candidate;
    }
  }

  /** Whether `id` is taken. */
  has(id: string): boolean {
    return this.lines.has(id);
  }
}

/**
 * The stable id of a case without one: `line-N` (1-based line) in JSONL and CSV, `case-N` (1-based
 * position among the file's cases) in JSON, YAML and inline cases.
 */
export function positionalId(kind: 'line' | 'case', oneBased: number): string {
  return `${kind}-${oneBased}`;
}
