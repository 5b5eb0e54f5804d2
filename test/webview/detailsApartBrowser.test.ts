/**
 * The detail pane of a report whose results came without their details (`report --stream`,
 * `detailsApart`), in a real browser (support/panelPage.ts): it asks the host for the opened case's
 * details and shows them, as it shows details that came inline.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Report } from '../../core/report/report';
import { reportMessages } from '../../extension/results/reportMessages';
import { NO_CHROMIUM, openPanelPage, type PanelPage, WAIT_MS } from './support/panelPage';
import { caseId, reportOf } from './support/runs';

function withoutDetails(report: Report): Report {
  return { ...report, results: report.results.map(({ details: _d, ...r }) => r) };
}

describe('results view in a browser: details read on request', { skip: NO_CHROMIUM }, () => {
  let panel: PanelPage;
  const page = () => panel.page;
  const detailText = async () => (await page().locator('.detail').textContent()) ?? '';

  before(async () => {
    panel = await openPanelPage({ width: 1400, height: 900 });
  });

  after(async () => {
    await panel.close();
  });

  it('opening a row asks for its case’s details, says it is loading them, then shows them', async () => {
    const report = reportOf(3);
    await panel.send(reportMessages(withoutDetails(report), undefined, true, true));
    const row = page().locator('.rows .case-row', { hasText: caseId(1) });
    await row.waitFor({ timeout: WAIT_MS });
    await row.locator('.col-status').click();
    await page().keyboard.press('Enter');
    await page().waitForFunction(
      () => window.posted.some((m) => (m as { type?: string }).type === 'details/request'),
      undefined,
      { timeout: WAIT_MS },
    );
    assert.deepEqual((await panel.posted('details/request')).at(-1), {
      type: 'details/request',
      runId: report.runId,
      caseId: caseId(1),
    });
    await page().waitForFunction(
      () => (document.querySelector('.detail')?.textContent ?? '').includes('Loading the details from the report…'),
      undefined,
      { timeout: WAIT_MS },
    );
    const judge = report.results.find((r) => r.caseId === caseId(1) && r.scorer === 'judge');
    const reasoning = String(judge?.details?.['reasoning']);
    assert.ok(!(await detailText()).includes(reasoning), 'not in the bulk results');
    await panel.send([
      {
        type: 'details/data',
        runId: report.runId,
        caseId: caseId(1),
        results: report.results
          .filter((r) => r.caseId === caseId(1))
          .map((r) => ({
            scorer: r.scorer,
            trial: r.trial,
            ...(r.details === undefined ? {} : { details: r.details }),
          })),
      },
    ]);
    await page().waitForFunction(
      (text) => (document.querySelector('.detail')?.textContent ?? '').includes(`reasoning: ${text}`),
      reasoning,
      { timeout: WAIT_MS },
    );
    assert.ok(!(await detailText()).includes('Loading the details'));
    assert.deepEqual(await page().evaluate(() => window.violations), []);
  });

  it('says why when the details cannot be read', async () => {
    await panel.send([{ type: 'details/unavailable', runId: 'run-1', caseId: caseId(1), reason: 'the file is gone' }]);
    // The answer for the case shown replaces the loaded one only when it is asked for again: select another case.
    await page()
      .locator('.rows .case-row', { hasText: caseId(2) })
      .locator('.col-status')
      .click();
    await page().waitForFunction(
      (id) =>
        window.posted.some(
          (m) =>
            (m as { type?: string; caseId?: string }).type === 'details/request' &&
            (m as { caseId?: string }).caseId === id,
        ),
      caseId(2),
      { timeout: WAIT_MS },
    );
    await panel.send([{ type: 'details/unavailable', runId: 'run-1', caseId: caseId(2), reason: 'the file is gone' }]);
    await page().waitForFunction(
      () => (document.querySelector('.detail')?.textContent ?? '').includes('Details not available: the file is gone'),
      undefined,
      { timeout: WAIT_MS },
    );
  });
});
