// ESLint (flat config): typescript-eslint's recommended rules, and the dependency rule of DESIGN.md
// enforced per folder with no-restricted-imports. Imports point toward core, never away from it and
// never sideways; shared/ (pure helpers the engine and the hosts both run) sits under core and takes
// only its types. test/lint/boundaries.test.ts proves every restriction below fires.
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
  client: {
    group: ['vscode-languageclient', 'vscode-languageclient/**'],
    message: 'Only extension/ imports vscode-languageclient.',
  },
  server: {
    group: ['vscode-languageserver*', 'vscode-languageserver*/**'],
    message: 'Only server/ imports vscode-languageserver*.',
  },
  test: { ...folder('test'), message: 'Nothing imports test/; tests import the code, not the other way round.' },
  folder: (name, why) => ({ ...folder(name), message: `${why} (the dependency rule, DESIGN.md).` }),
  /** core/ for types only: what the engine does stays in the engine's processes (the CLI, the server). */
  coreTypes: (self, why) => ({
    ...folder('core'),
    allowTypeImports: true,
    message: `${self}/ imports only types from core/ (use \`import type\`); ${why}`,
  }),
};

/** The rule's options for one folder: what it may not import. */
function boundaries({ paths = [], patterns = [] }) {
  return { '@typescript-eslint/no-restricted-imports': ['error', { paths, patterns }] };
}

/**
 * A folder under the hosts (core/, shared/, protocol/): no editor or LSP library, nothing from test/,
 * none of `above` (each refused with `because(name)`), and whatever `more` adds.
 */
function belowTheHosts(self, above, because, more = []) {
  return {
    files: [`${self}/${CODE}`],
    rules: boundaries({
      paths: [restrict.vscode],
      patterns: [
        restrict.client,
        restrict.server,
        restrict.test,
        ...above.map((name) => restrict.folder(name, because(name))),
        ...more,
      ],
    }),
  };
}

const siblings = (self) =>
  HOSTS.filter((host) => host !== self).map((host) =>
    restrict.folder(host, `${self}/ may not import ${host}/: hosts never import each other`),
  );

const nodeBuiltins = [...new Set(builtinModules.filter((name) => !name.startsWith('_')))].map((name) => ({
  name,
  message: 'webview/ runs in the browser: no Node built-ins.',
}));

// Positions: core counts lines and columns from 0 (as LSP does); people read them from 1. The one place
// 1 is added is shared/text/displayPosition.ts (toDisplay, displayLine, displayLineAndColumn, …), so a
// message can never show one number and point the editor at another. test/lint/positions.test.ts
// proves each selector fires (and scans message text for `line ${x + 1}`, which no selector can see).
const BY_HAND =
  'by hand: a position becomes 1-based only through shared/text/displayPosition.ts (toDisplay, displayLine, displayColumn, displayLineAndColumn, displayLineColumn)';
const POSITIONS_BY_HAND = [
  {
    selector: "BinaryExpression[operator='+'][right.value=1][left.type='Identifier'][left.name=/^(line|column)$/]",
    message: `Adds 1 to a line or column ${BY_HAND}.`,
  },
  {
    selector:
      "BinaryExpression[operator='+'][right.value=1][left.type='MemberExpression'][left.property.name=/^(line|column)$/]",
    message: `Adds 1 to a line or column ${BY_HAND}.`,
  },
  {
    selector:
      "BinaryExpression[operator='+'][right.value=1][left.operator='-'][left.right.name=/^line(Start|Offset)$/]",
    message: `Makes a 1-based column ${BY_HAND}; count from 0 (core's LineIndex) and convert.`,
  },
  {
    selector: "VariableDeclarator[id.name='line'][init.value=1]",
    message: `Counts lines from 1 ${BY_HAND}; count from 0 and convert.`,
  },
];

export default defineConfig([
  globalIgnores([
    'dist/**',
    'node_modules/**',
    '.vscode-test/**',
    'bench/.peers/**',
    'bench/out/**',
    'test/e2e/artifacts/**',
  ]),

  {
    files: [CODE],
    extends: [tseslint.configs.recommended],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // The repo's conventions for "unused on purpose": a `_` prefix, or a key dropped by a rest pattern.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { sourceType: 'module', ecmaVersion: 'latest' },
  },

  // core: the engine. Depends on no other folder and on no editor or LSP library.
  belowTheHosts(
    'core',
    ['protocol', ...HOSTS],
    (name) => `core/ may not import ${name}/: imports point toward core, never away from it`,
  ),

  // shared: pure helpers the engine and the hosts both run (escaping, masking, process marking, the
  // aggregator). Below core: it takes core's types only, and nothing from any other folder.
  belowTheHosts(
    'shared',
    ['protocol', ...HOSTS],
    (name) => `shared/ may not import ${name}/: core and every host import shared, never the other way round`,
    [restrict.coreTypes('shared', 'helpers that need engine code belong in core.')],
  ),

  // protocol: typed contracts over core's types; core's types and shared/ only. The extension and the
  // results view load protocol/, so a value from core here would run the engine in the editor.
  belowTheHosts('protocol', HOSTS, (name) => `protocol/ may import only core/ and shared/, not ${name}/`, [
    restrict.coreTypes(
      'protocol',
      'the extension and the view load protocol/ and run no engine code; values go in shared/.',
    ),
  ]),

  // server: LSP host. The only folder that imports vscode-languageserver*.
  {
    files: [`server/${CODE}`],
    rules: boundaries({ paths: [restrict.vscode], patterns: [restrict.client, restrict.test, ...siblings('server')] }),
  },

  // extension: VS Code host. The only folder that imports vscode / vscode-languageclient. It runs no
  // engine code: it gets configs' cases, case data, plans, runs and reports from the CLI and the server.
  {
    files: [`extension/${CODE}`],
    rules: boundaries({
      patterns: [
        restrict.server,
        restrict.test,
        ...siblings('extension'),
        restrict.coreTypes(
          'extension',
          'the extension host never runs the engine: ask the CLI or the language server (values both need go in shared/).',
        ),
      ],
    }),
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
        restrict.coreTypes('webview', 'values it needs come through protocol/ or shared/.'),
      ],
    }),
  },

  {
    files: ['{core,shared,protocol,server,extension,webview,cli}/**/*.{ts,mts,cts}'],
    ignores: ['shared/text/displayPosition.ts'],
    rules: { 'no-restricted-syntax': ['error', ...POSITIONS_BY_HAND] },
  },

  // cli: the command-line host.
  {
    files: [`cli/${CODE}`],
    rules: boundaries({
      paths: [restrict.vscode],
      patterns: [restrict.client, restrict.server, restrict.test, ...siblings('cli')],
    }),
  },
]);
