/**
 * Failures within reach with VS Code's default settings, which do not open the failure peek after a
 * run: after "Run All Tests" (the check before this one), "EvalLens: Show Failures" opens the first
 * failing case's dataset and its failure peek, titled with its message's header ("<scorer> failed ·
 * score …"). (The offer after a run is a notification with the same action; the suite turns it off
 * so it covers nothing the checks click, test/e2e/support/codeServer.ts.)
 */
import type { Session } from '../support/session';
import { pollUntil } from '../support/poll';
import { runCommand, UI_LIMIT_MS } from '../support/workbench';

export async function showFailuresOpensThePeek(session: Session): Promise<void> {
  const { page } = session;
  const check = session.check('Show Failures opens the first failing case and its peek');
  await check.step('run "EvalLens: Show Failures"', () => runCommand(page, 'EvalLens: Show Failures'));
  // Every failing case of the suite's workspace lives in a JSONL dataset.
  await check.step('a JSONL dataset is the active editor', () =>
    page
      .locator('.tabs-container .tab.active[data-resource-name$=".jsonl"]')
      .first()
      .waitFor({ state: 'visible', timeout: UI_LIMIT_MS }),
  );
  // The peek is a zone widget of the editor: its outer node has the class VS Code gives it, its inner one `peekview-widget`.
  const peek = page.locator('.editor-group-container.active .zone-widget.test-output-peek').first();
  await check.step('a failure peek opens in it', () => peek.waitFor({ state: 'visible', timeout: UI_LIMIT_MS }));
  await check.step("the peek is titled with a failing scorer's header", async () => {
    await pollUntil(
      async () => {
        const title = ((await peek.locator('.peekview-title').first().textContent()) ?? '').replace(/\u00a0/g, ' ');
        return /\w (failed|errored)\b/.test(title);
      },
      'the peek\'s title to say "<scorer> failed …"',
      UI_LIMIT_MS,
    );
  });
  await check.capture('peek');
}
