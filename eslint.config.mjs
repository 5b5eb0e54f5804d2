// ESLint (flat config): typescript-eslint's recommended rules, and the dependency rule of DESIGN.md
// enforced per folder with no-restricted-imports. Imports point toward core, never away from it and
// never sideways. test/lint/boundaries.test.ts proves every restriction below fires.
import { builtinModules } from 'node:module';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

const CODE = '**/*.{ts,mts,cts,js,mjs,cjs}';
const HOSTS = ['server', 'extension', 'webview', 'cli'];

// A top-level folder of the repo, as a relative import reaches it from another folder (`../server`,
// `../../server/convert`, …). A regex rather than a glob like `**/webview`, which would also match
// `../protocol/webview`, a file every host may import.
const folder = (name) => ({ regex: `^(?:\\.\\./)+${name}(?:/|$)`, caseSensitive: true });

const restrict = {
  vscode: { name: 'vscode', message: 'Only extension/ imports vscode; core and the other hosts stay editor-free.' },
  client: { group: ['vscode-languageclient', 'vscode-languageclient/**'], message: 'Only extension/ imports vscode-languageclient.' },
  server: { group: ['vscode-languageserver*', 'vscode-languageserver*/**'], message: 'Only server/ imports vscode-languageserver*.' },
  test: { ...folder('test'), message: 'Nothing imports test/; tests import the code, not the other way round.' },
  folder: (name, why) => ({ ...folder(name), message: `${why} (the dependency rule, DESIGN.md).` }),
};

/** The rule's options for one folder: what it may not import. */
function boundaries({ paths = [], patterns = [] }) {
  return { '@typescript-eslint/no-restricted-imports': ['error', { paths, patterns }] };
}

const siblings = (self) =>
  HOSTS.filter((host) => host !== self).map((host) => restrict.folder(host, `${self}/ may not import ${host}/: hosts never import each other`));

const nodeBuiltins = [...new Set(builtinModules.filter((name) => !name.startsWith('_')))].map((name) => ({
  name,
  message: 'webview/ runs in the browser: no Node built-ins.',
}));

export default defineConfig([
  globalIgnores(['dist/**', 'node_modules/**', '.vscode-test/**', 'bench/.peers/**', 'bench/out/**', 'test/e2e/artifacts/**']),

  {
    files: [CODE],
    extends: [tseslint.configs.recommended],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // The repo's conventions for "unused on purpose": a `_` prefix, or a key dropped by a rest pattern.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { sourceType: 'module', ecmaVersion: 'latest' },
  },

  // core: the engine. Depends on no other folder and on no editor or LSP library.
  {
    files: [`core/${CODE}`],
    rules: boundaries({
      paths: [restrict.vscode],
      patterns: [
        restrict.client,
        restrict.server,
        restrict.test,
        ...['protocol', ...HOSTS].map((name) => restrict.folder(name, `core/ may not import ${name}/: imports point toward core, never away from it`)),
      ],
    }),
  },

  // protocol: typed contracts over core's types; nothing but core.
  {
    files: [`protocol/${CODE}`],
    rules: boundaries({
      paths: [restrict.vscode],
      patterns: [restrict.client, restrict.server, restrict.test, ...HOSTS.map((name) => restrict.folder(name, `protocol/ may import only core/, not ${name}/`))],
    }),
  },

  // server: LSP host. The only folder that imports vscode-languageserver*.
  {
    files: [`server/${CODE}`],
    rules: boundaries({ paths: [restrict.vscode], patterns: [restrict.client, restrict.test, ...siblings('server')] }),
  },

  // extension: VS Code host. The only folder that imports vscode / vscode-languageclient.
  {
    files: [`extension/${CODE}`],
    rules: boundaries({ patterns: [restrict.server, restrict.test, ...siblings('extension')] }),
  },

  // webview: browser code. No Node, no editor API, and only types from core (values come via protocol/).
  {
    files: [`webview/${CODE}`],
    rules: boundaries({
      paths: [restrict.vscode, ...nodeBuiltins],
      patterns: [
        { group: ['node:*'], message: 'webview/ runs in the browser: no Node built-ins.' },
        restrict.client,
        restrict.server,
        restrict.test,
        ...siblings('webview'),
        { ...folder('core'), allowTypeImports: true, message: 'webview/ imports only types from core/ (use `import type`); values it needs come through protocol/.' },
      ],
    }),
  },

  // cli: the command-line host.
  {
    files: [`cli/${CODE}`],
    rules: boundaries({ paths: [restrict.vscode], patterns: [restrict.client, restrict.server, restrict.test, ...siblings('cli')] }),
  },
]);
