/**
 * Whether SQLite SQL may give a different result on two runs from the same bytes: it reads the clock
 * or draws random numbers, or asks the connection what it did before (changes(), last_insert_rowid()).
 * planResultCache.ts keeps only the runs of plans for which this says no.
 *
 * The text is read as SQLite's tokenizer reads it, not with patterns over the raw text, so that how a
 * construct is written does not hide it: comments between tokens (`random /* x *\/ ()`), any letter
 * case (`DateTime('NOW')`), a function name quoted as an identifier (`"random"()`, `[random]()`,
 * `` `random`() ``), and 'now' written as a double-quoted `"now"` (SQLite takes a double-quoted word
 * that names no column as a string literal) or as a blob literal (`x'6e6f77'`, read as text by the
 * date functions). Read loosely where it is cheap: any string, quoted word or blob whose text is "now"
 * counts wherever it stands; a plan wrongly thought to vary is only run again, as it would be without
 * the cache.
 *
 * What text cannot see is not claimed: a time value computed at run time (`date('n' || 'ow')`) or
 * stored in the database as the text 'now', and views, triggers or column defaults of the database
 * file that read the clock.
 */
export function sqlVaries(sql: string): boolean {
  // Every construct below holds one of these words as it is written (no comment or quote can split one).
  if (!CANDIDATE.test(sql)) return false;
  const tokens = tokenize(sql);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if ((token.kind === 'text' || token.quoted === true) && token.text.trim().toLowerCase() === 'now') return true;
    if (token.kind !== 'name') continue;
    const name = token.text.toLowerCase();
    if (CLOCK_KEYWORDS.has(name)) return true;
    if (tokens[i + 1]?.text !== '(' || tokens[i + 1]?.kind !== 'punct') continue;
    if (ALWAYS_VARIES.has(name)) return true;
    const timeValueAt = TIME_VALUE_ARGUMENT.get(name);
    if (timeValueAt !== undefined && argumentCount(tokens, i + 1) <= timeValueAt) return true;
  }
  return false;
}

const CANDIDATE = /now|random|changes|last_insert_rowid|current_|date|time|julianday|unixepoch|strftime|6e6f77/i;

/** Functions whose result differs from run to run whatever their arguments. */
const ALWAYS_VARIES: ReadonlySet<string> = new Set([
  'random',
  'randomblob',
  'changes',
  'total_changes',
  'last_insert_rowid',
]);

/** Keywords that read the clock (loosely: as a quoted word too). */
const CLOCK_KEYWORDS: ReadonlySet<string> = new Set(['current_date', 'current_time', 'current_timestamp']);

/** The date and time functions, and the 0-based argument that holds the time value; without it they read the clock. */
const TIME_VALUE_ARGUMENT: ReadonlyMap<string, number> = new Map([
  ['date', 0],
  ['time', 0],
  ['datetime', 0],
  ['julianday', 0],
  ['unixepoch', 0],
  ['timediff', 0],
  ['strftime', 1],
]);

interface Token {
  /** name: a bare or quoted word; text: a string or a blob; punct: one character; other: a number, a parameter. */
  readonly kind: 'name' | 'text' | 'punct' | 'other';
  readonly text: string;
  /** A quoted word: "now" double-quoted is a string literal to SQLite when no column has that name. */
  readonly quoted?: boolean;
}

/** The arguments of the call whose `(` is at `open`: 0 for `f()`, else the top-level commas + 1. */
function argumentCount(tokens: readonly Token[], open: number): number {
  let depth = 0;
  let count = 0;
  for (let i = open; i < tokens.length; i++) {
    const { kind, text } = tokens[i] as Token;
    if (kind !== 'punct') {
      if (depth === 1 && count === 0) count = 1;
      continue;
    }
    if (text === '(') {
      if (depth === 1 && count === 0) count = 1;
      depth++;
    } else if (text === ')') {
      depth--;
      if (depth === 0) return count;
    } else {
      if (depth === 1 && count === 0) count = 1;
      if (text === ',' && depth === 1) count++;
    }
  }
  return count;
}

function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i] as string;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end + 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 2;
    } else if (c === "'") {
      const quoted = readQuoted(sql, i, "'");
      tokens.push({ kind: 'text', text: quoted.text });
      i = quoted.end;
    } else if (c === '"' || c === '`' || c === '[') {
      const quoted = readQuoted(sql, i, c === '[' ? ']' : c);
      tokens.push({ kind: 'name', text: quoted.text, quoted: true });
      i = quoted.end;
    } else if ((c === 'x' || c === 'X') && sql[i + 1] === "'") {
      const quoted = readQuoted(sql, i + 1, "'");
      tokens.push({ kind: 'text', text: blobText(quoted.text) });
      i = quoted.end;
    } else if (isWordStart(c)) {
      let end = i + 1;
      while (end < sql.length && isWordPart(sql[end] as string)) end++;
      tokens.push({ kind: 'name', text: sql.slice(i, end) });
      i = end;
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(sql[i + 1] ?? ''))) {
      let end = i + 1;
      while (end < sql.length && /[0-9A-Za-z_.]/.test(sql[end] as string)) {
        end++;
        if (/[eE]/.test(sql[end - 1] as string) && /[+-]/.test(sql[end] ?? '')) end++;
      }
      tokens.push({ kind: 'other', text: sql.slice(i, end) });
      i = end;
    } else {
      tokens.push({ kind: 'punct', text: c });
      i++;
    }
  }
  return tokens;
}

/** A quoted token from its opening quote at `open`: its text (a doubled closing quote is one) and where it ends. */
function readQuoted(sql: string, open: number, close: string): { text: string; end: number } {
  let text = '';
  let i = open + 1;
  while (i < sql.length) {
    const at = sql.indexOf(close, i);
    if (at < 0) return { text: text + sql.slice(i), end: sql.length };
    text += sql.slice(i, at);
    if (close !== ']' && sql[at + 1] === close) {
      text += close;
      i = at + 2;
    } else return { text, end: at + 1 };
  }
  return { text, end: sql.length };
}

/** A blob literal's bytes read as Latin-1 text (enough to recognise "now"). */
function blobText(hex: string): string {
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex)) return '';
  let text = '';
  for (let i = 0; i < hex.length; i += 2) text += String.fromCharCode(parseInt(hex.slice(i, i + 2), 16));
  return text;
}

function isWordStart(c: string): boolean {
  return /[A-Za-z_]/.test(c) || c.charCodeAt(0) > 0x7f;
}

function isWordPart(c: string): boolean {
  return /[A-Za-z0-9_$]/.test(c) || c.charCodeAt(0) > 0x7f;
}
