/**
 * What a result's `details` may carry. Scorers put the texts they compared there (exact_match's
 * `actual` and `expected`, edit_similarity's, a subprocess script's own details), and a result is
 * written to the event stream, `results.jsonl` and `report.json`, and held by the extension: a
 * 200 MB output copied whole into every one of them is what made runs and the editor stall.
 *
 * So every string in `details` keeps at most MAX_DETAIL_TEXT_CHARS characters, followed by a marker
 * saying it was cut and how long it was (the field stays a string, so every reader still shows it);
 * a list keeps its first MAX_DETAIL_ITEMS items and an object its first MAX_DETAIL_ITEMS keys, each
 * followed by a marker saying how many were left out. Secrets are masked before the cut, on a window
 * a little longer than what is kept, so a key across the cut is masked whole and the masking never
 * reads the whole text.
 */
import type { Json } from '../case';
import { maskSecretText, rememberedSecrets } from '../../shared/text/secretMask';

/** The characters kept of one string in `details`. */
export const MAX_DETAIL_TEXT_CHARS = 64 * 1024;

/** The items kept of one list, and the keys of one object, in `details`. */
export const MAX_DETAIL_ITEMS = 1000;

/** Characters past the cut that the masking sees, so a secret across the cut is recognised whole. */
const MASK_WINDOW_MARGIN = 16 * 1024;

/** The key an object's marker for left-out keys comes under. */
export const OMITTED_KEYS_KEY = '…';

/** The marker after a cut text: `…[cut: N characters in all, the first K kept]`. */
export function cutMarker(length: number): string {
  return `…[cut: ${length} characters in all, the first ${MAX_DETAIL_TEXT_CHARS} kept]`;
}

/** `details` with every string masked and capped, and every list and object capped (see the file's comment). */
export function capDetails(details: { readonly [key: string]: Json }): { readonly [key: string]: Json } {
  return capObject(details);
}

/**
 * Short texts (details' keys and words such as `mode`, `matched`) come again in every result: each
 * is masked once and the masked text reused, for as long as the process's remembered secret values
 * stay the same (masking is a function of the text and those values). Bounded: cleared when full.
 */
const SHORT_TEXT_CHARS = 64;
const SHORT_TEXTS_KEPT = 4096;
let maskedShort = new Map<string, string>();
let maskedFor: readonly string[] | undefined;

function maskShortText(text: string): string {
  const remembered = rememberedSecrets();
  if (remembered !== maskedFor) {
    maskedShort = new Map();
    maskedFor = remembered;
  }
  let masked = maskedShort.get(text);
  if (masked === undefined) {
    masked = maskSecretText(text);
    if (maskedShort.size >= SHORT_TEXTS_KEPT) maskedShort.clear();
    maskedShort.set(text, masked);
  }
  return masked;
}

/** One text masked, then cut to MAX_DETAIL_TEXT_CHARS characters with the marker. */
export function capText(text: string): string {
  if (text.length <= SHORT_TEXT_CHARS) return maskShortText(text);
  if (text.length <= MAX_DETAIL_TEXT_CHARS) return maskSecretText(text);
  const masked = maskSecretText(text.slice(0, MAX_DETAIL_TEXT_CHARS + MASK_WINDOW_MARGIN));
  // The masked window may be longer or shorter than the original; what is kept is its first MAX characters.
  return `${masked.slice(0, MAX_DETAIL_TEXT_CHARS)}${cutMarker(text.length)}`;
}

function capValue(value: Json): Json {
  if (typeof value === 'string') return capText(value);
  if (Array.isArray(value)) {
    const kept = value.slice(0, MAX_DETAIL_ITEMS).map(capValue);
    return value.length > MAX_DETAIL_ITEMS
      ? [...kept, `…[${value.length - MAX_DETAIL_ITEMS} more items left out, ${value.length} in all]`]
      : kept;
  }
  if (value !== null && typeof value === 'object') return capObject(value as { readonly [key: string]: Json });
  return value;
}

function capObject(value: { readonly [key: string]: Json }): { [key: string]: Json } {
  const out: { [key: string]: Json } = {};
  let count = 0;
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    count += 1;
    if (count > MAX_DETAIL_ITEMS) continue;
    const inner = value[key];
    if (inner !== undefined) out[capText(key)] = capValue(inner);
  }
  if (count > MAX_DETAIL_ITEMS)
    out[OMITTED_KEYS_KEY] = `…[${count - MAX_DETAIL_ITEMS} more keys left out, ${count} in all]`;
  return out;
}
