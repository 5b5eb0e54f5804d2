/**
 * The CLI's bundles carry EvalLens's own validators compiled (dist/own-validators.js) and not the JSON
 * schemas they came from: when that file is not the bundle's (missing, another build's), a validator is
 * compiled at run time from the schema read beside the package (dist/../schemas; esbuild.mjs,
 * ownSchemaFiles). Checked on a copy of the built package without dist/own-validators.js: every answer is
 * the same as the whole build's.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CLI, ensureBuilt, ROOT } from '../support/cli';

const copy = mkdtempSync(join(tmpdir(), 'evallens-own-schemas-'));
after(() => rmSync(copy, { recursive: true, force: true }));
before(() => {
  ensureBuilt();
  cpSync(join(ROOT, 'dist'), join(copy, 'dist'), { recursive: true, filter: (f) => !f.endsWith('.map') });
  rmSync(join(copy, 'dist', 'own-validators.js'));
  for (const name of ['schemas', 'node_modules', 'prompts', 'package.json'])
    symlinkSync(join(ROOT, name), join(copy, name));
});

function run(cli: string, args: readonly string[]) {
  const done = spawnSync(process.execPath, [cli, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', EVALLENS_PROGRESS_SECONDS: 'off' },
    timeout: 60_000,
  });
  return { code: done.status, stdout: done.stdout, stderr: done.stderr };
}

describe('validators compiled at run time from the schemas beside the package', () => {
  it('the bundle carries none of the schemas it reads only to compile a validator', () => {
    const bundle = readFileSync(CLI, 'latin1');
    for (const name of ['run-config', 'report', 'case', 'compare-report'])
      assert.ok(bundle.includes(`require("../schemas/${name}.schema.json")`), name);
    assert.ok(
      !bundle.includes('"https://evallens.dev/schemas/run-config.schema.json"'),
      'the run config schema is not in it',
    );
    assert.ok(!existsSync(join(copy, 'dist', 'own-validators.js')));
  });

  const commands: (readonly string[])[] = [
    ['validate', 'examples/agent/support-agent.eval.yaml'],
    ['validate', 'examples/nl2sql/shop.eval.yaml'],
    ['validate', 'examples/evalhub/benchmarks.eval.yaml'],
    ['validate', 'test/fixtures/cli/unknown-scorer.eval.yaml'],
    ['report', 'test/fixtures/reports/three-cases.report.json', '--reporter', 'json'],
  ];
  for (const args of commands) {
    it(`${args.join(' ')}: the same answer without dist/own-validators.js`, () => {
      const whole = run(CLI, args);
      const fallback = run(join(copy, 'dist', 'cli.js'), args);
      assert.ok(whole.code !== null && whole.code < 70, whole.stderr);
      assert.deepEqual(fallback, whole);
    });
  }
});
