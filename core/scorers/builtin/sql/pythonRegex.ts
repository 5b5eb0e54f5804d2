import { PY_WHITESPACE_CLASS } from '../../support/pythonEquality';

/**
 * Translates a Python `re` pattern (as EvalBench's regexp_matcher runs it with `re.search` on a
 * `str`) into an ECMAScript pattern with the same matches, to run with the `u` flag.
 *
 * What differs, and what the translation does:
 * - Leading global flags `(?aimsux)`: `i`, `m`, `s` become flags; `x` (verbose) drops unescaped
 *   white space and `#` comments outside classes; `a` makes `\d \w \s \b` ASCII; `u` is the default.
 *   `L` is refused (bytes patterns only), as are global flags after the start (Python 3.11 rejects them).
 * - `\d \D \w \W \s \S \b \B` are Unicode-aware in Python: `\d` is any decimal digit (`\p{Nd}`), `\w`
 *   a letter, number or `_` (`[\p{L}\p{N}_]`), `\s` Python's white space (`str.isspace`), `\b` a
 *   boundary of that `\w`. ECMAScript's are ASCII (and its `\s` has U+FEFF, which Python's lacks).
 * - `\A` and `\Z` (start and end of the text) become lookarounds; `\a`, `\x..`, `\U........` and
 *   octal escapes become ECMAScript escapes; Python's escapes of punctuation (`\-`, `\'`, `\ `)
 *   become the literal character; a backreference is wrapped in `(?:…)` so a digit after it stays
 *   a digit.
 * - `(?P<name>…)` → `(?<name>…)`, `(?P=name)` → `\k<name>`, `(?#…)` comments are dropped.
 * - `{` and `}` that do not form a quantifier are literals in Python; `{,n}` means `{0,n}`. A `]`
 *   first in a class, or outside one, is a literal.
 * - Refused, since ECMAScript (Node 20) cannot express them: scoped flags `(?i:…)`, atomic groups
 *   `(?>…)`, possessive quantifiers (`*+`), conditionals `(?(1)…|…)`, and `\N{…}` named characters.
 * - Refused, since Python's `re` rejects them (EvalBench would fail every case): unknown escapes of
 *   letters (`\e`, `\k`, `\p`, `\z`), `(?<name>…)` without the `P`, an unterminated class, incomplete
 *   `\x`/`\u`/`\U` escapes, a repeated quantifier (`a**`).
 * Other mistakes (an unbalanced parenthesis, a bad group reference, a range out of order) are caught
 * when the translated pattern is compiled.
 *
 * `.`, `^` and `$` are kept: the cleaned query they run on has no line breaks (EvalBench turns every
 * run of white space into one space first), which is where Python and ECMAScript differ on them.
 */
export type PythonPatternTranslation =
  | { readonly ok: true; readonly source: string; readonly flags: string }
  | { readonly ok: false; readonly message: string };

class Refusal extends Error {}

const SYNTAX = new Set([...'^$\\.*+?()[]{}|/']);
const CLASS_SPECIAL = new Set([...'\\]^-[']);
const VERBOSE_SPACE = new Set([...' \t\n\r\v\f']);
const OCTAL = /^[0-7]$/;
const DIGIT = /^[0-9]$/;
const HEX = /^[0-9a-fA-F]$/;

const UNICODE_WORD = '\\p{L}\\p{N}_';
const ASCII_WORD = '0-9A-Za-z_';

export function translatePythonPattern(pattern: string): PythonPatternTranslation {
  try {
    return new Translator(pattern).run();
  } catch (e) {
    if (e instanceof Refusal) return { ok: false, message: e.message };
    throw e;
  }
}

type ClassAtom =
  | { readonly kind: 'char'; readonly text: string }
  | { readonly kind: 'set'; readonly body?: string; readonly complement?: string }
  | { readonly kind: 'dash' };

class Translator {
  private readonly chars: string[];
  private i = 0;
  private out = '';
  private verbose = false;
  private ascii = false;
  private readonly flags = new Set<string>();
  /** The last thing emitted was a quantifier (a second one is Python's "multiple repeat"). */
  private afterQuantifier = false;

  constructor(pattern: string) {
    this.chars = [...pattern];
  }

