/** A run to compare (or save as a baseline) that cannot be read: said as a usage error. Apart from
 * cli/compareInput.ts so that parsing the command line does not load the readers. */
export class CompareInputError extends Error {
  override readonly name = 'CompareInputError';
}
