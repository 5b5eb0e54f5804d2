/**
 * What the in-host suite may ask the driver that runs it on code-server (launcher/driver.ts): the
 * suite lives in the extension host and cannot see the window, the driver holds the browser page.
 * The driver listens on loopback and tells the suite where through PROBE_URL_VARIABLE; on desktop VS
 * Code (runTests without our launcher) there is no driver and the suite does without (see probe.ts).
 */
export const PROBE_URL_VARIABLE = 'EVALLENS_IN_HOST_PROBE_URL';

export type ProbeRequest =
  /** Waits (bounded) until `waitFor` (a CSS selector) is visible, if given, then saves a screenshot named `name`. */
  | { readonly action: 'screenshot'; readonly name: string; readonly waitFor?: string }
  /** The text of the first element `selector` matches, once it is visible (bounded). */
  | { readonly action: 'text'; readonly selector: string }
  /** The text the results view (a webview) shows now; '' when it is not open. */
  | { readonly action: 'resultsViewText' }
  /** Focuses the Test Explorer and expands every item, so each case has its row (for a screenshot). */
  | { readonly action: 'showAllTests' }
  /** Opens the Test Explorer row of the case labelled `label` as a person would; a failed case opens its failure peek. Answers the peek's text. */
  | { readonly action: 'openFailurePeek'; readonly label: string };

export interface ProbeAnswer {
  readonly ok: boolean;
  readonly value?: string;
  readonly error?: string;
}
