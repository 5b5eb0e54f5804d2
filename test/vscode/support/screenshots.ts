/**
 * Takes the README's pictures with the in-host suite (the trusted one, which captures them at its key
 * steps): the results view after a run, the Test Explorer after a run, a failure peek and a hover, in
 * VS Code's light and dark themes, written to docs/images/<name>-<theme>.png. Run by
 * `npm run screenshots` (scripts/screenshots.mjs), which builds first. Fails when a suite test fails
 * or a picture is missing, so a stale picture is never left looking current.
 */
import { existsSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '../../e2e/support/setup';
import { bundleSuites, runInHostSuite } from './runInHost';

const IMAGES = join(ROOT, 'docs', 'images');
const PICTURES = ['results-view', 'test-explorer', 'failure-peek', 'hover'];
const THEMES = ['light', 'dark'] as const;

async function main(): Promise<number> {
  const modules = await bundleSuites();
  let failed = false;
  for (const theme of THEMES) {
    for (const name of PICTURES) rmSync(join(IMAGES, `${name}-${theme}.png`), { force: true });
    console.log(`screenshots: the ${theme} theme…`);
    const run = await runInHostSuite({ suite: 'trusted', module: modules.trusted, theme, screenshotsDir: IMAGES });
    for (const result of run.results)
      console.log(`  ${result.ok ? '✔' : '✖'} ${result.name}${result.ok ? '' : `\n${result.error ?? ''}`}`);
    if (run.code !== 0) {
      failed = true;
      console.error(`screenshots: the ${theme} suite failed (exit ${run.code}):\n${run.output.slice(-4000)}`);
    }
    for (const name of PICTURES) {
      const path = join(IMAGES, `${name}-${theme}.png`);
      if (existsSync(path)) console.log(`  wrote ${relative(ROOT, path)}`);
      else {
        failed = true;
        console.error(`screenshots: ${relative(ROOT, path)} was not taken`);
      }
    }
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`screenshots: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
