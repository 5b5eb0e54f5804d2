// The one bundler config: extension, server and CLI for Node (CommonJS), the results view for the
// browser. `--production` minifies and drops source maps; `--watch` rebuilds on change. Any build
// error exits non-zero.
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const node = { platform: 'node', format: 'cjs', target: 'node20', bundle: true, sourcemap: !production, minify: production, logLevel: 'warning' };
// recheck picks a native checker next to its own package at run time, so it stays a real module.
const external = ['recheck'];

const builds = [
  { ...node, entryPoints: ['extension/main.ts'], outfile: 'dist/extension.js', external: ['vscode', ...external] },
  { ...node, entryPoints: ['server/main.ts'], outfile: 'dist/server.js', external },
  { ...node, entryPoints: ['cli/main.ts'], outfile: 'dist/cli.js', external, banner: { js: '#!/usr/bin/env node' } },
  { platform: 'browser', format: 'iife', target: 'es2022', bundle: true, sourcemap: !production, minify: production, logLevel: 'warning', entryPoints: ['webview/main.ts'], outfile: 'dist/webview.js' },
];

try {
  if (watch) {
    for (const options of builds) await (await esbuild.context(options)).watch();
    console.log('[watch] build finished, watching for changes');
  } else {
    await Promise.all(builds.map((options) => esbuild.build(options)));
  }
} catch {
  process.exit(1);
}
