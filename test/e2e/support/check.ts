/**
 * A check walks through named steps, as a person would. When a step fails, the error says which one,
 * where the screenshot of that moment is, and what the extension host logged, so a red run in CI can
 * be understood without running it again. Each finished check also leaves a screenshot.
 */
import type { Page } from 'playwright-core';
import { extensionHostLogs } from './logs';
import { screenshot } from './workbench';

export interface Check {
  /** Runs one step; on failure rethrows with the step's name, a screenshot and the host's log. */
  step<T>(name: string, action: () => Promise<T>): Promise<T>;
  /** Saves a screenshot named after the check (and `suffix`), returns its path. */
  capture(suffix?: string): Promise<string>;
}

/** `session` ("trusted", "restricted") starts the screenshots' names: both sessions run some checks. */
export function startCheck(name: string, page: Page, userDataDir: string, session: string): Check {
  const slug = `${session} ${name}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  const capture = (suffix?: string): Promise<string> =>
    screenshot(page, suffix === undefined ? slug : `${slug}-${suffix}`);
  return {
    capture,
    async step<T>(stepName: string, action: () => Promise<T>): Promise<T> {
      try {
        return await action();
      } catch (error) {
        const shot = await capture('failed').catch((shotError: unknown) => `(no screenshot: ${describe(shotError)})`);
        const report = [
          `check "${name}" failed at step "${stepName}": ${describe(error)}`,
          `screenshot: ${shot}`,
          'extension host log:',
          extensionHostLogs(userDataDir),
        ].join('\n');
        throw new Error(report, { cause: error });
      }
    },
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
