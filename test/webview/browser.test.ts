/**
 * The results view in a real browser (headless Chromium, inside the panel's real HTML and CSP; see
 * support/panelPage.ts). Checks escaping, CSP, virtualization at 100,000 results, keyboard.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Report } from '../../core/report/report';
import { reportMessages } from '../../extension/results/reportMessages';
import { NO_CHROMIUM, openPanelPage, type PanelPage, WAIT_MS } from './support/panelPage';
import { CONFIG, reportOf } from './support/runs';

const XSS = '<img src=x onerror=alert(1)>';

/** A report whose case id, reason and judge reasoning are markup, as an output could be. */
function hostileReport(): Report {
  const report = reportOf(3);
  const results = report.results.map((r, i) =>
    i === 0 ? { ...r, caseId: XSS, reason: `reason ${XSS}`, details: { reasoning: XSS }, cached: true as const } : r,
  );
  const cases = report.cases.map((c, i) => (i === 0 ? { ...c, id: XSS } : c));
  return { ...report, cases, results };
}

describe('results view in a browser', { skip: NO_CHROMIUM }, () => {
  let panel: PanelPage;
  const page = () => panel.page;
  const send: PanelPage['send'] = (messages) => panel.send(messages);
  const posted: PanelPage['posted'] = (type) => panel.posted(type);

  before(async () => {
    panel = await openPanelPage({ width: 1400, height: 900 });
  });

  after(async () => {
    await panel.close();
  });

  it('shows markup from a run as text: no element is made from it and nothing runs', async () => {
    await send(reportMessages(hostileReport()));
    await page().waitForFunction(() => document.querySelectorAll('.rows .row').length === 9, undefined, {
      timeout: WAIT_MS,
    });
    const hostileRow = page().locator('.rows .case-row', { hasText: XSS });
    assert.equal(await hostileRow.locator('.case-link').textContent(), XSS);

    await hostileRow.locator('.col-status').click();
    await page().keyboard.press('Enter');
    await page().waitForFunction(
      () => window.posted.some((m) => (m as { type?: string }).type === 'case/request'),
      undefined,
      { timeout: WAIT_MS },
    );
    assert.deepEqual((await posted('case/request')).at(-1), { type: 'case/request', configFile: CONFIG, caseId: XSS });
    await send([
      {
        type: 'case/data',
        configFile: CONFIG,
        caseId: XSS,
        data: { id: XSS, input: XSS, output: XSS, expected: `<b>${XSS}</b>` },
      },
    ]);
    await page().waitForFunction(
      () => (document.querySelector('.detail')?.textContent ?? '').includes('Diff (expected → output)'),
      undefined,
      { timeout: WAIT_MS },
    );

    const detail = (await page().locator('.detail').textContent()) ?? '';
    assert.ok(detail.includes(`reason ${XSS}`));
    assert.ok(detail.includes(`reasoning: ${XSS}`), 'the judge reasoning in details is shown as text');
    assert.ok(
      (await page().locator('.detail .result-head .badge.cached').count()) >= 1,
      'a verdict from the result cache is marked',
    );
    assert.equal(await page().locator('img, b').count(), 0, 'no element came from the run');
    assert.deepEqual(panel.dialogs, []);
    assert.deepEqual(await page().evaluate(() => window.violations), []);
  });

  it('reveals a case from its link, with its dataset line', async () => {
    await page().locator('.rows .case-row .case-link', { hasText: 'case-000001' }).click();
    const reveal = (await posted('case/reveal')).at(-1);
    assert.deepEqual(reveal, {
      type: 'case/reveal',
      target: {
        configFile: CONFIG,
        caseId: 'case-000001',
        location: { file: '/work/evals/support.jsonl', line: 2, column: 1 },
      },
    });
  });

  it('keeps only the rows in view in the DOM at 100,000 results, and filters, searches and moves with keys', async () => {
    const report = reportOf(33_334);
    await send(reportMessages(report));
    await page().waitForFunction(
      (n) => document.querySelector('.toolbar .count')?.textContent === `${n} results`,
      report.results.length.toLocaleString('en-US'),
      { timeout: WAIT_MS },
    );
    const rendered = await page().locator('.rows .row').count();
    assert.ok(rendered > 10 && rendered < 120, `${rendered} rows in the DOM`);

    // In dataset order, End goes to the last row: the last scorer of the last case (open: it has an inconclusive result).
    await page().locator('.row.header .col-case, .row.header .cell', { hasText: 'Case' }).first().click();
    await page().locator('.table').focus();
    await page().keyboard.press('End');
    await page().waitForFunction(
      () => {
        const rows = Array.from(document.querySelectorAll('.rows .row'));
        return (
          rows.at(-1)?.classList.contains('selected') === true &&
          Array.from(document.querySelectorAll('.rows .case-row .case-link')).at(-1)?.textContent === 'case-033333'
        );
      },
      undefined,
      { timeout: WAIT_MS },
    );
    assert.ok((await page().locator('.rows .row').count()) < 120, 'still virtualized at the end');

    await page().keyboard.press('/');
    assert.equal(await page().evaluate(() => document.activeElement?.classList.contains('search')), true);
    await page().keyboard.type('case-01234');
    await page().waitForFunction(
      () => document.querySelector('.toolbar .count')?.textContent?.startsWith('30 of '),
      undefined,
      { timeout: WAIT_MS },
    );

    await page().locator('.toolbar .chip.status-error').click();
    await page().waitForFunction(
      () =>
        /^\d+ of /.test(document.querySelector('.toolbar .count')?.textContent ?? '') &&
        Array.from(document.querySelectorAll('.rows .scorer-row .col-status')).every((c) => c.textContent === 'error'),
      undefined,
      { timeout: WAIT_MS },
    );
    assert.ok((await page().locator('.rows .scorer-row').count()) > 0);
    assert.deepEqual(await page().evaluate(() => window.violations), []);
  });
});
