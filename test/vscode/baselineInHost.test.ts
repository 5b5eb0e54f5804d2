/**
 * The baselines suite (test/vscode/suite/baseline.ts) in the extension host, launched like the other
 * in-host suites (test/vscode/inHost.test.ts: @vscode/test-electron's runTests through our
 * code-server launcher) on a trusted workspace; its own launch, so it can be run alone. Needs
 * `npm run build` and `bash scripts/e2e-setup.sh` once.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { build } from 'esbuild';
import { ARTIFACTS, requireSetup, ROOT } from '../e2e/support/setup';
import { runInHostSuite } from './support/runInHost';

const EXPECTED_COUNT = 6;
const BUNDLE = join(ARTIFACTS, 'in-host', 'suites', 'baseline.js');
const DESKTOP = process.env['EVALLENS_IN_HOST_VSCODE'] === 'download';

describe('baselines inside the VS Code extension host', () => {
  before(async () => {
    if (!DESKTOP) requireSetup();
    await build({
      entryPoints: [join(ROOT, 'test', 'vscode', 'suite', 'baseline.ts')],
      outfile: BUNDLE,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      external: ['vscode'],
      sourcemap: 'inline',
      logLevel: 'warning',
    });
  });

  it('the baseline suite passes', async (t) => {
    const run = await runInHostSuite({ suite: 'trusted', module: BUNDLE });
    for (const result of run.results)
      await t.test(result.name, () => {
        if (!result.ok) throw new Error(result.error ?? 'failed');
      });
    assert.equal(
      run.results.length,
      EXPECTED_COUNT,
      `expected ${EXPECTED_COUNT} in-host results; output:\n${run.output}`,
    );
    assert.equal(run.code, 0, `runTests exit code ${run.code}; output:\n${run.output}`);
  });
});
