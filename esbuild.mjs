// The one bundler config: extension, server and CLI for Node (CommonJS), the results view for the
// browser. `--production` minifies and drops source maps; `--watch` rebuilds on change. Any build
// error exits non-zero.
import * as esbuild from 'esbuild';

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
  { ...node, entryPoints: ['server/main.ts'], outfile: 'dist/server.js', external },
  { ...node, entryPoints: ['cli/main.ts'], outfile: 'dist/cli.js', external, banner: { js: '#!/usr/bin/env node' } },
  // The thread that reads one side of `evallens compare` (cli/compareSideWorker.ts), kept small to start fast.
  { ...node, entryPoints: ['cli/compareSideWorker.ts'], outfile: 'dist/compareSideWorker.js', external },
  // The threads that score a large run's cases (cli/runWorker.ts, started by cli/runParallel.ts).
  { ...node, entryPoints: ['cli/runWorker.ts'], outfile: 'dist/runWorker.js', external },
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
    for (const options of builds) await (await esbuild.context({ ...options, plugins: [watchMarkers] })).watch();
  } else {
    await Promise.all(builds.map((options) => esbuild.build(options)));
  }
} catch {
  process.exit(1);
}
