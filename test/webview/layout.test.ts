/**
 * The results view's layout at the widths a panel has in VS Code (a side-by-side editor group is
 * 420–900 px wide, a full window 1400 px), in headless Chromium: no table cell that is visible is
 * under the detail pane or anything else, the detail goes below the table when the panel is narrow
 * and beside it when wide, a long case id wraps as words do (not one letter per line), the reason
 * column ends in an ellipsis, and the header stays over its columns when the table scrolls sideways.
 * Screenshots of each width go to $TMPDIR/evallens-webview-layout/ for a person to look at.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Report } from '../../core/report/report';
import { reportMessages } from '../../extension/results/reportMessages';
import { NO_CHROMIUM, openPanelPage, type PanelPage, WAIT_MS } from './support/panelPage';
import { CONFIG, reportOf } from './support/runs';

const LONG_ID = 'case_about_a_refund_for_an_item_damaged_in_international_shipping_with_no_spaces_000';
const LONG_REASON =
  'the value is missing from the output, which talks about something else entirely for several sentences in a row';
const SHOTS = join(tmpdir(), 'evallens-webview-layout');

interface Box {
  readonly l: number;
  readonly t: number;
  readonly r: number;
  readonly b: number;
}

interface Layout {
  readonly table: Box;
  readonly detail: Box | null;
  readonly visibleCells: number;
  readonly problems: readonly string[];
  readonly titleWidth: number;
  readonly rootOverflowsSideways: boolean;
}

/**
 * Measures in the page. A string, not a function: Playwright would send a function as its source
 * after tsx's transform, with helpers the page does not have. A cell's visible part is its box cut
 * by every ancestor that clips (overflow not visible), by the window, and for a row by the header.
 */
const MEASURE = `(() => {
  const boxOf = (r) => ({ l: r.left, t: r.top, r: r.right, b: r.bottom });
  const visiblePart = (element) => {
    let box = boxOf(element.getBoundingClientRect());
    for (let a = element.parentElement; a !== null; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const r = a.getBoundingClientRect();
      const l = r.left + a.clientLeft;
      const t = r.top + a.clientTop;
      box = { l: Math.max(box.l, l), t: Math.max(box.t, t), r: Math.min(box.r, l + a.clientWidth), b: Math.min(box.b, t + a.clientHeight) };
    }
    return { l: Math.max(box.l, 0), t: Math.max(box.t, 0), r: Math.min(box.r, innerWidth), b: Math.min(box.b, innerHeight) };
  };
  const isEmpty = (b) => b.r - b.l < 1 || b.b - b.t < 1;
  const meet = (a, b) => Math.min(a.r, b.r) - Math.max(a.l, b.l) > 0.5 && Math.min(a.b, b.b) - Math.max(a.t, b.t) > 0.5;
  const round = (b) => [b.l, b.t, b.r, b.b].map(Math.round).join(',');
  const detailElement = document.querySelector('.detail');
  const detail = detailElement === null || detailElement.hidden ? null : boxOf(detailElement.getBoundingClientRect());
  const table = boxOf(document.querySelector('.table').getBoundingClientRect());
  const problems = [];
  if (detail !== null && meet(table, detail)) problems.push('the table (' + round(table) + ') overlaps the detail pane (' + round(detail) + ')');
  let visibleCells = 0;
  for (const cell of document.querySelectorAll('.table .cell')) {
    const part = visiblePart(cell);
    // Rows scroll under the sticky header by design: what the header covers is not visible.
    const header = cell.closest('.rows') === null ? null : document.querySelector('.table .row.header');
    const box = header === null ? part : { ...part, t: Math.max(part.t, header.getBoundingClientRect().bottom) };
    if (isEmpty(box)) continue;
    visibleCells++;
    const name = JSON.stringify(cell.textContent) + ' at ' + round(box);
    if (detail !== null && meet(box, detail)) problems.push('cell ' + name + ' overlaps the detail pane at ' + round(detail));
    const top = document.elementFromPoint((box.l + box.r) / 2, (box.t + box.b) / 2);
    if (top === null || !(top === cell || cell.contains(top))) problems.push('cell ' + name + ' is under ' + (top === null ? 'nothing' : top.tagName + '.' + top.className));
  }
  const title = document.querySelector('.detail-head h2');
  const root = document.getElementById('root');
  return { table, detail, visibleCells, problems, titleWidth: title === null ? 0 : title.getBoundingClientRect().width, rootOverflowsSideways: root.scrollWidth > root.clientWidth + 1 };
})()`;

function reportWithLongNames(): Report {
  const report = reportOf(30);
  const last = report.cases.length - 1;
  const id = (caseId: string) => (caseId === report.cases[last]?.id ? LONG_ID : caseId);
  return {
    ...report,
    cases: report.cases.map((c) => ({ ...c, id: id(c.id) })),
    results: report.results.map((r) => ({
      ...r,
      caseId: id(r.caseId),
      reason: r.caseId === report.cases[last]?.id ? LONG_REASON : r.reason,
    })),
  };
}

