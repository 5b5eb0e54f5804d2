/**
 * The dependency rule (DESIGN.md) as lint: each restriction in eslint.config.mjs is shown to fire on
 * a small snippet in the folder it guards, and the imports each folder may make are shown to pass;
 * the real extension/, protocol/ and webview/ are shown to import no value from core/.
 */
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { before, describe, it } from 'node:test';
import { ESLint } from 'eslint';

const ROOT = resolve(__dirname, '..', '..');
const RULE = '@typescript-eslint/no-restricted-imports';

let eslint: ESLint;

/** The no-restricted-imports messages for `code` as if it were the file `file` (which need not exist). */
async function violations(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, file) });
  assert.ok(result, `no lint result for ${file}`);
  const fatal = result.messages.filter((m) => m.fatal === true);
  assert.deepEqual(fatal, [], `${file} did not parse`);
  return result.messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
}

async function assertForbidden(file: string, code: string, because?: RegExp): Promise<void> {
  const found = await violations(file, code);
  assert.equal(
    found.length,
    1,
    `expected one boundary violation in ${file} for: ${code}\ngot: ${JSON.stringify(found)}`,
  );
  if (because) assert.match(found[0] ?? '', because);
}

async function assertAllowed(file: string, code: string): Promise<void> {
  assert.deepEqual(await violations(file, code), [], `expected ${file} to be allowed: ${code}`);
}

const SIBLINGS: { readonly [host: string]: string } = {
  server: "import { startServer } from '../server/startServer';",
  extension: "import { activate } from '../extension/main';",
  webview: "import '../webview/main';",
  cli: "import { run } from '../cli/main';",
};

before(() => {
  eslint = new ESLint({ cwd: ROOT, overrideConfigFile: join(ROOT, 'eslint.config.mjs') });
});

describe('core/ depends on nothing in the repo but shared/', () => {
  const file = 'core/config/example.ts';

  it('may not import vscode, the language client or the language server', async () => {
    await assertForbidden(file, "import * as vscode from 'vscode';", /Only extension/);
    await assertForbidden(file, "import type { Range } from 'vscode';");
    await assertForbidden(file, "import { LanguageClient } from 'vscode-languageclient/node';");
    await assertForbidden(file, "import { TextDocuments } from 'vscode-languageserver';", /Only server/);
    await assertForbidden(file, "import { TextDocument } from 'vscode-languageserver-textdocument';");
  });

  it('may not import protocol/, any host, or test/, by import or re-export, from any depth', async () => {
    await assertForbidden(file, "import { encodeEvent } from '../../protocol/runEvents';", /dependency rule/);
    for (const [host, code] of Object.entries(SIBLINGS)) {
      await assertForbidden(file, code.replace("'../", "'../../"), new RegExp(`${host}/`));
    }
    await assertForbidden('core/example.ts', "export * from '../server/convert';");
    await assertForbidden(
      'core/example.ts',
      "import { score } from '../test/support/scoring';",
      /Nothing imports test/,
    );
  });

  it('may import itself and its libraries', async () => {
    await assertAllowed(
      file,
      "import { LineIndex } from '../text/position';\nimport { parseDocument } from 'yaml';\nimport { readFile } from 'node:fs/promises';",
    );
  });
});

describe('protocol/ imports only core/', () => {
  it('may not import a host or an editor library', async () => {
    for (const code of Object.values(SIBLINGS))
      await assertForbidden('protocol/example.ts', code, /protocol\/ may import only core/);
    await assertForbidden('protocol/example.ts', "import * as vscode from 'vscode';");
    await assertForbidden('protocol/example.ts', "import { NotificationType } from 'vscode-languageserver';");
  });

  it("may import core's types and shared/, but no value from core (the extension and the view load protocol/)", async () => {
    await assertAllowed(
      'protocol/example.ts',
      "import type { Report } from '../core/report/report';\nexport type { RunEvent } from '../core/runner/events';\nimport { printable } from '../shared/text/printable';",
    );
    await assertForbidden(
      'protocol/example.ts',
      "import { hasErrors } from '../core/problem';",
      /protocol\/ imports only types from core/,
    );
  });
});

describe('shared/ sits under core: pure helpers the engine and the hosts both run', () => {
  const file = 'shared/text/example.ts';

  it('takes only types from core, and nothing from protocol/, a host, test/ or an editor library', async () => {
    await assertAllowed(
      file,
      "import type { Json } from '../../core/case';\nimport { randomBytes } from 'node:crypto';\nimport { scan } from './detectors';",
    );
    await assertForbidden(
      file,
      "import { hasErrors } from '../../core/problem';",
      /shared\/ imports only types from core/,
    );
    await assertForbidden(
      file,
      "import { encodeEvent } from '../../protocol/runEvents';",
      /shared\/ may not import protocol/,
    );
    for (const code of Object.values(SIBLINGS))
      await assertForbidden(file, code.replace("'../", "'../../"), /shared\/ may not import/);
    await assertForbidden(file, "import * as vscode from 'vscode';", /Only extension/);
  });

  it('is imported by core and by every host', async () => {
    await assertAllowed('core/runner/example.ts', "import { Aggregator } from '../../shared/aggregate/aggregator';");
    for (const host of Object.keys(SIBLINGS))
      await assertAllowed(`${host}/example.ts`, "import { printable } from '../shared/text/printable';");
  });
});

