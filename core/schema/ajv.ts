import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * One ajv instance per purpose, made once. `useDefaults` fills option defaults in so scorers never
 * re-check what their schema says; `strict` refuses schema keywords ajv does not know.
 */
export function createAjv(options: { useDefaults: boolean }): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, useDefaults: options.useDefaults, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addKeyword({ keyword: 'markdownDescription', schemaType: 'string' });
  ajv.addKeyword({ keyword: 'x-evallens', schemaType: 'object' });
  return ajv;
}
