/** Characters XML 1.0 does not allow at all (C0 controls but tab/LF/CR, lone surrogates, U+FFFE/U+FFFF); they are dropped. */
const ILLEGAL = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;
const ENTITIES: { readonly [ch: string]: string } = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\r': '&#13;' };
/** In attributes line breaks and tabs are written as references, or parsers would turn them into spaces. */
const ATTRIBUTE_ENTITIES: { readonly [ch: string]: string } = { ...ENTITIES, '\n': '&#10;', '\t': '&#9;' };

/** Text for element content. */
export function xmlText(value: string): string {
  return value.replace(ILLEGAL, '').replace(/[&<>"'\r]/g, (ch) => ENTITIES[ch] ?? ch);
}

/** Text for a double-quoted attribute value. */
export function xmlAttr(value: string): string {
  return value.replace(ILLEGAL, '').replace(/[&<>"'\r\n\t]/g, (ch) => ATTRIBUTE_ENTITIES[ch] ?? ch);
}
