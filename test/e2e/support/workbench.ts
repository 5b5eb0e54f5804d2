/**
 * Driving the workbench as a person does: keyboard shortcuts, the command palette, Quick Open, and
 * what is on screen. Every wait is for a condition, with a bound.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { pollUntil } from './poll';
import { ARTIFACTS, CHROMIUM } from './setup';

export const UI_LIMIT_MS = 15_000;
const WORKBENCH_LIMIT_MS = 60_000;
/** How long one opening of the palette is given to list a command. */
const PALETTE_ATTEMPT_MS = 1500;

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    // This network refuses every host but the registries: without these Chromium keeps trying.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * Opens the workbench on `folder` and waits until it is drawn. `query` adds to the page's URL (the
 * in-host suite's `payload`); `beforeOpen` runs on the page before it loads (e.g. exposeFunction).
 */
export async function openWorkbench(
  browser: Browser,
  serverUrl: string,
  folder: string,
  options: { query?: string; beforeOpen?: (page: Page) => Promise<void> } = {},
): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(UI_LIMIT_MS);
  await options.beforeOpen?.(page);
  await page.goto(
    `${serverUrl}/?folder=${encodeURIComponent(folder)}${options.query === undefined ? '' : `&${options.query}`}`,
    { timeout: WORKBENCH_LIMIT_MS },
  );
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: WORKBENCH_LIMIT_MS });
  return page;
}

/** The visible rows of the quick input (command palette, Quick Open, quick picks). */
export function quickInputRows(page: Page): Locator {
  return page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
}

/**
 * Runs a command by its title through the command palette (F1), as a person would. The palette lists
 * the commands of the moment it opens, so one that an extension has not registered yet (or whose
 * precondition does not hold yet) is looked for again in a freshly opened palette, up to `limitMs`.
 */
export async function runCommand(page: Page, title: string, limitMs = UI_LIMIT_MS): Promise<void> {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  const firstRow = quickInputRows(page).first().filter({ hasText: title });
  await pollUntil(
    async () => {
      await page.keyboard.press('Escape');
      await page.keyboard.press('F1');
      await input.waitFor({ state: 'visible' });
      await input.fill(`>${title}`);
      return firstRow.waitFor({ state: 'visible', timeout: PALETTE_ATTEMPT_MS }).then(
        () => true,
        () => false,
      );
    },
    `the command "${title}" in the command palette`,
    limitMs,
  );
  await page.keyboard.press('Enter');
  await input.waitFor({ state: 'hidden' });
}

/** Opens a workspace file by its path through Quick Open (Ctrl+P) and waits for its editor tab. */
export async function openFile(page: Page, relativePath: string): Promise<void> {
  const name = relativePath.split('/').at(-1) ?? relativePath;
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible' });
  await input.fill(relativePath);
  await waitForFirstRow(page, name);
  await page.keyboard.press('Enter');
  await page.locator(`.tabs-container .tab.active[data-resource-name="${name}"]`).waitFor({ state: 'visible' });
  await activeEditor(page).locator('.view-lines').waitFor({ state: 'visible' });
}

/** The quick input's first row once it shows `text` (it filters as results arrive). */
async function waitForFirstRow(page: Page, text: string): Promise<void> {
  await quickInputRows(page).first().filter({ hasText: text }).waitFor({ state: 'visible' });
}

/** The editor that has focus (the active editor group's code editor). */
export function activeEditor(page: Page): Locator {
  return page.locator('.editor-group-container.active .monaco-editor').first();
}

/** The text of the active editor's visible lines, line breaks as `\n` and spaces as written. */
export async function editorText(page: Page): Promise<string> {
  const lines = await activeEditor(page)
    .locator('.view-lines .view-line')
    .evaluateAll((nodes) =>
      nodes
        .map((node) => ({
          top: Number.parseFloat((node as HTMLElement).style.top),
          text: (node.textContent ?? '').replace(/\u00a0/g, ' '),
        }))
        .sort((a, b) => a.top - b.top)
        .map((line) => line.text),
    );
  return lines.join('\n');
}

/** Puts the cursor at a 1-based line and column with "Go to Line/Column" (Ctrl+G). */
export async function goToLine(page: Page, line: number, column = 1): Promise<void> {
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`:${line}:${column}`);
  await page.keyboard.press('Enter');
  await input.waitFor({ state: 'hidden' });
}

/** Saves a screenshot of the whole window under test/e2e/artifacts/ and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, timeout: UI_LIMIT_MS });
  return path;
}
