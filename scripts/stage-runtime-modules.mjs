// Copies the run-time files of the bundles' externals (esbuild.mjs: recheck and sql.js) into
// dist/node_modules, so a `.vsix` packaged with --no-dependencies runs on its own: the bundles in dist/
// resolve them there. Only what runs is copied — recheck's JavaScript checker (not its 30 MB native
// binary or its jar: without them recheck's `auto` backend uses the JavaScript one) with synckit,
// which it loads at start, and sql.js's Node build with its .wasm. Fails when a listed file is missing.
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

const RUNTIME_FILES = {
  recheck: ['package.json', 'LICENSE', 'index.js', 'lib/main.js', 'lib/synckit-worker.js'],
  synckit: ['package.json', 'LICENSE', 'lib/index.cjs'],
  '@pkgr/core': ['package.json', 'lib/index.cjs'],
  'sql.js': ['package.json', 'LICENSE', 'dist/sql-wasm.js', 'dist/sql-wasm.wasm'],
};

const target = join('dist', 'node_modules');
rmSync(target, { recursive: true, force: true });
let count = 0;
for (const [name, files] of Object.entries(RUNTIME_FILES)) {
  for (const file of files) {
    const from = join('node_modules', name, file);
    if (!existsSync(from)) {
      console.error(`stage-runtime-modules: ${from} is missing (run npm ci)`);
      process.exit(1);
    }
    const to = join(target, name, file);
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(from, to);
    count++;
  }
}
console.log(`stage-runtime-modules: ${count} files of ${Object.keys(RUNTIME_FILES).join(', ')} in ${target}`);
