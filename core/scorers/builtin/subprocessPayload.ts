import type { Json } from '../../case';
import type { ScoringInput } from '../scorer';

/**
 * The stdin text: compact JSON with keys in alphabetical order at every level (EvalCore serialises
 * serde_json values, whose maps are sorted). `input` and `output` are strings in EvalCore; any other
 * value is sent as its compact JSON text (a missing input as ""). `expected` is the JSON value, or
 * null. `context` is present only when the case has one (not null): a list whose strings are kept
 * and whose other items become compact JSON text; a single value becomes a one-item list.
 */
export function payload(input: ScoringInput): string {
  const body: { [key: string]: Json } = {};
  const context = input.case.context;
  if (context !== undefined && context !== null)
    body['context'] = (Array.isArray(context) ? (context as readonly Json[]) : [context]).map(asText);
  body['expected'] = input.expected === undefined ? null : input.expected;
  body['input'] = input.case.input === undefined ? '' : asText(input.case.input);
  body['output'] = input.output === undefined ? '' : asText(input.output);
  return JSON.stringify(sortKeys(body));
}

function asText(value: Json): string {
  return typeof value === 'string' ? value : JSON.stringify(sortKeys(value));
}

function sortKeys(value: Json): Json {
  if (Array.isArray(value)) return (value as readonly Json[]).map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const object = value as { readonly [key: string]: Json };
  const sorted: { [key: string]: Json } = {};
  // Byte order of the UTF-8 keys, as Rust's BTreeMap<String, _> sorts them.
  for (const key of Object.keys(object).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))))
    sorted[key] = sortKeys(object[key] as Json);
  return sorted;
}
