import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * One ajv instance per purpose, made once. `useDefaults` fills option defaults in so scorers never
 * re-check what their schema says; `strict` refuses schema keywords ajv does not know; `verbose` keeps
 * the failing data and schema on each error so messages can name what was seen.
 */
export function createAjv(options: { useDefaults: boolean; verbose?: boolean }): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, useDefaults: options.useDefaults, allowUnionTypes: true, verbose: options.verbose ?? false });
  addFormats(ajv);
  ajv.addKeyword({ keyword: 'markdownDescription', schemaType: 'string' });
  ajv.addKeyword({ keyword: 'x-evallens', schemaType: 'object' });
  return ajv;
}
