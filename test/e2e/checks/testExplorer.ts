/**
 * The cases of a dataset as tests: listed in the Test Explorer, run all at once or one by one from a
 * CodeLens on its dataset line, with a failing case's reason and expected/actual diff in Test Results.
 * The CodeLens check runs before "Run All Tests", so it sees the other cases not yet run.
 *
 * The quick start's failing case fails `contains` and `edit_similarity`, whose results carry no
 * expected/actual pair (a Test Results message is a diff only when the scorer's details have both,
 * extension/testing/runEventMapper.ts), so the diff is checked on the suite's exact_match config.
 */
import type { Page } from 'playwright-core';
import type { Session } from '../support/session';
import {
  resultsDiff,
  resultsRow,
  revealTestRow,
  showAllTests,
  showTestResults,
  testState,
  waitForTestState,
} from '../support/testing';
import { pollUntil } from '../support/poll';
import { openFile, runCommand, UI_LIMIT_MS } from '../support/workbench';

const DATASET = 'quickstart/refunds.jsonl';
/** The quick start's cases in dataset order; sale-items (line 4) fails on purpose. */
const CASES = ['refund-window', 'refund-method', 'damaged-item', 'sale-items'];
const FAILING = 'sale-items';
const FAILING_LINE = 4;
/** How Test Results words the failing scorer's message (its first line, the row's label): scorer, verdict, score. */
const FAILING_REASON = 'contains failed · score 0';
/** test/e2e/fixtures/workspace/exact.eval.yaml's failing case (omits-window) and its message's first line. */
const DIFF_MESSAGE = 'exact_match failed · score 0';
/** Its two sides (test/e2e/fixtures/workspace/answers.jsonl, line 2): expected, then the output. */
const DIFF_SIDES = ['Sale items can be returned within 30 days.', 'Sale items can be returned.'];

export async function explorerListsCases(session: Session): Promise<void> {
  const { page } = session;
  const check = session.check('Test Explorer lists the cases');
  await check.step('open the Test Explorer and expand every item', () => showAllTests(page));
  await check.step(`it lists the quick start's cases (${CASES.join(', ')})`, async () => {
    for (const label of CASES) await revealTestRow(page, label);
  });
  await check.capture();
}

export async function codeLensRunsOneCase(session: Session): Promise<void> {
  const { page } = session;
  const check = session.check('CodeLens runs one case');
  await check.step('open the Test Explorer and expand every item', () => showAllTests(page));
  await check.step(`open ${DATASET}`, () => openFile(page, DATASET));
  await check.step(`click "Run case" above line ${FAILING_LINE} (${FAILING})`, async () => {
    const lens = await runCaseLens(page, FAILING_LINE);
    await lens.click();
  });
  await check.step(`${FAILING} is run and fails`, () => waitForTestState(page, FAILING, 'Failed'));
  await check.step('the other cases were not run', async () => {
    for (const label of CASES.filter((name) => name !== FAILING)) {
      const state = await testState(page, label);
      if (state !== 'Not yet run')
        throw new Error(`expected "${label}" not to have run, the Test Explorer shows it as: ${state}`);
    }
  });
  await check.capture();
}

export async function runAllMarksCases(session: Session): Promise<void> {
  const { page } = session;
  const check = session.check('Run All Tests marks passing and failing cases');
  await check.step('open the Test Explorer and expand every item', () => showAllTests(page));
  await check.step('run "Test: Run All Tests"', () => runCommand(page, 'Test: Run All Tests'));
  await check.step(`${FAILING} fails and the other quick start cases pass`, async () => {
    await waitForTestState(page, FAILING, 'Failed');
    for (const label of CASES.filter((name) => name !== FAILING)) await waitForTestState(page, label, 'Passed');
  });
  await check.capture('explorer');
  await check.step(`Test Results shows ${FAILING}'s reason`, async () => {
    await showTestResults(page);
    await resultsRow(page, FAILING_REASON).waitFor({ state: 'visible' });
  });
  await check.step(`selecting the message "${DIFF_MESSAGE}…" opens its expected/actual diff`, async () => {
    await resultsRow(page, DIFF_MESSAGE).click();
    const diff = resultsDiff(page);
    await diff.waitFor({ state: 'visible' });
    await pollUntil(
      async () => {
        const text = ((await diff.textContent()) ?? '').replace(/\u00a0/g, ' ');
        return DIFF_SIDES.every((side) => text.includes(side));
      },
      `the diff to show "${DIFF_SIDES.join('" and "')}"`,
      UI_LIMIT_MS,
    );
  });
  await check.capture();
}

/** The "Run case" CodeLens shown above the 1-based `line` of the active editor, picked by its place on screen. */
export async function runCaseLens(page: Page, line: number): Promise<ReturnType<Page['locator']>> {
  const lenses = page.locator('.editor-group-container.active .codelens-decoration a', { hasText: 'Run case' });
  await lenses.nth(line - 1).waitFor({ state: 'visible' });
  const tops = await lenses.evaluateAll((nodes) => nodes.map((node) => node.getBoundingClientRect().top));
  const order = tops.map((top, index) => ({ top, index })).sort((a, b) => a.top - b.top);
  const picked = order[line - 1];
  if (picked === undefined)
    throw new Error(`expected a "Run case" CodeLens for each of the first ${line} lines, found ${tops.length}`);
  return lenses.nth(picked.index);
}
