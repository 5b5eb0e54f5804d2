/**
 * A cap on how deep JSON may nest. V8's JSON.parse does not recurse, but almost everything that
 * walks a value afterwards does (comparing, validating, writing the report): a value nested a few
 * thousand levels deep overflows the stack there, far from the file it came from. No case, schema
 * or report nests anywhere near MAX_JSON_DEPTH, so past it the text is refused before it is parsed,
 * at the bracket that went too deep.
 */
export const MAX_JSON_DEPTH = 256;

/**
 * The offset of the first `[` or `{` that nests deeper than `limit`, or undefined. One linear pass
 * that skips strings (a bracket inside a string opens nothing); it does not check the syntax
 * (JSON.parse does that afterwards).
 */
export function tooDeepJson(text: string, limit = MAX_JSON_DEPTH): number | undefined {
  // Nesting past `limit` takes more than `limit` opening brackets: most texts have a handful, counted
  // by the native search far faster than the walk below reads every character.
  if (openingBracketsAtMost(text, limit)) return undefined;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = endOfString(text, i);
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      depth++;
      if (depth > limit) return i;
    } else if ((c === CLOSE_BRACKET || c === CLOSE_BRACE) && depth > 0) {
      depth--;
    }
  }
  return undefined;
}

/** Whether `text` holds at most `limit` `[` and `{` in all (strings included, so this only overcounts). */
function openingBracketsAtMost(text: string, limit: number): boolean {
  let count = 0;
  for (let at = text.indexOf('{'); at !== -1; at = text.indexOf('{', at + 1)) if (++count > limit) return false;
  for (let at = text.indexOf('['); at !== -1; at = text.indexOf('[', at + 1)) if (++count > limit) return false;
  return true;
}

/** Words for the refusal: "nested more than 256 levels deep; expected at most 256". */
export function tooDeepMessage(limit = MAX_JSON_DEPTH): string {
  return `arrays and objects nested more than ${limit} levels deep; expected at most ${limit}`;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** The offset of the quote that closes the string opening at `start` (the text's end if none does). */
function endOfString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i;
  }
  return text.length;
}

/**
 * JSON.parse for text from outside (files, outputs, answers) that refuses nesting past `limit` the
 * way JSON.parse refuses bad syntax: a SyntaxError that ends "at position N" (the bracket that went
 * too deep), so every caller's position-and-kind description works unchanged.
 */
export function parseJson(text: string, limit = MAX_JSON_DEPTH): unknown {
  const deep = tooDeepJson(text, limit);
  if (deep !== undefined) throw new SyntaxError(`${capitalized(tooDeepMessage(limit))} at position ${deep}`);
  return JSON.parse(text) as unknown;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
