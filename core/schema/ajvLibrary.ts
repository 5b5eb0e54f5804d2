import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

// ajv's compiler and its formats, loaded by core/schema/ajv.ts when a schema is first compiled. The
// Node bundles take this file from dist/vendor-ajv.js (esbuild.mjs), so a process that compiles no
// schema never reads or parses ajv's ~220 KB.
export { Ajv2020, addFormats };