describe('the extension host never runs the engine', () => {
  it('extension/ imports only types from core/, at any depth, by import or re-export', async () => {
    await assertForbidden(
      'extension/results/example.ts',
      "import { loadRunConfig } from '../../core/config/loadRunConfig';",
      /extension\/ imports only types from core.*never runs the engine/,
    );
    await assertForbidden(
      'extension/example.ts',
      "import { Aggregator } from '../core/aggregate/aggregator';",
      /extension\/ imports only types from core/,
    );
    await assertForbidden(
      'extension/example.ts',
      "export { caseRecords } from '../core/runner/records';",
      /extension\/ imports only types from core/,
    );
    await assertForbidden(
      'extension/example.ts',
      "import { type EvalCase, caseRecords } from '../core/runner/records';",
      /extension\/ imports only types from core/,
    );
    await assertAllowed(
      'extension/results/example.ts',
      "import type { Report } from '../../core/report/report';\nexport type { RunEvent } from '../../core/runner/events';",
    );
  });

  it('no file of extension/, protocol/ or webview/ imports a value from core/ (the real tree, as lint sees it)', async () => {
    const results = await eslint.lintFiles(['extension/**/*.ts', 'protocol/**/*.ts', 'webview/**/*.ts']);
    assert.ok(results.length > 30, `linted only ${results.length} files`);
    const found = results.flatMap((r) =>
      r.messages.filter((m) => m.ruleId === RULE).map((m) => `${r.filePath}:${m.line}: ${m.message}`),
    );
    assert.deepEqual(found, []);
  });
});

describe('hosts never import each other', () => {
  for (const host of Object.keys(SIBLINGS)) {
    it(`${host}/ may not import another host`, async () => {
      for (const [other, code] of Object.entries(SIBLINGS)) {
        if (other !== host) await assertForbidden(`${host}/example.ts`, code, /hosts never import each other/);
      }
    });

    it(`${host}/ may import core/ and protocol/ (types), and protocol/webview is not the webview folder`, async () => {
      await assertAllowed(
        `${host}/example.ts`,
        "import type { Problem } from '../core/problem';\nimport type { HostToWebview } from '../protocol/webview';",
      );
    });
  }
});

describe('editor libraries stay in their host', () => {
  it('only extension/ imports vscode and vscode-languageclient', async () => {
    await assertAllowed(
      'extension/example.ts',
      "import * as vscode from 'vscode';\nimport { LanguageClient } from 'vscode-languageclient/node';",
    );
    for (const host of ['server', 'webview', 'cli']) {
      await assertForbidden(`${host}/example.ts`, "import * as vscode from 'vscode';", /Only extension/);
      await assertForbidden(
        `${host}/example.ts`,
        "import { LanguageClient } from 'vscode-languageclient/node';",
        /Only extension/,
      );
    }
  });

  it('only server/ imports vscode-languageserver*', async () => {
    await assertAllowed(
      'server/example.ts',
      "import { createConnection } from 'vscode-languageserver/node';\nimport { TextDocument } from 'vscode-languageserver-textdocument';",
    );
    for (const host of ['extension', 'webview', 'cli']) {
      await assertForbidden(
        `${host}/example.ts`,
        "import { createConnection } from 'vscode-languageserver/node';",
        /Only server/,
      );
    }
  });
});

describe('webview/ is browser code', () => {
  const file = 'webview/example.ts';

  it('may not import Node built-ins, with or without node:', async () => {
    for (const name of ['node:fs', 'fs', 'path', 'node:crypto', 'child_process', 'fs/promises']) {
      await assertForbidden(file, `import * as m from '${name}';`, /no Node built-ins/);
    }
  });

  it('imports only types from core, values through protocol', async () => {
    await assertForbidden(file, "import { LineIndex } from '../core/text/position';", /only types from core/);
    await assertAllowed(
      file,
      "import type { Report } from '../core/report/report';\nimport { PROTOCOL_VERSION } from '../protocol/webview';",
    );
  });
});

describe('cli/ and test/', () => {
  it('cli/ may use Node and core', async () => {
    await assertAllowed(
      'cli/example.ts',
      "import { readFile } from 'node:fs/promises';\nimport { hasErrors } from '../core/problem';",
    );
  });

  it('test/ may import anything it tests', async () => {
    await assertAllowed(
      'test/server/example.test.ts',
      "import { startServer } from '../../server/startServer';\nimport { createConnection } from 'vscode-languageserver/node';\nimport * as vscode from 'vscode';",
    );
  });
});
