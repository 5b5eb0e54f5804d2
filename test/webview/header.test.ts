/**
 * What the results view shows first, in a real browser: the config by its workspace-relative name
 * and when it ran (the run id and full path only in the tooltip), a score distribution in each
 * scorer's row, the failing cases on top, and in the detail the case's own fields before the
 * results' raw details.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { reportMessages } from '../../extension/results/reportMessages';
import { NO_CHROMIUM, openPanelPage, type PanelPage, WAIT_MS } from './support/panelPage';
import { CONFIG, reportOf } from './support/runs';

describe('results view: header, distributions, order and detail', { skip: NO_CHROMIUM }, () => {
  let panel: PanelPage;

  before(async () => {
    panel = await openPanelPage({ width: 1400, height: 900 });
    await panel.send([
      { type: 'config/label', configFile: CONFIG, label: 'evals/support.eval.yaml' },
      ...reportMessages(reportOf(8)),
    ]);
    await panel.page.waitForFunction(() => document.querySelectorAll('.rows .row').length > 0, undefined, {
      timeout: WAIT_MS,
    });
  });

  after(async () => {
    await panel.close();
  });

  it('names the config as the workspace does and says when the run started; the id and path are in the tooltip', async () => {
    const page = panel.page;
    assert.equal(await page.locator('.run-title').textContent(), 'evals/support.eval.yaml');
    assert.match((await page.locator('.run-when').textContent()) ?? '', /^ran \d{4}-\d\d-\d\d \d\d:\d\d, took 10 s$/);
    assert.equal(await page.locator('.run-title').getAttribute('title'), `run run-1 of ${CONFIG}`);
  });

  it('draws a distribution in each scorer row, on its own scale', async () => {
    const labels = await panel.page
      .locator('table.scorers .distribution')
      .evaluateAll((figures) => figures.map((f) => f.getAttribute('aria-label')));
    assert.deepEqual(labels, [
      'exact_match: 5 scores, 0–1',
      'judge: 8 scores, 0–100',
      'tokens: 8 scores, 100–107 tokens',
    ]);
  });

  it('puts the failing cases on top, open on their scorers, and the passing ones closed below', async () => {
    const rows = await panel.page
      .locator('.rows .case-row')
      .evaluateAll((els) =>
        els.map((e) => `${e.querySelector('.case-link')?.textContent ?? ''} ${e.getAttribute('aria-expanded') ?? ''}`),
      );
    // Case 3 errors, 7 times out, 1 fails exact_match, 0/1/3/4/6 fail the judge, 5 is inconclusive; only 2 passes everything.
    assert.deepEqual(rows, [
      'case-000003 true',
      'case-000007 true',
      'case-000000 true',
      'case-000001 true',
      'case-000004 true',
      'case-000006 true',
      'case-000005 true',
      'case-000002 false',
    ]);
  });

  it("shows the case's input, output and expected before the results' raw details", async () => {
    const page = panel.page;
    await page.locator('.rows .case-row', { hasText: 'case-000001' }).locator('.col-status').dblclick();
    await page.waitForFunction(
      () =>
        window.posted.some(
          (m) =>
            (m as { type?: string; caseId?: string }).type === 'case/request' &&
            (m as { caseId?: string }).caseId === 'case-000001',
        ),
      undefined,
      { timeout: WAIT_MS },
    );
    await panel.send([
      {
        type: 'case/data',
        configFile: CONFIG,
        caseId: 'case-000001',
        data: { id: 'case-000001', input: 'question', output: 'answer', expected: 'the answer' },
      },
    ]);
    await page.waitForFunction(
      () => (document.querySelector('.detail')?.textContent ?? '').includes('Diff (expected → output)'),
      undefined,
      { timeout: WAIT_MS },
    );
    const sections = await page.locator('.detail > details > summary').allTextContents();
    assert.deepEqual(sections.slice(0, 3), ['Input', 'Output', 'Expected']);
    assert.match(sections.at(-1) ?? '', /^Results of this case, with their details \(3\)$/);
    assert.match(
      (await page.locator('.detail > .result.current').textContent()) ?? '',
      /exact_match.*texts differ at character 4/,
    );
  });

  it('closes and opens a case from the keyboard: ← on a scorer goes to its case, ← closes it, → opens it', async () => {
    const page = panel.page;
    await page.keyboard.press('Escape');
    const caseRow = page.locator('.rows .case-row', { hasText: 'case-000003' });
    await caseRow.locator('.col-status').click();
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(
      () => document.querySelector('.rows .row.selected')?.classList.contains('scorer-row') === true,
      undefined,
      { timeout: WAIT_MS },
    );
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(
      () => document.querySelector('.rows .row.selected .case-link')?.textContent === 'case-000003',
      undefined,
      { timeout: WAIT_MS },
    );
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(
      () => document.querySelector('.rows .row.selected')?.getAttribute('aria-expanded') === 'false',
      undefined,
      { timeout: WAIT_MS },
    );
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(
      () => document.querySelector('.rows .row.selected')?.getAttribute('aria-expanded') === 'true',
      undefined,
      { timeout: WAIT_MS },
    );
  });
});