  run(): PythonPatternTranslation {
    this.leadingFlags();
    while (this.i < this.chars.length) this.item();
    return { ok: true, source: this.out, flags: [...this.flags].sort().join('') };
  }

  private refuse(message: string, at = this.i): never {
    throw new Refusal(`${message} (at character ${at + 1})`);
  }

  private peek(offset = 0): string | undefined {
    return this.chars[this.i + offset];
  }

  private leadingFlags(): void {
    for (;;) {
      const match = /^\(\?([aiLmsux]+)\)/u.exec(this.chars.slice(this.i, this.i + 20).join(''));
      if (match === null) return;
      const letters = match[1] ?? '';
      for (const f of letters) {
        if (f === 'L') this.refuse("the flag L is for bytes patterns; Python's re rejects it in a str pattern");
        if (f === 'x') this.verbose = true;
        else if (f === 'a') this.ascii = true;
        else if (f !== 'u') this.flags.add(f);
      }
      if (letters.includes('a') && letters.includes('u'))
        this.refuse("the flags a and u exclude each other in Python's re");
      this.i += [...match[0]].length;
    }
  }

  private emit(text: string, quantifier = false): void {
    this.out += text;
    this.afterQuantifier = quantifier;
  }

  private item(): void {
    const c = this.peek() ?? '';
    if (this.verbose && VERBOSE_SPACE.has(c)) {
      this.i++;
      return;
    }
    if (this.verbose && c === '#') {
      while (this.i < this.chars.length && this.peek() !== '\n') this.i++;
      return;
    }
    switch (c) {
      case '\\':
        this.escape();
        return;
      case '[':
        this.characterClass();
        return;
      case '(':
        this.group();
        return;
      case '*':
      case '+':
      case '?':
        this.quantifier(c, 1);
        return;
      case '{': {
        const rest = this.chars.slice(this.i, this.i + 40).join('');
        const q = /^\{(\d*)(?:(,)(\d*))?\}/u.exec(rest);
        if (q !== null && q[0] !== '{}') {
          const lo = q[1] ?? '';
          const text = q[2] === undefined ? `{${lo}}` : `{${lo === '' ? '0' : lo},${q[3] ?? ''}}`;
          this.quantifier(text, q[0].length);
          return;
        }
        this.i++;
        this.emit('\\{');
        return;
      }
      case '}':
      case ']':
        this.i++;
        this.emit(`\\${c}`);
        return;
      case ')':
      case '|':
      case '.':
      case '^':
      case '$':
        this.i++;
        this.emit(c);
        return;
      default:
        this.i++;
        this.emit(literal(c, false));
    }
  }

  private quantifier(text: string, length: number): void {
    if (this.afterQuantifier)
      this.refuse("a quantifier follows a quantifier (Python's re rejects it as a multiple repeat)");
    this.i += length;
    if (this.peek() === '+') this.refuse('possessive quantifiers (such as *+) have no ECMAScript equivalent');
    if (this.peek() === '?') {
      this.i++;
      this.emit(`${text}?`, true);
      return;
    }
    this.emit(text, true);
  }

