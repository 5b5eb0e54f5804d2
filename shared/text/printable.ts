/**
 * Text from a workspace (case ids, keys, paths, reasons, expected and actual values) made safe to
 * print to a terminal, an editor's problem list or a CI log. A character a terminal acts on instead
 * of showing (ESC and the rest of C0, DEL, C1 such as the one-byte CSI U+009B), one that reorders
 * what follows (the bidi controls U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) or one that
 * is invisible (other format characters, line and paragraph separators, lone surrogates) is written
 * as a visible escape — `\x1b`, `\u202e`, `\u{e0041}` — so that what is printed is what the file
 * holds, and nothing in a file can move the cursor, recolour, retitle or reorder the output.
 * Ordinary text (accents, CJK, emoji with their joiners and variation selectors) is kept as it is.
 * A backslash is not escaped: the output is for reading, not for parsing back.
 */

/**
 * Control (Cc), format (Cf), line/paragraph separator (Zl, Zp) and lone surrogate (Cs) characters,
 * except the zero-width joiner and non-joiner that emoji sequences and some scripts need.
 */
const UNSAFE = /(?![\u200c\u200d])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;
/** The same set with tab and line feed allowed, for text of several lines. */
const UNSAFE_IN_LINES = /(?![\u200c\u200d\t\n])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;
/** The same set less JSON's whitespace, which JSON text holds raw only between its values. */
const UNSAFE_IN_JSON = /(?![\u200c\u200d\t\n\r])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

export interface PrintableOptions {
  /**
   * Keep line feeds and tabs (a reason of several lines, an expected/actual diff); a CR LF becomes
   * LF first. Otherwise (the default: an id, a key, a path, a one-line diagnostic) they are escaped
   * too, so one record stays on one line and cannot forge a line of its own.
   */
  readonly lines?: boolean;
}

/** The text with every unsafe character written as a visible escape; see the file comment. */
export function printable(text: string, options: PrintableOptions = {}): string {
  if (options.lines === true) return text.replace(/\r\n/g, '\n').replace(UNSAFE_IN_LINES, escapeChar);
  return text.replace(UNSAFE, escapeChar);
}

/**
 * JSON text (from `JSON.stringify`) with the unsafe characters JSON leaves raw — DEL, C1, bidi and
 * format characters, U+2028/U+2029 — written as `\uXXXX` escapes. The value read back is exactly the
 * same; only its spelling changes, so a report or event stream printed to a terminal is inert too.
 * JSON's own escapes already cover C0 in strings; outside them JSON text is ASCII and its whitespace
 * (tab, LF, CR) is left alone, so only strings change.
 */
export function jsonPrintable(json: string): string {
  return json.replace(UNSAFE_IN_JSON, (ch) => {
    const code = ch.codePointAt(0) ?? 0;
    if (code <= 0xffff) return `\\u${code.toString(16).padStart(4, '0')}`;
    // An astral format character (a tag character): JSON spells it as its surrogate pair.
    const high = 0xd800 + ((code - 0x10000) >> 10);
    const low = 0xdc00 + ((code - 0x10000) & 0x3ff);
    return `\\u${high.toString(16)}\\u${low.toString(16)}`;
  });
}

function escapeChar(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  if (ch === '\n') return '\\n';
  if (ch === '\r') return '\\r';
  if (ch === '\t') return '\\t';
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code <= 0xffff) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\u{${code.toString(16)}}`;
}
