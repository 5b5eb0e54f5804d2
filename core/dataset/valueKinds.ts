/** Words for the kind of a value, in the vocabulary of the file it came from. */
export type Vocabulary = 'json' | 'yaml';

/** "an array", "a string", "null", … — what a value is, never what it holds (that is payload). */
export function describeKind(value: unknown, vocabulary: Vocabulary = 'json'): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return vocabulary === 'yaml' ? 'a list' : 'an array';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    case 'object':
      return vocabulary === 'yaml' ? 'a mapping' : 'an object';
    default:
      return `a ${typeof value}`;
  }
}