  private group(): void {
    const start = this.i;
    if (this.peek(1) !== '?') {
      this.i++;
      this.emit('(');
      return;
    }
    const next = this.peek(2);
    const rest = this.chars.slice(this.i, this.i + 200).join('');
    if (next === ':' || next === '=' || next === '!') {
      this.i += 3;
      this.emit(`(?${next}`);
      return;
    }
    if (next === '<' && (this.peek(3) === '=' || this.peek(3) === '!')) {
      this.i += 4;
      this.emit(`(?<${this.peek(-1) ?? ''}`);
      return;
    }
    if (next === 'P') {
      const named = /^\(\?P<([^>]*)>/u.exec(rest);
      if (named !== null) {
        this.i += [...named[0]].length;
        this.emit(`(?<${named[1] ?? ''}>`);
        return;
      }
      const reference = /^\(\?P=([^)]*)\)/u.exec(rest);
      if (reference !== null) {
        this.i += [...reference[0]].length;
        this.emit(`(?:\\k<${reference[1] ?? ''}>)`);
        return;
      }
      this.refuse("unknown extension (?P; Python's re knows (?P<name>…) and (?P=name)", start);
    }
    if (next === '#') {
      while (this.i < this.chars.length && this.peek() !== ')') this.i++;
      if (this.i >= this.chars.length) this.refuse("the comment (?#… is not closed (Python's re rejects it)", start);
      this.i++;
      return;
    }
    if (next === '>') this.refuse('atomic groups (?>…) have no ECMAScript equivalent', start);
    if (next === '(') this.refuse('conditional groups (?(…)…|…) have no ECMAScript equivalent', start);
    if (next === '<') this.refuse("(?<name>…) is not Python syntax (Python's re rejects it); write (?P<name>…)", start);
    if (next !== undefined && /^[aiLmsux-]$/u.test(next)) {
      if (/^\(\?[aiLmsux]*(?:-[imsx]+)?:/u.test(rest))
        this.refuse(
          'scoped inline flags such as (?i:…) have no ECMAScript equivalent in Node 20; put a global flag such as (?i) at the start of the pattern',
          start,
        );
      this.refuse(
        "global flags such as (?i) must be at the start of the pattern (Python's re rejects them elsewhere)",
        start,
      );
    }
    this.refuse("unknown extension after (? (Python's re rejects it)", start);
  }

  /** A backslash escape outside a class. */
  private escape(): void {
    const start = this.i;
    const c = this.peek(1);
    if (c === undefined) this.refuse("the pattern ends with a backslash (Python's re rejects it)", start);
    this.i += 2;
    switch (c) {
      case 'A':
        return this.emit('(?<![\\s\\S])');
      case 'Z':
        return this.emit('(?![\\s\\S])');
      case 'b':
      case 'B':
        return this.emit(this.boundary(c === 'B'));
      case 'd':
      case 'D':
      case 'w':
      case 'W':
      case 's':
      case 'S': {
        const set = this.category(c);
        if (set.body !== undefined) return this.emit(/^\\[pP]\{\w+\}$/u.test(set.body) ? set.body : `[${set.body}]`);
        return this.emit(`[^${set.complement ?? ''}]`);
      }
      default: {
        const value = this.characterEscape(c, start, false);
        if (value === 'backreference') return;
        this.emit(value);
      }
    }
  }

  private boundary(negated: boolean): string {
    if (this.ascii) return negated ? '\\B' : '\\b';
    const w = `[${UNICODE_WORD}]`;
    return negated ? `(?:(?<=${w})(?=${w})|(?<!${w})(?!${w}))` : `(?:(?<=${w})(?!${w})|(?<!${w})(?=${w}))`;
  }

  /** A category escape as a class body (`body`) or as the complement of one (`complement`). */
  private category(c: string): { readonly body?: string; readonly complement?: string } {
    const space = this.ascii ? '\\t-\\r ' : PY_WHITESPACE_CLASS;
    const word = this.ascii ? ASCII_WORD : UNICODE_WORD;
    switch (c) {
      case 'd':
        return { body: this.ascii ? '0-9' : '\\p{Nd}' };
      case 'D':
        return this.ascii ? { complement: '0-9' } : { body: '\\P{Nd}' };
      case 'w':
        return { body: word };
      case 'W':
        return { complement: word };
      case 's':
        return { body: space };
      default:
        return { complement: space };
    }
  }

  /**
   * The escapes that stand for one character (`\n`, `\x41`, octal, punctuation), as ECMAScript text;
   * outside a class, a backreference is emitted here and 'backreference' returned.
   */
  private characterEscape(c: string, start: number, inClass: boolean): string {
    const simple: { [key: string]: string } = { a: '\\x07', f: '\\f', n: '\\n', r: '\\r', t: '\\t', v: '\\v' };
    const known = simple[c];
    if (known !== undefined) return known;
    if (c === 'b' && inClass) return '\\x08';
    if (c === 'x' || c === 'u' || c === 'U') {
      const size = c === 'x' ? 2 : c === 'u' ? 4 : 8;
      const hex = this.chars.slice(this.i, this.i + size);
      if (hex.length < size || !hex.every((h) => HEX.test(h)))
        this.refuse(`incomplete escape \\${c} (Python's re wants ${size} hex digits)`, start);
      this.i += size;
      const value = parseInt(hex.join(''), 16);
      if (value > 0x10ffff) this.refuse(`bad escape \\${c}: no such code point (Python's re rejects it)`, start);
      return codePointEscape(value);
    }
    if (c === 'N')
      this.refuse('named character escapes \\N{…} are not supported; write the character or \\u....', start);
    if (c === '0' || (inClass && OCTAL.test(c))) {
      let digits = c;
      while (digits.length < 3 && OCTAL.test(this.peek() ?? '')) digits += this.chars[this.i++] ?? '';
      const value = parseInt(digits, 8);
      if (value > 0o377) this.refuse(`octal escape \\${digits} is above \\377 (Python's re rejects it)`, start);
      return codePointEscape(value);
    }
    if (DIGIT.test(c)) {
      if (inClass) this.refuse(`bad escape \\${c} in a class (Python's re rejects it)`, start);
      const second = this.peek() ?? '';
      if (DIGIT.test(second)) {
        if (OCTAL.test(c) && OCTAL.test(second) && OCTAL.test(this.peek(1) ?? '')) {
          const digits = `${c}${second}${this.peek(1) ?? ''}`;
          this.i += 2;
          const value = parseInt(digits, 8);
          if (value > 0o377) this.refuse(`octal escape \\${digits} is above \\377 (Python's re rejects it)`, start);
          return codePointEscape(value);
        }
        this.i++;
        this.emit(`(?:\\${c}${second})`);
        return 'backreference';
      }
      this.emit(`(?:\\${c})`);
      return 'backreference';
    }
    if (/^[A-Za-z]$/u.test(c)) this.refuse(`bad escape \\${c} (Python's re rejects unknown escapes of letters)`, start);
    return literal(c, inClass);
  }

  private characterClass(): void {
    const start = this.i;
    this.i++;
    let negated = false;
    if (this.peek() === '^') {
      negated = true;
      this.i++;
    }
    const atoms: ClassAtom[] = [];
    if (this.peek() === ']') {
      atoms.push({ kind: 'char', text: '\\]' });
      this.i++;
    }
    for (;;) {
      const c = this.peek();
      if (c === undefined) this.refuse("the character class is not closed (Python's re rejects it)", start);
      if (c === ']') {
        this.i++;
        break;
      }
      if (c === '\\') {
        const e = this.peek(1);
        if (e === undefined) this.refuse("the pattern ends with a backslash (Python's re rejects it)", this.i);
        const at = this.i;
        this.i += 2;
        if ('dDwWsS'.includes(e)) atoms.push({ kind: 'set', ...this.category(e) });
        else atoms.push({ kind: 'char', text: this.characterEscape(e, at, true) });
        continue;
      }
      this.i++;
      if (c === '-') atoms.push({ kind: 'dash' });
      else atoms.push({ kind: 'char', text: literal(c, true) });
    }
    // A dash between two atoms is a range; Python accepts only single characters at its ends.
    for (let k = 1; k + 1 < atoms.length; k++) {
      if (atoms[k]?.kind === 'dash' && (atoms[k - 1]?.kind === 'set' || atoms[k + 1]?.kind === 'set'))
        this.refuse("a class escape such as \\w cannot end a range (Python's re rejects it)", start);
    }
    let body = '';
    const complements: string[] = [];
    for (const atom of atoms) {
      if (atom.kind === 'dash') body += '-';
      else if (atom.kind === 'char') body += atom.text;
      else if (atom.body !== undefined) body += atom.body;
      else complements.push(atom.complement ?? '');
    }
    if (complements.length === 0) {
      this.emit(negated ? `[^${body}]` : `[${body}]`);
      return;
    }
    // ECMAScript (without the v flag) cannot put a negated set inside a class: use an alternation.
    const parts = [...(body === '' ? [] : [`[${body}]`]), ...complements.map((c) => `[^${c}]`)];
    this.emit(negated ? `(?:(?!${parts.join('|')})[\\s\\S])` : `(?:${parts.join('|')})`);
  }
}

function literal(c: string, inClass: boolean): string {
  const cp = c.codePointAt(0) ?? 0;
  if (cp < 0x20 || cp === 0x7f) return codePointEscape(cp);
  if (inClass ? CLASS_SPECIAL.has(c) : SYNTAX.has(c)) return `\\${c}`;
  return c;
}

function codePointEscape(value: number): string {
  return value < 0x100 ? `\\x${value.toString(16).padStart(2, '0')}` : `\\u{${value.toString(16)}}`;
}
