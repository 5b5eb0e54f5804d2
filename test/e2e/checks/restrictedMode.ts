/**
 * Restricted Mode: the person answers the trust dialog "No"; the config is still checked, and a
 * subprocess scorer (which would run workspace code) is skipped with the trust reason.
 *
 * VS Code itself asks for trust before a run started from its Testing UI ("Running tests may execute
 * code in your workspace"), so the case is run from its "Run case" CodeLens, which the extension
 * serves in Restricted Mode too.
 */
import type { Page } from 'playwright-core';
import { FIXTURE_FOLDER, type Session } from '../support/session';
import { showAllTests, waitForTestState } from '../support/testing';
import { openFile, runCommand, UI_LIMIT_MS } from '../support/workbench';
import { runCaseLens } from './testExplorer';

const DATASET = `${FIXTURE_FOLDER}/subprocess.jsonl`;
const CASE = 'names-window';
const CASE_LINE = 1;
/** The reason core gives a scorer it skips in an untrusted workspace. */
const TRUST_REASON = /not trusted/i;

/** Answers the workspace trust dialog that opens with the workbench. */
export async function answerTrustDialogNo(page: Page): Promise<void> {
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: UI_LIMIT_MS });
  await dialog.getByRole('button', { name: "No, I don't trust the authors" }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.locator('.statusbar').getByText('Restricted Mode').first().waitFor({ state: 'visible' });
}

export async function restrictedModeDialog(session: Session): Promise<void> {
  const check = session.check('Restricted Mode after answering No');
  await check.step('answer the trust dialog "No, I don\'t trust the authors"', () => answerTrustDialogNo(session.page));
  await check.capture();
}

export async function subprocessScorerSkipped(session: Session): Promise<void> {
  const { page } = session;
  const check = session.check('subprocess scorer skipped in Restricted Mode');
  await check.step('open the Test Explorer and expand every item', () => showAllTests(page));
  await check.step(`open ${DATASET}`, () => openFile(page, DATASET));
  await check.step(`click "Run case" above line ${CASE_LINE} (${CASE})`, async () =>
    (await runCaseLens(page, CASE_LINE)).click(),
  );
  await check.step(`${CASE} is skipped`, () => waitForTestState(page, CASE, 'Skipped'));
  await check.step('Test Results says the workspace is not trusted', async () => {
    await runCommand(page, 'Test Results: Focus on Test Results View');
    await page.locator('.part.panel').filter({ hasText: TRUST_REASON }).first().waitFor({ state: 'visible' });
  });
  await check.capture();
}
