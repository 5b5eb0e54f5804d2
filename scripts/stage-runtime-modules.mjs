// Copies the run-time files of the bundles' externals (esbuild.mjs: recheck, sql.js and lmdb) into
// dist/node_modules, so a `.vsix` packaged with --no-dependencies runs on its own: the bundles in dist/
// resolve them there. Only what runs is copied — recheck's JavaScript checker (not its 30 MB native
// binary or its jar: without them recheck's `auto` backend uses the JavaScript one) with synckit,
// which it loads at start, sql.js's Node build with its .wasm, and the result cache's store (lmdb, its
// CommonJS build and dependencies, and the N-API binaries of the platform packaging it: a .vsix made
// on linux-x64 caches on linux-x64; elsewhere the CLI says once that it caches nothing and scores
// everything, docs/cache.md). Fails when a listed file is missing.
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

const RUNTIME_FILES = {
  recheck: ['package.json', 'LICENSE', 'index.js', 'lib/main.js', 'lib/synckit-worker.js'],
  synckit: ['package.json', 'LICENSE', 'lib/index.cjs'],
  '@pkgr/core': ['package.json', 'lib/index.cjs'],
  'sql.js': ['package.json', 'LICENSE', 'dist/sql-wasm.js', 'dist/sql-wasm.wasm'],
  lmdb: ['package.json', 'LICENSE', 'dist/index.cjs'],
  msgpackr: ['package.json', 'LICENSE', 'dist/node.cjs'],
  'ordered-binary': ['package.json', 'LICENSE', 'dist/index.cjs'],
  'weak-lru-cache': ['package.json', 'dist/index.cjs'],
  '@harperfast/extended-iterable': ['package.json', 'LICENSE', 'dist/index.cjs'],
  'node-gyp-build-optional-packages': ['package.json', 'LICENSE', 'index.js', 'node-gyp-build.js'],
  'detect-libc': ['package.json', 'LICENSE', 'lib/detect-libc.js', 'lib/elf.js', 'lib/filesystem.js', 'lib/process.js'],
};
// lmdb's native part for the platform this runs on, N-API builds only (they load on every Node version).
const lmdbPlatform = `@lmdb/lmdb-${process.platform}-${process.arch}`;
if (existsSync(join('node_modules', lmdbPlatform)))
  RUNTIME_FILES[lmdbPlatform] = [
    'package.json',
    'index.js', // empty, but the loader finds the package by resolving it
    ...readdirSync(join('node_modules', lmdbPlatform)).filter((f) => /^node\.napi\..*\.node$/.test(f)),
  ];

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