describe('results view layout at panel widths', { skip: NO_CHROMIUM }, () => {
  let panel: PanelPage;

  before(async () => {
    panel = await openPanelPage({ width: 1400, height: 800 });
    await panel.send(reportMessages(reportWithLongNames()));
    const page = panel.page;
    await page.waitForFunction(() => document.querySelectorAll('.rows .row').length > 0, undefined, {
      timeout: WAIT_MS,
    });
    // Sorted by case, the long id is last (open, as it has an inconclusive result): select its last scorer and open its detail.
    await page.locator('.row.header .cell', { hasText: 'Case' }).first().click();
    await page.locator('.table').focus();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () => window.posted.some((m) => (m as { type?: string }).type === 'case/request'),
      undefined,
      { timeout: WAIT_MS },
    );
    await panel.send([
      {
        type: 'case/data',
        configFile: CONFIG,
        caseId: LONG_ID,
        data: {
          id: LONG_ID,
          input: 'Can I get a refund for a damaged parcel?',
          output: 'Yes, within 30 days.',
          expected: 'Returns within 30 days.',
        },
      },
    ]);
    await page.waitForFunction(
      () => (document.querySelector('.detail')?.textContent ?? '').includes('Diff (expected → output)'),
      undefined,
      { timeout: WAIT_MS },
    );
    mkdirSync(SHOTS, { recursive: true });
  });

  after(async () => {
    await panel.close();
  });

  /** Resizes the panel, lets the view lay out, saves a screenshot and measures. */
  async function at(width: number, name: string): Promise<Layout> {
    const page = panel.page;
    await page.setViewportSize({ width, height: 800 });
    // Two frames: the resize's layout, then anything the view re-rendered for it.
    await page.evaluate(
      () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
    );
    await page.screenshot({ path: join(SHOTS, `${name}.png`) });
    return (await page.evaluate(MEASURE)) as Layout;
  }

  for (const width of [420, 600, 900, 1400]) {
    it(`at ${width} px no visible cell is under the detail pane, which is ${width < 960 ? 'below' : 'beside'} the table`, async (t) => {
      const layout = await at(width, `results-view-${width}`);
      t.diagnostic(`screenshot: ${join(SHOTS, `results-view-${width}.png`)}`);
      assert.deepEqual(layout.problems, []);
      assert.ok(layout.visibleCells >= 12, `${layout.visibleCells} cells visible`);
      const detail = layout.detail;
      assert.ok(detail !== null, 'the detail pane is open');
      if (width < 960)
        assert.ok(detail.t >= layout.table.b, `detail top ${detail.t} is below the table's bottom ${layout.table.b}`);
      else
        assert.ok(
          detail.l >= layout.table.r,
          `detail left ${detail.l} is right of the table's right ${layout.table.r}`,
        );
      // A title one letter wide was the bug; the title keeps at least 12em (about 180 px here) or the pane's width.
      assert.ok(
        layout.titleWidth >= Math.min(170, detail.r - detail.l - 24),
        `the case title is ${layout.titleWidth} px wide`,
      );
      assert.equal(layout.rootOverflowsSideways, false, 'nothing sticks out of the panel sideways');
    });
  }

  it('cuts a long reason with an ellipsis and keeps it whole in the tooltip', async () => {
    await at(1400, 'results-view-1400-reason');
    const reason = panel.page.locator('.rows .row.selected .col-reason');
    assert.equal(await reason.getAttribute('title'), LONG_REASON);
    const cut = await reason.evaluate((cell) => ({
      overflow: getComputedStyle(cell).textOverflow,
      clipped: cell.scrollWidth > cell.clientWidth,
    }));
    assert.deepEqual(cut, { overflow: 'ellipsis', clipped: true });
  });

  it('at 420 px scrolls the table sideways with its header over the same columns, still under nothing', async () => {
    const page = panel.page;
    await at(420, 'results-view-420');
    const scrolled = await page.evaluate(() => {
      const viewport = document.querySelector('.table .viewport');
      if (viewport === null) return 0;
      viewport.scrollLeft = viewport.scrollWidth;
      return viewport.scrollLeft;
    });
    assert.ok(scrolled > 0, 'the columns are wider than the panel, so the table scrolls sideways');
    const layout = await at(420, 'results-view-420-scrolled');
    assert.deepEqual(layout.problems, []);
    const lefts = await page.evaluate(() =>
      ['.row.header .cell:nth-last-child(2)', '.rows .row .col-reason'].map(
        (selector) => document.querySelector(selector)?.getBoundingClientRect().left,
      ),
    );
    assert.equal(typeof lefts[0], 'number');
    assert.equal(lefts[0], lefts[1], 'the Reason header is over the reason cells');
  });
});
