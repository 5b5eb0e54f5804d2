/**
 * The view's half of surviving a window reload, in headless Chromium: it saves which run it shows
 * with its choices, and after a reload (the page starts again with the saved state, as a revived
 * panel does) it shows the report the host sends again with those choices, or the host's notice of
 * why the run cannot be shown. The host's half is extension/results/panelSerializer.ts + savedRun.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { reportMessages } from '../../extension/results/reportMessages';
import { savedSourceOf } from '../../extension/results/savedRun';
import { NO_CHROMIUM, openPanelPage, type PanelPage, WAIT_MS } from './support/panelPage';
import { CONFIG, reportOf } from './support/runs';

describe('results view across a reload', { skip: NO_CHROMIUM }, () => {
  let panel: PanelPage;

  before(async () => {
    panel = await openPanelPage({ width: 1200, height: 800 });
  });

  after(async () => {
    await panel.close();
  });

  it('saves the run it shows, and after a reload shows it again with the same filter, selection and detail', async () => {
    const page = panel.page;
    const report = reportOf(20, 'run-restore');
    await panel.send(reportMessages(report));
    await page.waitForFunction(
      () => document.querySelector('.toolbar .count')?.textContent === '60 results',
      undefined,
      { timeout: WAIT_MS },
    );
    await page.locator('.toolbar .chip.status-fail').click();
    await page.locator('.table').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('.detail h2') !== null, undefined, { timeout: WAIT_MS });
    const selectedBefore = await page.locator('.rows .row.selected').textContent();
    const titleBefore = await page.locator('.detail h2').textContent();

    assert.deepEqual(
      savedSourceOf(await panel.savedState()),
      { runId: 'run-restore', configFile: CONFIG, kind: 'report', complete: true },
      'the host can find the run from what the view saved',
    );

    await panel.reload();
    // What the host does for a revived panel once the view is ready: the run's report again.
    await panel.send(reportMessages(report));
    await page.waitForFunction(
      () => document.querySelector('.detail h2') !== null && document.querySelector('.rows .row.selected') !== null,
      undefined,
      { timeout: WAIT_MS },
    );
    assert.equal(await page.locator('.rows .row.selected').textContent(), selectedBefore);
    assert.equal(await page.locator('.detail h2').textContent(), titleBefore);
    assert.equal(await page.locator('.toolbar .chip.status-fail').getAttribute('aria-pressed'), 'true');
    assert.match((await page.locator('.toolbar .count').textContent()) ?? '', /^\d+ of 60 results$/);
  });

  it('shows the host’s notice when the run cannot be shown again, and keeps the saved run for the next reload', async () => {
    const page = panel.page;
    await panel.reload();
    const notice =
      'Run live-1 of /work/evals/support.eval.yaml was in progress when the window closed and ended with it, before writing its report.';
    await panel.send([{ type: 'view/clear', notice }]);
    await page.waitForFunction((text) => document.querySelector('.empty')?.textContent === text, notice, {
      timeout: WAIT_MS,
    });
    assert.equal(await page.locator('.empty').isVisible(), true);
    assert.equal(await page.locator('.rows .row').count(), 0);
    assert.equal(
      savedSourceOf(await panel.savedState())?.runId,
      'run-restore',
      'a restore alone saves nothing over the saved run',
    );

    await panel.send(reportMessages(reportOf(3, 'run-next')));
    await page.waitForFunction(() => document.querySelector('.empty')?.hasAttribute('hidden') === true, undefined, {
      timeout: WAIT_MS,
    });
    assert.equal(savedSourceOf(await panel.savedState())?.runId, 'run-next');
  });
});
