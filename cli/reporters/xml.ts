/** Characters XML 1.0 does not allow at all (C0 controls but tab/LF/CR, lone surrogates, U+FFFE/U+FFFF); they are dropped. */
const ILLEGAL = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;
/**
 * Characters XML allows but a terminal acts on or that reorder or hide text (DEL, C1, bidi and other
 * format characters, line separators): written as character references, so the parsed text is the same
 * and a JUnit file printed to a terminal or a CI log is inert.
 */
const INERT = /(?![\u200c\u200d])[\u007f-\u009f\p{Cf}\p{Zl}\p{Zp}]/gu;
const ENTITIES: { readonly [ch: string]: string } = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\r': '&#13;',
};
/** In attributes line breaks and tabs are written as references, or parsers would turn them into spaces. */
const ATTRIBUTE_ENTITIES: { readonly [ch: string]: string } = { ...ENTITIES, '\n': '&#10;', '\t': '&#9;' };

/** Text that none of the replacements below changes: printable ASCII and, in element content, tab and line feed, less XML's special characters. */
const PLAIN_TEXT = /^[\t\n\x20\x21\x23-\x25\x28-\x3b\x3d\x3f-\x7e]*$/;
const PLAIN_ATTRIBUTE = /^[\x20\x21\x23-\x25\x28-\x3b\x3d\x3f-\x7e]*$/;

/** Text for element content. */
export function xmlText(value: string): string {
  // Most reasons are plain: one test instead of three replacements (a JUnit file of 100,000 cases).
  if (PLAIN_TEXT.test(value)) return value;
  return value
    .replace(ILLEGAL, '')
    .replace(/[&<>"'\r]/g, (ch) => ENTITIES[ch] ?? ch)
    .replace(INERT, reference);
}

/** Text for a double-quoted attribute value. */
export function xmlAttr(value: string): string {
  if (PLAIN_ATTRIBUTE.test(value)) return value;
  return value
    .replace(ILLEGAL, '')
    .replace(/[&<>"'\r\n\t]/g, (ch) => ATTRIBUTE_ENTITIES[ch] ?? ch)
    .replace(INERT, reference);
}

function reference(ch: string): string {
  return `&#x${(ch.codePointAt(0) ?? 0).toString(16)};`;
}
