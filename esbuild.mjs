// The one bundler config: extension, server and CLI for Node (CommonJS), the results view for the
// browser. `--production` minifies and drops source maps; `--watch` rebuilds on change. Any build
// error exits non-zero.
import * as esbuild from 'esbuild';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

// 'module' first: jsonc-parser's UMD main cannot be bundled (its requires are dynamic).
const node = {
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  mainFields: ['module', 'main'],
  bundle: true,
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
};
// recheck picks a native checker next to its own package at run time, sql.js loads its .wasm
// beside its own package, and lmdb (the result cache, cli/cacheStore.ts) loads the native binary of
// its platform package: all stay real modules.
const external = ['recheck', 'sql.js', 'lmdb'];

const ROOT = fileURLToPath(new URL('.', import.meta.url));

/**
 * EvalLens's own schemas compiled at build time: core/schema/precompiledValidators.ts (none, in the
 * sources) becomes ajv's standalone code of every validator core/schema/ownValidators.ts names, written
 * by scripts/ownValidatorsCode.ts (bundled and run here), so no process compiles a schema at start-up.
 * Made once per build, fresh each time: a build output, never committed.
 */
let ownValidatorsCode;
const ownValidators = {
  name: 'own-validators',
  setup(build) {
    build.onStart(() => {
      if (watch) ownValidatorsCode = undefined;
    });
    build.onLoad({ filter: /[\\/]core[\\/]schema[\\/]precompiledValidators\.ts$/ }, async () => ({
      contents: await (ownValidatorsCode ??= ownValidatorsModule()),
      loader: 'js',
      resolveDir: ROOT,
    }));
  },
};

async function ownValidatorsModule() {
  const generator = await esbuild.build({
    ...node,
    sourcemap: false,
    minify: false,
    entryPoints: ['scripts/ownValidatorsCode.ts'],
    external,
    write: false,
    outfile: 'own-validators-generator.js',
  });
  const module = { exports: {} };
  new Function('require', 'module', 'exports', generator.outputFiles[0].text)(
    createRequire(import.meta.url),
    module,
    module.exports,
  );
  return module.exports.ownValidatorsCode();
}

/**
 * Libraries only a server database engine or a Vertex judge loads (core/sql/openEngine.ts imports the
 * engines on first use; core/judge/googleCredentials.ts imports google-auth-library on first use):
 * each is bundled into a file of its own beside the bundles (`dist/vendor-*.js`, shipped with them), so
 * a process that needs none of them never reads or parses them (mysql2 alone was a third of
 * dist/cli.js). They hold no state of ours, so there are no two copies of anything that could drift.
 * google-auth-library is reached by `import()`: its file names its exports (an ES module re-export,
 * which esbuild annotates for Node's CommonJS export detection).
 */
const VENDOR = {
  pg: { file: 'vendor-pg.js', contents: "module.exports = require('pg');" },
  'mysql2/promise': { file: 'vendor-mysql2.js', contents: "module.exports = require('mysql2/promise');" },
  'google-auth-library': {
    file: 'vendor-google-auth.js',
    contents: "export { GoogleAuth } from 'google-auth-library';",
  },
};
const vendorChunks = {
  name: 'vendor-chunks',
  setup(build) {
    build.onResolve({ filter: /^(pg|mysql2\/promise|google-auth-library)$/ }, (args) => ({
      path: `./${VENDOR[args.path].file}`,
      external: true,
    }));
  },
};
const vendorBuilds = Object.values(VENDOR).map(({ file, contents }) => ({
  ...node,
  stdin: { contents, resolveDir: ROOT, loader: 'js' },
  outfile: `dist/${file}`,
}));

// Prints the lines the VS Code watch task's problem matcher waits for, on every rebuild.
const watchMarkers = {
  name: 'watch-markers',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) =>
      console.log(`[watch] build finished${result.errors.length > 0 ? ` with ${result.errors.length} errors` : ''}`),
    );
  },
};

const builds = [
  { ...node, entryPoints: ['extension/main.ts'], outfile: 'dist/extension.js', external: ['vscode', ...external] },
  {
    ...node,
    entryPoints: ['server/main.ts'],
    outfile: 'dist/server.js',
    external,
    plugins: [ownValidators, vendorChunks],
  },
  {
    ...node,
    entryPoints: ['cli/main.ts'],
    outfile: 'dist/cli.js',
    external,
    banner: { js: '#!/usr/bin/env node' },
    plugins: [ownValidators, vendorChunks],
  },
  // The thread that reads one side of `evallens compare` (cli/compareSideWorker.ts), kept small to start fast.
  {
    ...node,
    entryPoints: ['cli/compareSideWorker.ts'],
    outfile: 'dist/compareSideWorker.js',
    external,
    plugins: [vendorChunks],
  },
  // The threads that score a large run's cases (cli/runWorker.ts, started by cli/runParallel.ts): they load
  // the config and build its scorers as the CLI does, so with the same build-time validators.
  {
    ...node,
    entryPoints: ['cli/runWorker.ts'],
    outfile: 'dist/runWorker.js',
    external,
    plugins: [ownValidators, vendorChunks],
  },
  ...vendorBuilds,
  {
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    bundle: true,
    sourcemap: !production,
    minify: production,
    logLevel: 'warning',
    entryPoints: ['webview/main.ts'],
    outfile: 'dist/webview.js',
  },
];

try {
  if (watch) {
    for (const options of builds)
      await (await esbuild.context({ ...options, plugins: [...(options.plugins ?? []), watchMarkers] })).watch();
  } else {
    await Promise.all(builds.map((options) => esbuild.build(options)));
  }
} catch {
  process.exit(1);
}
