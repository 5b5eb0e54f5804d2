/**
 * Checking a config as it is typed: an unknown scorer key gets a squiggle and a Problems entry that
 * says which key was meant, and the quick fix replaces it.
 */
import type { Page } from 'playwright-core';
import { pollUntil } from '../support/poll';
import { FIXTURE_FOLDER, type Session } from '../support/session';
import { activeEditor, editorText, goToLine, runCommand, UI_LIMIT_MS } from '../support/workbench';
import { openFile } from '../support/workbench';

const CONFIG = `${FIXTURE_FOLDER}/unknown-scorer.eval.yaml`;
/** Where the misspelled key `contians` starts (1-based, as the status bar shows it). */
const TYPO_LINE = 6;
const TYPO_COLUMN = 3;
const HINT = 'did you mean "contains"';
/** How long one Ctrl+. is given to open the Quick Fix menu before it is pressed again. */
const KEY_ATTEMPT_MS = 3000;

/** The Problems view's rows (the view is opened with Ctrl+Shift+M). */
function problemRows(page: Page): ReturnType<Page['locator']> {
  return page.locator('.markers-panel .monaco-list-row');
}

export async function unknownScorerIsMarked(session: Session): Promise<void> {
  const { page } = session;
  const check = session.check('unknown scorer is marked');
  await check.step(`open ${CONFIG}`, () => openFile(page, CONFIG));
  await check.step('the misspelled key gets an error squiggle', () =>
    activeEditor(page).locator('.squiggly-error').first().waitFor({ state: 'attached' }),
  );
  await check.step(`the Problems view lists it, saying ${HINT}`, async () => {
    await page.keyboard.press('Control+Shift+M');
    await problemRows(page).filter({ hasText: HINT }).first().waitFor({ state: 'visible' });
    const row = (await problemRows(page).filter({ hasText: HINT }).first().textContent()) ?? '';
    if (!row.includes(`[Ln ${TYPO_LINE}, Col ${TYPO_COLUMN}]`))
      throw new Error(`expected the problem at [Ln ${TYPO_LINE}, Col ${TYPO_COLUMN}], the row reads: ${row}`);
  });
  await check.capture();
}

export async function quickFixCorrectsUnknownScorer(session: Session): Promise<void> {
  const { page } = session;
  const check = session.check('quick fix corrects an unknown scorer');
  await check.step(`open ${CONFIG}`, () => openFile(page, CONFIG));
  await check.step('the misspelled key gets an error squiggle', () =>
    activeEditor(page).locator('.squiggly-error').first().waitFor({ state: 'attached' }),
  );
  await check.step('Ctrl+. on the key offers "contains"', async () => {
    const fix = page.locator('.action-widget .monaco-list-row').filter({ hasText: 'contains' }).first();
    // Pressed again when the editor missed it (its focus still coming back from Go to Line).
    await pollUntil(
      async () => {
        await goToLine(page, TYPO_LINE, TYPO_COLUMN);
        await page.keyboard.press('Control+.');
        return fix.waitFor({ state: 'visible', timeout: KEY_ATTEMPT_MS }).then(
          () => true,
          () => false,
        );
      },
      'the Quick Fix menu to offer "contains"',
      UI_LIMIT_MS,
    );
  });
  await check.capture('menu');
  await check.step('applying it replaces the key and the squiggle goes away', async () => {
    // The keyboard, as a person in the editor would: down to the fix, then Enter.
    const focused = page.locator('.action-widget .monaco-list-row.focused');
    await pollUntil(
      async () => {
        if (((await focused.textContent().catch(() => '')) ?? '').includes('contains')) return true;
        await page.keyboard.press('ArrowDown');
        return false;
      },
      'the "contains" fix to be selected in the Quick Fix menu',
      UI_LIMIT_MS,
    );
    await page.keyboard.press('Enter');
    await pollUntil(
      async () => /^ {2}contains:/m.test(await editorText(page)),
      'the line to read "contains:"',
      UI_LIMIT_MS,
    );
    await activeEditor(page).locator('.squiggly-error').first().waitFor({ state: 'detached' });
  });
  await check.capture();
  // Leaves the fixture as it was on disk for the checks after this one.
  await check.step('revert the file', async () => {
    await runCommand(page, 'File: Revert File');
    await pollUntil(
      async () => /^ {2}contians:/m.test(await editorText(page)),
      'the line to read "contians:" again',
      UI_LIMIT_MS,
    );
  });
}
