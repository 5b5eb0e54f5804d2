/**
 * Planted secrets through the built CLI and the language server (issue 13, item 4): a value `${VAR}`
 * brought in never shows in `validate`'s output or the server's diagnostics, and an output holding a
 * key secret_scan flags shows in no report format (console, json, jsonl, junit, csv) nor on stderr.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { ensureBuilt, runCli } from '../support/cli';
import { ensureServerBuilt, messageOf, withServer } from '../support/lspClient';

const KEY = 'sk-planted-0123456789abcdefXYZ';
/** secret_scan's aws_access_key_id detector flags this shape. */
const AWS_KEY = 'AKIAZ3MPLE7Q2RSTUVWX';
let dir = '';

before(() => {
  ensureBuilt();
  ensureServerBuilt();
  dir = mkdtempSync(join(tmpdir(), 'evallens-secret-outputs-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function assertNoPart(text: string, secret: string, where: string): void {
  for (let i = 0; i + 8 <= secret.length; i++)
    assert.ok(!text.includes(secret.slice(i, i + 8)), `${where}: "${secret.slice(i, i + 8)}" leaked in: ${text}`);
}

/** Every file under `folder`, read as text. */
function allFiles(folder: string): string {
  return readdirSync(folder)
    .map((name) => {
      const path = join(folder, name);
      return statSync(path).isDirectory() ? allFiles(path) : readFileSync(path, 'utf8');
    })
    .join('\n');
}

const BAD_CONFIG = [
  'cases: [{id: a, output: x, expected: x}]',
  'timeout_ms: "${PLANTED_KEY}"',
  'scorers:',
  '  exact_match: {mode: "${PLANTED_KEY}"}',
  '',
].join('\n');

describe('planted secrets through the CLI and the language server', () => {
  it('validate quotes no ${VAR}-expanded value', async () => {
    writeFileSync(join(dir, 'bad.eval.yaml'), BAD_CONFIG);
    const result = await runCli(['validate', 'bad.eval.yaml'], { cwd: dir, env: { PLANTED_KEY: KEY } });
    assert.notEqual(result.code, 0);
    assert.match(result.stdout + result.stderr, /timeout_ms/);
    assertNoPart(result.stdout + result.stderr, KEY, 'validate');
  });

  it("the language server's diagnostics quote no ${VAR}-expanded value", async () => {
    process.env['PLANTED_KEY'] = KEY;
    try {
      await withServer(async (server) => {
        const { diagnostics } = await server.openAndWait(pathToFileURL(join(dir, 'open.eval.yaml')).href, BAD_CONFIG);
        assert.ok(diagnostics.length >= 2, JSON.stringify(diagnostics));
        assertNoPart(diagnostics.map(messageOf).join('\n'), KEY, 'diagnostics');
      });
    } finally {
      delete process.env['PLANTED_KEY'];
    }
  });

  it('report on a file that is not JSON says where and what, not one character of it (item 5)', async () => {
    writeFileSync(join(dir, 'shadow.json'), 'root:*:20200:0:99999:7:::\ndaemon:*:20200\n');
    const result = await runCli(['report', 'shadow.json'], { cwd: dir });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /shadow\.json:1:1: expected a JSON report, saw a JSON syntax error \(invalid symbol\)/);
    assert.ok(!/root|20200|daemon/.test(result.stdout + result.stderr), result.stderr);
  });

  it('a flagged key in an output shows in no report format nor on stderr', async () => {
    const cases = [
      'cases:',
      `  - {id: a, output: "the key is ${AWS_KEY} ok", expected: "nothing"}`,
      'scorers:',
      '  exact_match: {}',
      '  edit_similarity: {threshold: 0.9}',
      '',
    ].join('\n');
    writeFileSync(join(dir, 'out.eval.yaml'), cases);
    const reports = join(dir, 'reports');
    const args = ['run', 'out.eval.yaml', '--reporter', 'console'];
    for (const format of ['json', 'jsonl', 'junit', 'csv'])
      args.push('--reporter', format, '--out', join(reports, `report.${format}`));
    const result = await runCli(args, { cwd: dir });
    assert.equal(result.code, 1, result.stderr);
    assertNoPart(result.stdout + result.stderr, AWS_KEY, 'console and stderr');
    const written = allFiles(reports);
    assert.match(written, /exact_match/);
    assertNoPart(written, AWS_KEY, 'reports');
    assertNoPart(allFiles(join(dir, '.evallens')), AWS_KEY, 'run folder');
  });
});
