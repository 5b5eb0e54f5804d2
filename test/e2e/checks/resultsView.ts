/**
 * The results view (a webview): it shows the failing case with its reason, and an output that
 * contains HTML as text, never as markup. Each shows a run an earlier check made: the "Run case" of
 * the quick start's failing case, as the last run, through the command palette; and the
 * malformed-dataset check's run, through the "Open results" CodeLens above its config's `scorers:`.
 */
import type { FrameLocator, Page } from 'playwright-core';
import { pollUntil } from '../support/poll';
import type { Session } from '../support/session';
import { openFile, runCommand, UI_LIMIT_MS } from '../support/workbench';
import { MARKUP_CASE, MESSY_CONFIG } from './malformedDataset';

/** The command that opens the view (package.json: evallens.openResults). */
export const RESULTS_COMMAND = 'EvalLens: Open Results';
const OPEN_RESULTS_LENS = 'Open results';
const FAILING = 'sale-items';
const FAILING_REASON = 'the value is missing from the output';
/** The markup in that case's output (test/e2e/fixtures/workspace/messy.jsonl), to be seen as text. */
const MARKUP_TEXT = '<b>Returns</b>';

/** The view's document: VS Code nests a webview's page in two frames. */
function resultsFrame(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready').first().frameLocator('#active-frame');
}

export async function resultsViewShowsFailure(session: Session): Promise<void> {
  const { page } = session;
  const check = session.check('results view shows the failing case');
  await check.step(`run "${RESULTS_COMMAND}" (the last run: "Run case" of ${FAILING})`, () =>
    runCommand(page, RESULTS_COMMAND),
  );
  await check.step(`it shows ${FAILING} with the reason "${FAILING_REASON}"`, async () => {
    const rows = resultsFrame(page).locator('.rows .row');
    try {
      await rows.filter({ hasText: FAILING }).filter({ hasText: FAILING_REASON }).first().waitFor({ state: 'visible' });
    } catch (error) {
      const seen = await rows.allTextContents().catch(() => []);
      throw new Error(`no row of ${FAILING} gives that reason; the view's rows read:\n${seen.join('\n') || '(none)'}`, {
        cause: error,
      });
    }
  });
  await check.capture();
}

export async function resultsViewShowsMarkupAsText(session: Session): Promise<void> {
  const { page } = session;
  const check = session.check('results view shows HTML output as text');
  await check.step(`open ${MESSY_CONFIG}`, () => openFile(page, MESSY_CONFIG));
  await check.step(`click "${OPEN_RESULTS_LENS}" above scorers:`, () =>
    page
      .locator('.editor-group-container.active .codelens-decoration a', { hasText: OPEN_RESULTS_LENS })
      .first()
      .click(),
  );
  const frame = resultsFrame(page);
  const row = frame.locator('.rows .row', { hasText: MARKUP_CASE }).first();
  await check.step(`it shows ${MARKUP_CASE}`, () => row.waitFor({ state: 'visible' }));
  await check.step(`opening its detail shows the output "${MARKUP_TEXT}" as text`, async () => {
    // One double click on the row opens its detail (a single click on the case name reveals the dataset
    // line), even when the report read by the CLI redraws the table between its two clicks.
    const detail = frame.locator('.detail');
    await row.locator('.col-status').dblclick();
    await detail.waitFor({ state: 'visible', timeout: UI_LIMIT_MS });
    await pollUntil(
      async () => (await detail.innerText()).includes(MARKUP_TEXT),
      `the text "${MARKUP_TEXT}" in the detail pane`,
      UI_LIMIT_MS,
    );
    // For the screenshot: the output's text in view.
    await detail.locator('pre', { hasText: MARKUP_TEXT }).first().scrollIntoViewIfNeeded();
  });
  await check.step('no element was made from the output', async () => {
    const injected = await frame.locator('img[src="x"], b:text-is("Returns")').count();
    if (injected > 0)
      throw new Error(`the output's markup was rendered: ${injected} element(s) from it are in the view`);
  });
  await check.capture();
}
