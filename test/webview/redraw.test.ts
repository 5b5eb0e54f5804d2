/**
 * A redraw of the table while a person clicks does not lose the click. The report that the CLI reads
 * after a live run can arrive between the two clicks of a double click (seen in CI); the row under
 * the mouse must stay the same element, so the double click still opens the detail at once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { reportMessages } from '../../extension/results/reportMessages';
import { NO_CHROMIUM, openPanelPage, type PanelPage, WAIT_MS } from './support/panelPage';
import { reportOf } from './support/runs';

describe('results view: a redraw during a double click', { skip: NO_CHROMIUM }, () => {
  let panel: PanelPage;

  before(async () => {
    panel = await openPanelPage({ width: 1400, height: 900 });
  });

  after(async () => {
    await panel.close();
  });

  it('opens the detail on one double click even when the same run is redrawn between its clicks', async () => {
    const page = panel.page;
    await panel.send(reportMessages(reportOf(6)));
    await page.waitForFunction(() => document.querySelectorAll('.rows .row').length > 0, undefined, {
      timeout: WAIT_MS,
    });
    const row = page.locator('.rows .row', { hasText: 'case-000002' }).first();
    const box = await row.locator('.col-status').boundingBox();
    assert.ok(box !== null, 'the row is on screen');
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    const redrawn = async (): Promise<void> => {
      await panel.send(reportMessages(reportOf(6)));
      // Two animation frames: the view renders at most once per frame, after the messages.
      await page.evaluate(
        () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
      );
    };
    await page.mouse.move(x, y);
    await page.mouse.down();
    await redrawn();
    await page.mouse.up();
    await page.mouse.down({ clickCount: 2 });
    await redrawn();
    await page.mouse.up({ clickCount: 2 });
    // The view renders the click's outcome on the next frame; no waiting for a second chance.
    await page.evaluate(
      () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
    );
    assert.equal(await page.locator('.detail').isVisible(), true, 'the detail pane opened');
    assert.match((await page.locator('.detail').textContent()) ?? '', /case-000002/);
  });
});
