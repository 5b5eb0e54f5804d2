/**
 * The modules an installed extension's bundles load at run time and cannot find. esbuild leaves its
 * externals (and `require.resolve` targets) as `require("x")` in dist/*.js; each must resolve from
 * the installed extension's own folder, or the feature that needs it fails only when first used. That
 * holds for the files beside the bundles too (`./vendor-*.js`, `../schemas/*.schema.json`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * Required inside a try/catch by a bundled dependency, which works without it (pg's optional native
 * binding; mysql2's `cardinal`, which only colours its debug output). Anything else missing is a
 * packaging defect.
 */
const OPTIONAL_MODULES = new Set(['pg-native', 'cardinal']);
const PROVIDED_BY_HOST = new Set(['vscode']);

/**
 * A call, not text: `require("x")` or `require.resolve("x")` not preceded by a quote or a backtick.
 * ajv's code generator keeps `require("ajv/dist/runtime/…")` as string templates it never runs.
 */
const REQUIRE_CALL = /(?<!['"`])\brequire(?:\.resolve)?\("([^"]+)"\)/g;

export interface MissingModule {
  readonly bundle: string;
  readonly module: string;
}

export function missingRuntimeModules(extensionFolder: string): MissingModule[] {
  const dist = join(extensionFolder, 'dist');
  const requireFromDist = createRequire(join(dist, 'extension.js'));
  const builtins = new Set(builtinModules);
  const missing: MissingModule[] = [];
  for (const bundle of readdirSync(dist)
    .filter((name) => name.endsWith('.js'))
    .sort()) {
    const text = readFileSync(join(dist, bundle), 'utf8');
    const names = new Set([...text.matchAll(REQUIRE_CALL)].map((match) => match[1] ?? ''));
    for (const name of [...names].sort()) {
      if (name === '' || name.startsWith('node:') || builtins.has(name)) continue;
      if (PROVIDED_BY_HOST.has(name) || OPTIONAL_MODULES.has(name)) continue;
      try {
        requireFromDist.resolve(name);
      } catch {
        missing.push({ bundle: `dist/${bundle}`, module: name });
      }
    }
  }
  return missing;
}
