/** Writing a config: completion of scorer keys under `scorers:`, and a scorer's documentation on hover. */
import type { Page } from 'playwright-core';
import { pollUntil } from '../support/poll';
import { FIXTURE_FOLDER, type Session } from '../support/session';
import { activeEditor, editorText, goToLine, openFile, runCommand, UI_LIMIT_MS } from '../support/workbench';

const COMPLETION_CONFIG = `${FIXTURE_FOLDER}/completion.eval.yaml`;
/** The indented empty line under `scorers:` at the end of that file (1-based). */
const COMPLETION_LINE = 8;
const COMPLETION_COLUMN = 3;
/** Keys the list must offer; the first is the one accepted. */
const OFFERED_KEYS = ['edit_similarity', 'exact_match', 'regex'];

const HOVER_CONFIG = 'quickstart/refunds.eval.yaml';
const HOVERED_KEY = 'contains';
/** The start of contains's description in schemas/scorers/contains.schema.json. */
const HOVER_TEXT = 'Passes when the output text contains';
/** How long one hover gets to show before the pointer moves away and hovers again. */
const HOVER_ATTEMPT_MS = 3_000;

export async function completionOffersScorers(session: Session): Promise<void> {
  const { page } = session;
  const check = session.check('completion offers scorer keys');
  const suggestions = page.locator('.suggest-widget .monaco-list-row');
  await check.step(`open ${COMPLETION_CONFIG}`, () => openFile(page, COMPLETION_CONFIG));
  await check.step('Ctrl+Space under scorers: lists scorer keys', async () => {
    await openSuggestions(page, COMPLETION_LINE, COMPLETION_COLUMN);
    for (const key of OFFERED_KEYS) {
      // The list shows a dozen rows at a time: filtering by the key brings it into view.
      await page.keyboard.type(key.slice(0, 4));
      await suggestions.filter({ hasText: key }).first().waitFor({ state: 'visible' });
      for (let typed = 0; typed < 4; typed++) await page.keyboard.press('Backspace');
    }
  });
  await check.capture('list');
  const [accepted = 'edit_similarity'] = OFFERED_KEYS;
  await check.step(`accepting ${accepted} inserts its snippet`, async () => {
    await page.keyboard.type(accepted.slice(0, 8));
    await suggestions.first().filter({ hasText: accepted }).waitFor({ state: 'visible' });
    await page.keyboard.press('Enter');
    await pollUntil(
      async () => new RegExp(`^ {2}${accepted}:`, 'm').test(await editorText(page)),
      `the line to read "${accepted}:"`,
      UI_LIMIT_MS,
    );
  });
  await check.capture();
  await check.step('revert the file', async () => {
    await runCommand(page, 'File: Revert File');
    await pollUntil(
      async () => !new RegExp(`^ {2}${accepted}:`, 'm').test(await editorText(page)),
      `the "${accepted}:" line to be gone`,
      UI_LIMIT_MS,
    );
  });
}

/** How long one Ctrl+Space is given to show the suggest widget before it is pressed again. */
const SUGGEST_ATTEMPT_MS = 3000;

/**
 * Ctrl+Space at a 1-based line and column, until the suggest widget lists suggestions. A keystroke
 * the editor missed (its focus still coming back from Go to Line) shows no widget and is pressed
 * again; a widget that answers with a message ("No suggestions.") fails at once with that message.
 */
async function openSuggestions(page: Page, line: number, column: number): Promise<void> {
  const rows = page.locator('.suggest-widget .monaco-list-row');
  const message = page.locator('.suggest-widget .message');
  /** The widget's message once it is final (not "Loading…"), else undefined. */
  const finalMessage = async (): Promise<string | undefined> => {
    if (!(await message.isVisible())) return undefined;
    const text = ((await message.textContent()) ?? '').trim();
    return text === '' || /loading/i.test(text) ? undefined : text;
  };
  await pollUntil(
    async () => {
      await goToLine(page, line, column);
      await page.keyboard.press('Control+Space');
      const answered = await pollUntil(
        async () => (await rows.first().isVisible()) || (await finalMessage()) !== undefined,
        'the suggest widget',
        SUGGEST_ATTEMPT_MS,
      ).then(
        () => true,
        () => false,
      );
      if (!answered) return false;
      const said = await finalMessage();
      if (said !== undefined)
        throw new Error(`Ctrl+Space at line ${line}, column ${column} lists no suggestions; the widget says: ${said}`);
      return true;
    },
    `the suggest widget to list suggestions at line ${line}, column ${column}`,
    UI_LIMIT_MS,
  );
}

export async function hoverShowsScorerDocs(session: Session): Promise<void> {
  const { page } = session;
  const check = session.check('hover shows scorer documentation');
  await check.step(`open ${HOVER_CONFIG}`, () => openFile(page, HOVER_CONFIG));
  await check.step(`hovering "${HOVERED_KEY}" shows its documentation`, async () => {
    const key = activeEditor(page).locator('.view-line span', { hasText: new RegExp(`^\\s*${HOVERED_KEY}:?$`) });
    const hover = page.locator('.monaco-hover').filter({ hasText: HOVER_TEXT }).first();
    // The editor may still move under the pointer (the Run all CodeLens appears once the cases are
    // discovered, pushing the lines down), which hides a hover or leaves the pointer on another line:
    // hover the key again, wherever it is now, until the documentation shows.
    await pollUntil(
      async () => {
        await page.mouse.move(0, 0);
        await key.first().hover();
        return hover.waitFor({ state: 'visible', timeout: HOVER_ATTEMPT_MS }).then(
          () => true,
          () => false,
        );
      },
      `the hover of "${HOVERED_KEY}" to show "${HOVER_TEXT}"`,
      UI_LIMIT_MS,
    );
  });
  await check.capture();
  await page.keyboard.press('Escape');
}
