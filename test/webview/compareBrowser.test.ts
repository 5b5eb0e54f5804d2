/**
 * Error bars and the compare mode in a real browser (headless Chromium, the panel's real HTML and
 * CSP; support/panelPage.ts), on two real runs of the quick-start example made by the built CLI and
 * the CLI's real comparison of them (support/compareRuns.ts), and on the CLI's comparison of two
 * 100,000-case runs.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Report } from '../../core/report/report';
import {
  compareMessages,
  listRuns,
  parseComparison,
  runChoice,
  runCompare,
} from '../../extension/results/compareSource';
import { reportMessages } from '../../extension/results/reportMessages';
import { CLI } from '../support/cli';
import { type ComparedRuns, makeComparedRuns, REGRESSED, writeLargeReport } from './support/compareRuns';
import { NO_CHROMIUM, openPanelPage, type PanelPage, WAIT_MS } from './support/panelPage';

const LARGE = 100_000;

describe('error bars and compare mode in a browser', { skip: NO_CHROMIUM }, () => {
  let panel: PanelPage;
  let runs: ComparedRuns;
  const page = () => panel.page;
  /** Waits until the case count reads `text`; on a timeout, says what it read. */
  const waitForCount = async (text: string): Promise<void> => {
    try {
      await page().waitForFunction((t) => document.querySelector('.compare-toolbar .count')?.textContent === t, text, {
        timeout: WAIT_MS,
      });
    } catch (e) {
      const seen = await page().locator('.compare-toolbar .count').textContent();
      throw new Error(`expected the count "${text}", saw "${seen ?? ''}": ${(e as Error).message}`);
    }
  };

  before(async () => {
    runs = await makeComparedRuns();
    panel = await openPanelPage({ width: 1400, height: 900 });
  });

  after(async () => {
    await panel.close();
    runs.cleanup();
  });

  it('draws each scorer’s pass rate and mean with its interval; a too-wide one dashed, saying why', async () => {
    const report = JSON.parse(readFileSync(join(runs.candidateRun, 'report.json'), 'utf8')) as Report;
    await panel.send(reportMessages(report));
    await page().waitForFunction(
      () => document.querySelectorAll('table.scorers svg.error-bar').length === 6,
      undefined,
      {
        timeout: WAIT_MS,
      },
    );
    // contains: 19 of 31 pass, the Wilson interval about ±17 points: too wide (more than ±10 points).
    const contains = page().locator('table.scorers tr', { hasText: 'contains' });
    const bars = contains.locator('svg.error-bar');
    assert.equal(await bars.count(), 2);
    const rateTitle = (await contains.locator('.error-bar-wrap').nth(0).getAttribute('title')) ?? '';
    assert.match(
      rateTitle,
      /^pass rate 61\.3%, 95% Wilson interval [\d.]+% to [\d.]+% \(31 decided results\)\. Too wide to mean anything: ±[\d.]+% is more than 10% of the scale \(0%–100%\)$/,
    );
    assert.equal(await bars.nth(0).getAttribute('class'), 'error-bar too-wide');
    assert.equal(await bars.nth(0).locator('line.interval[stroke-dasharray]').count(), 1, 'dashed');
    // secret_scan passes everywhere: the interval is [100%, 100%] at the right end, not too wide.
    const secret = page().locator('table.scorers tr', { hasText: 'secret_scan' }).locator('svg.error-bar').first();
    assert.equal(await secret.getAttribute('class'), 'error-bar');
    const mean = secret.locator('circle.mean');
    assert.equal(await mean.getAttribute('cx'), '116', 'a pass rate of 100% at the axis end (120 − 4)');
    assert.deepEqual(await page().evaluate(() => window.violations), []);
  });

  it('shows two real runs side by side: both figures and the delta drawn, p-values, verdict, the cases worst first', async () => {
    const listed = await listRuns(runs.runsDir);
    const choices = listed.map((run) => runChoice(run, (file) => file.slice(runs.work.length + 1)));
    const answer = parseComparison(runs.compareJson);
    assert.ok(answer.ok);
    await panel.send([
      { type: 'compare/choices', runs: choices, baseline: runs.baselineRun, candidate: runs.candidateRun },
      { type: 'compare/loading', baseline: runs.baselineRun, candidate: runs.candidateRun },
      ...compareMessages(answer.head, answer.cases, 10),
    ]);
    await waitForCount('32 cases');
    assert.equal(await page().locator('.run-view').isHidden(), true, 'the run view is out of the way');
    assert.equal(
      await page().locator('.compare .case-counts').textContent(),
      '12 regressed, 18 still passing, 1 added, 1 removed',
    );

    const contains = page().locator('table.compare-scorers tbody tr', { hasText: 'contains' });
    const cells = await contains.locator('td').allTextContents();
    assert.equal(cells[0], 'contains (pass rate)');
    assert.match(cells[1] ?? '', /^100% \[100%, 100%\]$/);
    assert.match(cells[2] ?? '', /^61\.3% \[[\d.]+%, [\d.]+%\]$/);
    assert.match(cells[3] ?? '', /^−40% \[−[\d.]+%, −[\d.]+%\]$/);
    // 12 discordant pairs, all one way: p = 2·0.5¹² = 0.000488 raw, Holm ×3 over the three scorers = 0.0015.
    assert.equal(cells[4], '0.0015');
    assert.equal(cells[5], '0.00049');
    assert.equal(cells[6], 'regressed');
    assert.equal(await contains.locator('svg.error-bar').count(), 3, 'baseline, candidate and delta drawn');
    const delta = contains.locator('svg.error-bar').nth(2);
    assert.equal(await delta.getAttribute('class'), 'error-bar regressed');
    assert.equal(await delta.locator('line.zero').count(), 1, 'the delta is drawn around zero');
    assert.match(
      (await contains.locator('.error-bar-wrap').nth(2).getAttribute('title')) ?? '',
      /^delta \(candidate − baseline\) −40%/,
    );
    const similarity = await page()
      .locator('table.compare-scorers tbody tr', { hasText: 'edit_similarity' })
      .locator('td')
      .allTextContents();
    assert.match(similarity[6] ?? '', /^no significant change/);

    const firstRows = await page()
      .locator('.compare-table .compare-rows .crow')
      .evaluateAll((rows) => rows.slice(0, 2).map((r) => Array.from(r.children).map((c) => c.textContent)));
    assert.deepEqual(firstRows, [
      ['case-00', '▼ regressed', 'passed', 'not passed', '−1'],
      ['case-01', '▼ regressed', 'passed', 'not passed', '−1'],
    ]);
    assert.deepEqual(await page().evaluate(() => window.violations), []);
  });

  it('filters to regressions only and searches as the run view does', async () => {
    await page().locator('.compare-toolbar label.toggle input').check();
    await waitForCount(`${REGRESSED} of 32 cases`);
    const transitions = await page().locator('.compare-table .compare-rows .col-transition').allTextContents();
    assert.equal(transitions.length, REGRESSED);
    assert.ok(transitions.every((t) => t === '▼ regressed'));
    await page().locator('.compare-table').click();
    await page().keyboard.press('/');
    await page().keyboard.type('case-1');
    await waitForCount(`2 of 32 cases`);
    assert.deepEqual(await page().locator('.compare-table .compare-rows .col-case').allTextContents(), [
      'case-10',
      'case-11',
    ]);
    await page().locator('.compare-toolbar label.toggle input').uncheck();
    await waitForCount('10 of 32 cases');
    await page().locator('.compare input.search').fill('');
    await waitForCount('32 cases');
  });

  it('asks the host to compare the two runs picked, and to go back to the results', async () => {
    await page().locator('select[aria-label="Baseline run"]').selectOption(runs.candidateRun);
    await page().locator('select[aria-label="Candidate run"]').selectOption(runs.baselineRun);
    await page().locator('button.compare-go').click();
    assert.deepEqual((await panel.posted('compare/request')).at(-1), {
      type: 'compare/request',
      baseline: runs.candidateRun,
      candidate: runs.baselineRun,
    });
    await page().getByRole('button', { name: 'Back to results' }).click();
    assert.deepEqual((await panel.posted('compare/close')).at(-1), { type: 'compare/close' });
  });

  it('says why two runs cannot be compared', async () => {
    await panel.send([
      {
        type: 'compare/failed',
        reason:
          'a/report.json and b/report.json are runs of different configs (x.eval.yaml and y.eval.yaml): compare two runs of the same config',
      },
    ]);
    await page().waitForFunction(
      () =>
        document
          .querySelector('.compare-status')
          ?.textContent?.startsWith('Cannot compare: a/report.json and b/report.json are runs of different configs'),
      undefined,
      { timeout: WAIT_MS },
    );
    assert.equal(await page().locator('.compare-summary').textContent(), '');
    assert.equal(await page().locator('.compare-table .compare-rows .crow').count(), 0);
  });

  it('takes the CLI’s comparison of two 100,000-case runs without freezing: virtualized, filtered and moved through at once', async () => {
    const base = join(runs.work, 'large-base.json');
    const cand = join(runs.work, 'large-cand.json');
    writeLargeReport(base, LARGE, false);
    writeLargeReport(cand, LARGE, true);
    const answer = await runCompare(CLI, base, cand, runs.work);
    assert.ok(answer.ok, answer.ok ? '' : answer.reason);
    assert.equal(answer.cases.length, LARGE);
    const messages = compareMessages(answer.head, answer.cases);
    assert.equal(messages.length, 20, 'a few dozen bounded messages, not one huge one');
    await panel.send(messages);
    await waitForCount('100,000 cases');
    const rendered = await page().locator('.compare-table .compare-rows .crow').count();
    assert.ok(rendered > 10 && rendered < 120, `${rendered} rows in the DOM`);
    // Every 50th case from case 1 regresses, except those that fail in both (i % 10 = 0 never meets i % 50 = 1): 2,000.
    assert.equal(answer.head.counts.regressed, 2000);
    await page().locator('.compare-toolbar label.toggle input').check();
    await waitForCount('2,000 of 100,000 cases');
    await page().locator('.compare-table').focus();
    await page().keyboard.press('End');
    await page().waitForFunction(
      () =>
        document.querySelector('.compare-table .compare-rows .crow.selected .col-case')?.textContent === 'case-099951',
      undefined,
      { timeout: WAIT_MS },
    );
    assert.ok(
      (await page().locator('.compare-table .compare-rows .crow').count()) < 120,
      'still virtualized at the end',
    );
    assert.deepEqual(await page().evaluate(() => window.violations), []);
  });
});
