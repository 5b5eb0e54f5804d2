/**
 * The results view with 100,000 results in a real browser (headless Chromium, the panel's own HTML and
 * CSP; see support/panelPage.ts): the summary and the first rows show from the report's first chunk,
 * before the rest has come; then a search finds a case near the end, and a scroll to the bottom shows
 * the table's last row, with only the rows in view in the DOM. What it checks, not how fast
 * (bench/resultsView.mjs measures that).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { reportMessages } from '../../extension/results/reportMessages';
import { NO_CHROMIUM, openPanelPage, type PanelPage, WAIT_MS } from './support/panelPage';
import { caseId, reportOf } from './support/runs';

const CASES = 33_334;

describe('results view at 100,000 results in a browser', { skip: NO_CHROMIUM }, () => {
  let panel: PanelPage;
  const page = () => panel.page;
  const report = reportOf(CASES);
  const total = report.results.length.toLocaleString('en-US');

  before(async () => {
    panel = await openPanelPage({ width: 1400, height: 900 });
  });

  after(async () => {
    await panel.close();
  });

  it('shows the summary and the first rows from the first chunk, then every result', async () => {
    const [first, ...rest] = reportMessages(report);
    assert.ok(first !== undefined && rest.length > 1, 'the report comes in several chunks');
    await panel.send([first]);
    await page().waitForFunction(
      (cases) =>
        (document.querySelector('.summary .case-counts')?.textContent ?? '').startsWith(`${cases} cases:`) &&
        document.querySelector('.summary .run-status')?.textContent === 'loading…' &&
        document.querySelectorAll('.rows .row').length > 0,
      CASES,
      { timeout: WAIT_MS },
    );
    await panel.send(rest);
    await page().waitForFunction(
      (n) =>
        document.querySelector('.toolbar .count')?.textContent === `${n} results` &&
        document.querySelector('.summary .run-status')?.textContent === 'finished',
      total,
      { timeout: WAIT_MS },
    );
  });

  it('finds a case near the end with a search over every result', async () => {
    const target = caseId(CASES - 3);
    const hits = report.results.filter((r) => r.caseId === target).length;
    await page().locator('.toolbar .search').fill(target);
    await page().waitForFunction(
      ([id, text]) =>
        document.querySelector('.toolbar .count')?.textContent === text &&
        Array.from(document.querySelectorAll('.rows .case-link')).some((link) => link.textContent === id),
      [target, `${hits} of ${total} results`] as const,
      { timeout: WAIT_MS },
    );
  });

  it('scrolls to the last row, keeping only the rows in view in the DOM', async () => {
    await page().locator('.toolbar .search').fill('');
    await page().waitForFunction(
      (n) => document.querySelector('.toolbar .count')?.textContent === `${n} results`,
      total,
      {
        timeout: WAIT_MS,
      },
    );
    // Down the whole table in steps, as a fast scroll goes: each step's rows replace the last's.
    // (No named function in the page's code: tsx would add a helper the page lacks.)
    await page().evaluate(async () => {
      const viewport = document.querySelector('.viewport');
      if (!(viewport instanceof HTMLElement)) return;
      for (let step = 1; step <= 20; step++) {
        viewport.scrollTop = ((viewport.scrollHeight - viewport.clientHeight) * step) / 20;
        await new Promise((resolve) => requestAnimationFrame(resolve));
      }
    });
    await page().waitForFunction(
      () => {
        const rowCount = Number(document.querySelector('.table')?.getAttribute('aria-rowcount'));
        const shown = Array.from(document.querySelectorAll('.rows .row')).map((r) =>
          Number(r.getAttribute('aria-rowindex')),
        );
        return shown.length > 0 && Math.max(...shown) === rowCount;
      },
      undefined,
      { timeout: WAIT_MS },
    );
    const rows = await page().evaluate(() =>
      Array.from(document.querySelectorAll('.rows .row')).map((r) => ({
        index: Number(r.getAttribute('aria-rowindex')),
        kind: r.classList.contains('case-row') ? 'case' : 'scorer',
        caseLink: r.querySelector('.case-link')?.textContent ?? '',
        status: r.querySelector('.col-status .badge')?.textContent ?? '',
      })),
    );
    assert.ok(rows.length > 10 && rows.length < 120, `${rows.length} rows in the DOM`);
    // Rows reused from further up show their new row's content: in order, case rows with their case link, scorer rows without.
    rows.forEach((row, i) => {
      if (i > 0) assert.equal(row.index, (rows[i - 1]?.index ?? 0) + 1, 'consecutive rows');
      assert.equal(row.kind === 'case', row.caseLink !== '', `row ${row.index}: ${JSON.stringify(row)}`);
      assert.notEqual(row.status, '');
    });
    assert.deepEqual(await page().evaluate(() => window.violations), []);
  });
});
