// The one bundler config: extension, server and CLI for Node (CommonJS), the results view for the
// browser. `--production` minifies and drops source maps; `--watch` rebuilds on change. Any build
// error exits non-zero.
import * as esbuild from 'esbuild';
import { isAscii } from 'node:buffer';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
  // Even in development builds: without comments the bundles are a third smaller and ASCII only, which
  // Node reads as a one-byte string (a single non-ASCII character in a comment made reading dist/cli.js
  // as UTF-8 take as long as compiling it). Names stay, so stack traces and profiles read as the source.
  minifyWhitespace: true,
  // `import()` becomes `require()`: everything the bundles load is CommonJS (the vendor files below too), so
  // a lazily loaded library is one synchronous require, with no ES module loader involved.
  supported: { 'dynamic-import': false },
  logLevel: 'warning',
};
// recheck picks a native checker next to its own package at run time, sql.js loads its .wasm
// beside its own package, and lmdb (the result cache, cli/cacheStore.ts) loads the native binary of
// its platform package: all stay real modules.
const external = ['recheck', 'sql.js', 'lmdb'];

const ROOT = fileURLToPath(new URL('.', import.meta.url));

/**
 * EvalLens's own schemas compiled at build time: ajv's standalone code of every validator
 * core/schema/ownValidators.ts names, made by scripts/ownValidatorsCode.ts (bundled and run here), so no
 * process compiles a schema at start-up. The code goes to dist/own-validators.js; core/schema/
 * precompiledValidators.ts (none, in the sources) becomes an index of it, which reads and compiles a
 * validator when a process first asks for it. Made once per build, fresh each time: a build output,
 * never committed.
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
  const { module: code, file } = module.exports.ownValidatorsBuild();
  // The validators' code, read a validator at a time by the bundles (see scripts/ownValidatorsCode.ts).
  mkdirSync('dist', { recursive: true });
  writeFileSync(`dist/${module.exports.OWN_VALIDATORS_FILE}`, file);
  return code;
}

/**
 * Libraries only a server database engine or a Vertex judge loads (core/sql/openEngine.ts imports the
 * engines on first use; core/judge/googleCredentials.ts imports google-auth-library and gcp-metadata on
 * first use):
 * each is bundled into a file of its own beside the bundles (`dist/vendor-*.js`, shipped with them), so
 * a process that needs none of them never reads or parses them (mysql2 alone was a third of
 * dist/cli.js). They hold no state of ours, so there are no two copies of anything that could drift.
 * google-auth-library and gcp-metadata (with node-fetch and a streams polyfill, ~350 KB) are reached by
 * `import()`, which the build turns into `require()` (see `supported` above).
 */
const GOOGLE = {
  file: 'vendor-google-auth.js',
  contents:
    "module.exports = { GoogleAuth: require('google-auth-library').GoogleAuth, detectGCPResidency: require('gcp-metadata').detectGCPResidency };",
};
const VENDOR = {
  pg: { file: 'vendor-pg.js', contents: "module.exports = require('pg');" },
  'mysql2/promise': { file: 'vendor-mysql2.js', contents: "module.exports = require('mysql2/promise');" },
  // One file for both: google-auth-library depends on gcp-metadata (and both on gaxios).
  'google-auth-library': GOOGLE,
  'gcp-metadata': GOOGLE,
};
/**
 * ajv's compiler and formats (~220 KB with fast-uri), which a process needs only to compile a schema at run
 * time (a json_schema scorer's; EvalLens's own validators are precompiled): core/schema/ajv.ts requires
 * core/schema/ajvLibrary.ts when it first compiles one, and the bundles take that file from here. The
 * helpers precompiled validators call (`ajv/dist/runtime/*`) stay in the bundles; they hold no state.
 */
const AJV = { file: 'vendor-ajv.js', contents: "module.exports = require('./core/schema/ajvLibrary.ts');" };
const vendorChunks = {
  name: 'vendor-chunks',
  setup(build) {
    build.onResolve({ filter: /^(pg|mysql2\/promise|google-auth-library|gcp-metadata)$/ }, (args) => ({
      path: `./${VENDOR[args.path].file}`,
      external: true,
    }));
    build.onResolve({ filter: /^\.\/ajvLibrary$/ }, () => ({ path: `./${AJV.file}`, external: true }));
  },
};
/**
 * The JSON schemas core/schema/ownValidators.ts reads only to compile a validator at run time (never, while
 * dist/own-validators.js matches the bundle): the CLI's bundles read them beside the package
 * (dist/../schemas, shipped in the .vsix) instead of carrying them. The run config's alone was 259 KB of
 * dist/cli.js that V8 read and pre-parsed on every command. The server keeps them: its hovers read them.
 */
const ownSchemaFiles = {
  name: 'own-schema-files',
  setup(build) {
    // Its lazy `require`s only: what it imports (the common options' schema) is used at start-up and stays in.
    build.onResolve({ filter: /^\.\.\/\.\.\/schemas\/[a-z-]+\.schema\.json$/ }, (args) =>
      args.kind === 'require-call' && /[\\/]core[\\/]schema[\\/]ownValidators\.ts$/.test(args.importer)
        ? { path: args.path.replace('../../', '../'), external: true }
        : undefined,
    );
  },
};
const vendorBuilds = [...new Set([...Object.values(VENDOR), AJV])].map(({ file, contents }) => ({
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
    plugins: [ownValidators, ownSchemaFiles, vendorChunks],
  },
  // `evallens report <file> --stream` alone (cli/reportStreamMain.ts), which the results view forks: small to start fast.
  {
    ...node,
    entryPoints: ['cli/reportStreamMain.ts'],
    outfile: 'dist/reportStream.js',
    external,
    plugins: [ownValidators, ownSchemaFiles, vendorChunks],
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
    plugins: [ownValidators, ownSchemaFiles, vendorChunks],
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
    notAscii([
      ...builds
        .filter((options) => options.platform === 'node' && !vendorBuilds.includes(options))
        .map((options) => options.outfile),
      'dist/own-validators.js',
    ]);
  }
} catch {
  process.exit(1);
}

/**
 * Node bundles (but the vendor files, loaded only for a server database or a Vertex judge) must stay
 * ASCII: Node decodes a file with one non-ASCII byte into a two-byte string, and
 * reading dist/cli.js then took as long as compiling it. esbuild escapes strings; only a comment it keeps
 * (a dependency's licence) can break this. Fails the build, naming the file and the text.
 */
function notAscii(files) {
  for (const file of files) {
    const bytes = readFileSync(file);
    if (isAscii(bytes)) continue;
    const at = bytes.findIndex((byte) => byte > 0x7f);
    const text = bytes.subarray(Math.max(0, at - 60), at + 20).toString('utf8');
    console.error(`${file}: byte ${at} is not ASCII (…${text}…); keep Node bundles ASCII (see esbuild.mjs)`);
    throw new Error('non-ASCII bundle');
  }
}
