/**
 * A dataset with one malformed JSONL line: the problem is reported at that line, and the other cases
 * still run (one passes, one fails).
 */
import { FIXTURE_FOLDER, type Session } from '../support/session';
import { showAllTests, waitForTestState } from '../support/testing';
import { openFile, runCommand } from '../support/workbench';

export const MESSY_CONFIG = `${FIXTURE_FOLDER}/messy.eval.yaml`;
const BROKEN_LINE = 2;
/** What core says of a line that is not JSON (core/dataset/jsonl.ts). */
const PROBLEM_TEXT = `line ${BROKEN_LINE} is not valid JSON`;
export const MARKUP_CASE = 'markup-output';
const FAILING_CASE = 'missing-window';

export async function malformedLineIsReported(session: Session): Promise<void> {
  const { page } = session;
  const check = session.check('malformed JSONL line is reported');
  await check.step('open the Test Explorer and expand every item', () => showAllTests(page));
  await check.step(`open ${MESSY_CONFIG}`, () => openFile(page, MESSY_CONFIG));
  await check.step('run "Test: Run Tests in Current File"', () => runCommand(page, 'Test: Run Tests in Current File'));
  await check.step('the cases on the good lines still run', async () => {
    await waitForTestState(page, MARKUP_CASE, 'Passed');
    await waitForTestState(page, FAILING_CASE, 'Failed');
  });
  await check.step(`the Problems view shows "${PROBLEM_TEXT}" at messy.jsonl line ${BROKEN_LINE}`, async () => {
    await page.keyboard.press('Control+Shift+M');
    const row = page.locator('.markers-panel .monaco-list-row').filter({ hasText: PROBLEM_TEXT }).first();
    await row.waitFor({ state: 'visible' });
    const text = (await row.textContent()) ?? '';
    if (!text.includes(`[Ln ${BROKEN_LINE},`))
      throw new Error(`expected the problem at line ${BROKEN_LINE}, the row reads: ${text}`);
  });
  await check.capture();
}
