/**
 * The in-extension-host suites (test/vscode/suite/), run as VS Code extensions run their tests: by
 * @vscode/test-electron's runTests, here in code-server's extension host through our launcher
 * (test/vscode/support/runInHost.ts). Each in-host test is reported as a subtest under its suite's,
 * with its failure; the suite's test also asserts runTests' exit code. Two launches, one after the
 * other: trusted, then Restricted Mode.
 * Needs `npm run build` and `bash scripts/e2e-setup.sh` once (npm test does both); fails saying so otherwise.
 * On failure the driver prints where it saved a screenshot and the extension host's logs (test/e2e/artifacts/in-host/).
 */
import assert from 'node:assert/strict';
import { before, describe, it, type TestContext } from 'node:test';
import { requireSetup } from '../e2e/support/setup';
import { bundleSuites, runInHostSuite, type InHostRun, type InHostSuite } from './support/runInHost';

/** The tests each suite must report: one missing means the suite stopped early. */
const EXPECTED_COUNT: Record<InHostSuite, number> = { trusted: 10, restricted: 3 };

let modules: Record<InHostSuite, string> | undefined;
/** EVALLENS_IN_HOST_VSCODE=download: runTests downloads VS Code (a desktop with the internet) instead of our launcher. */
const DESKTOP = process.env['EVALLENS_IN_HOST_VSCODE'] === 'download';

describe('EvalLens inside the VS Code extension host (@vscode/test-electron runTests)', () => {
  before(async () => {
    if (!DESKTOP) requireSetup();
    modules = await bundleSuites();
  });

  for (const suite of ['trusted', 'restricted'] as const) {
    it(`the ${suite} suite passes`, async (t) => {
      if (suite === 'restricted' && DESKTOP) {
        t.skip(
          'runTests always passes --disable-workspace-trust to a downloaded VS Code; Restricted Mode runs only through our launcher',
        );
        return;
      }
      if (modules === undefined) throw new Error('the suites were not bundled (see the "before" hook)');
      const run = await runInHostSuite({ suite, module: modules[suite] });
      await reportEach(t, run);
      assert.equal(
        run.results.length,
        EXPECTED_COUNT[suite],
        `expected ${EXPECTED_COUNT[suite]} in-host results; output:\n${run.output}`,
      );
      assert.equal(run.code, 0, `runTests exit code ${run.code}; output:\n${run.output}`);
    });
  }
});

async function reportEach(t: TestContext, run: InHostRun): Promise<void> {
  for (const result of run.results) {
    await t.test(result.name, () => {
      if (!result.ok) throw new Error(result.error ?? 'failed');
    });
  }
}
