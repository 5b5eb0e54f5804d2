/**
 * VS Code's Testing views as a person reads them: the Test Explorer tree (rows labelled
 * "<label> (<state>)", e.g. "sale-items (Failed), in 4.0ms") and the Test Results panel (a tree of
 * runs, tests and messages beside the selected message, or its expected/actual diff).
 */
import type { Locator, Page } from 'playwright-core';
import { pollUntil } from './poll';
import { runCommand, UI_LIMIT_MS } from './workbench';

export type TestState = 'Passed' | 'Failed' | 'Errored' | 'Skipped' | 'Not yet run';

/** Discovering tests means activating the extension and reading every config: give it time. */
const DISCOVERY_LIMIT_MS = 30_000;
/** Running every example's cases, the NL2SQL ones on SQLite among them. */
export const RUN_LIMIT_MS = 60_000;

function explorerTree(page: Page): Locator {
  return page.locator('.test-explorer-tree');
}

/** Focuses the Test Explorer and expands every item it lists so far, so each case has its row. */
export async function showAllTests(page: Page): Promise<void> {
  await runCommand(page, 'Testing: Focus on Test Explorer View', DISCOVERY_LIMIT_MS);
  await explorerTree(page)
    .locator('.monaco-list-row')
    .first()
    .waitFor({ state: 'visible', timeout: DISCOVERY_LIMIT_MS });
  await pollUntil(async () => !(await expandOneItem(page)), 'every Test Explorer item to be expanded', UI_LIMIT_MS);
}

/**
 * Expands the first collapsed item of the Test Explorer; false when none is. Items can arrive (and
 * arrive collapsed) after `showAllTests` looked, as configs are read, so the waits below expand too.
 */
async function expandOneItem(page: Page): Promise<boolean> {
  const collapsed = explorerTree(page).locator('.monaco-tl-twistie.collapsible.collapsed').first();
  if ((await collapsed.count()) === 0) return false;
  // The tree may redraw between the count and the click; the next poll looks again.
  await collapsed.click({ timeout: 1000 }).catch(() => undefined);
  return true;
}

/** The Test Explorer row of the test labelled `label`. */
export function testRow(page: Page, label: string): Locator {
  return explorerTree(page)
    .locator(`.monaco-list-row[aria-label^=${JSON.stringify(`${label} (`)}]`)
    .first();
}

/** Waits until the Test Explorer shows a row for `label`, expanding items that arrived collapsed. */
export async function revealTestRow(page: Page, label: string, limitMs = DISCOVERY_LIMIT_MS): Promise<void> {
  await waitForRow(page, testRow(page, label), limitMs).catch((error: unknown) => {
    throw new Error(`expected the test "${label}" in the Test Explorer; it has no row for it`, { cause: error });
  });
}

/** Waits until the Test Explorer shows `label` in `state`; the error names the state it had. */
export async function waitForTestState(
  page: Page,
  label: string,
  state: TestState,
  limitMs = RUN_LIMIT_MS,
): Promise<void> {
  const row = explorerTree(page)
    .locator(`.monaco-list-row[aria-label^=${JSON.stringify(`${label} (${state})`)}]`)
    .first();
  try {
    await waitForRow(page, row, limitMs);
  } catch {
    const seen =
      (await testRow(page, label)
        .getAttribute('aria-label', { timeout: 1000 })
        .catch(() => null)) ?? 'no such row';
    throw new Error(`expected the test "${label}" to be ${state} in the Test Explorer; its row reads: ${seen}`);
  }
}

async function waitForRow(page: Page, row: Locator, limitMs: number): Promise<void> {
  await pollUntil(
    async () => {
      if (await row.isVisible()) return true;
      await expandOneItem(page);
      return false;
    },
    'the Test Explorer row',
    limitMs,
  );
}

/** The state the Test Explorer shows for `label` now ("Not yet run", "Passed", …). */
export async function testState(page: Page, label: string): Promise<string> {
  await revealTestRow(page, label);
  const aria = (await testRow(page, label).getAttribute('aria-label')) ?? '';
  return /\(([^)]*)\)/.exec(aria)?.[1] ?? aria;
}

/** Focuses the Test Results panel (listed once a run has results). */
export async function showTestResults(page: Page): Promise<void> {
  await runCommand(page, 'Test Results: Focus on Test Results View');
  await page.locator('.test-output-peek-tree').first().waitFor({ state: 'visible' });
}

/** A row of the Test Results tree (a run, a test or a message) that shows `text`. */
export function resultsRow(page: Page, text: string): Locator {
  return page.locator('.test-output-peek-tree .monaco-list-row').filter({ hasText: text }).first();
}

/** The expected/actual diff the Test Results panel shows for the selected message. */
export function resultsDiff(page: Page): Locator {
  return page.locator('.test-output-peek-message-container .monaco-diff-editor').first();
}
