/**
 * Messages between the extension (host) and the results view (webview). Both sides check
 * PROTOCOL_VERSION: the host sends nothing until the view says `webview/ready` with the same version.
 * Types only from core; the guards below are for data that crossed `postMessage`.
 */
import type { Report } from '../core/report/report';
import type { RunEvent } from '../core/runner/events';

export const PROTOCOL_VERSION = 1;

export type HostToWebview =
  /** Show a finished run (the same JSON the CLI writes). */
  | { readonly type: 'report/show'; readonly report: Report }
  /** One event of a run in progress. */
  | { readonly type: 'run/event'; readonly event: RunEvent }
  /** Forget what is shown (e.g. the config was closed). */
  | { readonly type: 'view/clear' };

export type WebviewToHost =
  | { readonly type: 'webview/ready'; readonly version: number }
  /** Open the case's line in its config or dataset. */
  | { readonly type: 'case/reveal'; readonly caseId: string };

const HOST_TO_WEBVIEW_TYPES: readonly HostToWebview['type'][] = ['report/show', 'run/event', 'view/clear'];
const WEBVIEW_TO_HOST_TYPES: readonly WebviewToHost['type'][] = ['webview/ready', 'case/reveal'];

function typeOf(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const type: unknown = (message as { type?: unknown }).type;
  return typeof type === 'string' ? type : undefined;
}

/** A message the view received is one of ours (checks the tag; the payload comes from our own host). */
export function isHostToWebview(message: unknown): message is HostToWebview {
  const type = typeOf(message);
  return type !== undefined && (HOST_TO_WEBVIEW_TYPES as readonly string[]).includes(type);
}

/** A message the host received is one of ours, with the fields the host reads. */
export function isWebviewToHost(message: unknown): message is WebviewToHost {
  const type = typeOf(message);
  if (type === undefined || !(WEBVIEW_TO_HOST_TYPES as readonly string[]).includes(type)) return false;
  const fields = message as { version?: unknown; caseId?: unknown };
  return type === 'webview/ready' ? typeof fields.version === 'number' : typeof fields.caseId === 'string';
}
