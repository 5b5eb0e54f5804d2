/**
 * After a window reload: which run the results view showed (kept in the view's own state, see
 * `PersistedView.source` in webview/model/actions.ts), and finding it again as the report.json in its
 * run folder, `<runs directory>/<run id>/report.json`, as the CLI writes it (cli/runStore.ts), read back by the CLI. A run
 * that cannot be shown becomes a notice that says why and what to do. No vscode here, so tests run it.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Report } from '../../core/report/report';
import { readReportFile } from './reportFile';

/** The run a view showed, as the view saved it (the shape of the webview's `PersistedSource`). */
export interface SavedSource {
  readonly runId: string;
  readonly configFile: string;
  readonly kind: 'report' | 'live';
  readonly complete: boolean;
}

export type SavedRun =
  | { readonly found: true; readonly report: Report; readonly file: string }
  | { readonly found: false; readonly notice: string };

/** The saved source in a view's state, if the state has a usable one (the state crossed a reload, so it is checked). */
export function savedSourceOf(state: unknown): SavedSource | undefined {
  const source = fieldOf(fieldOf(state, 'source'), undefined);
  if (source === undefined) return undefined;
  const { runId, configFile, kind, complete } = source;
  if (
    typeof runId !== 'string' ||
    typeof configFile !== 'string' ||
    (kind !== 'report' && kind !== 'live') ||
    typeof complete !== 'boolean'
  )
    return undefined;
  // A run id names one folder; anything that could reach outside the runs directory is not one.
  if (runId === '' || runId === '.' || runId === '..' || /[/\\\0]/.test(runId)) return undefined;
  return { runId, configFile, kind, complete };
}

/** Looks for the source's report.json in each runs directory, in order; the first that exists is read (by the CLI at `cliPath`). */
export async function findSavedRun(
  source: SavedSource,
  runsDirs: readonly string[],
  cliPath: string,
): Promise<SavedRun> {
  const folders = [...new Set(runsDirs)].map((dir) => join(dir, source.runId));
  const where = folders.length === 1 ? (folders[0] ?? '') : folders.join(', ');
  for (const folder of folders) {
    const file = join(folder, 'report.json');
    if (!(await isFile(file))) continue;
    let report: Report;
    try {
      report = await readReportFile(cliPath, file);
    } catch (error) {
      return {
        found: false,
        notice: `The report of run ${source.runId} could not be shown again: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
    if (report.runId !== source.runId)
      return {
        found: false,
        notice: `${file}:1:1: expected the report of run ${source.runId}, found run ${report.runId}; open a report with “EvalLens: Open Report File…”.`,
      };
    return { found: true, report, file };
  }
  if (source.kind === 'live' && !source.complete) {
    const partial = await firstFile(folders.map((folder) => join(folder, 'results.jsonl')));
    const kept = partial === undefined ? '' : ` The results of the cases that finished are in ${partial}.`;
    return {
      found: false,
      notice: `Run ${source.runId} of ${source.configFile} was in progress when the window closed and ended with it, before writing its report (looked in ${where}).${kept} Run the config again to see its results.`,
    };
  }
  return {
    found: false,
    notice: `No report of run ${source.runId} (${source.configFile}) in ${where}, so it cannot be shown again (a report opened from another folder is not reopened after a reload). Open it with “EvalLens: Open Report File…”, or run the config again.`,
  };
}

function fieldOf(value: unknown, key: string | undefined): { readonly [key: string]: unknown } | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as { readonly [key: string]: unknown };
  return key === undefined ? record : fieldOf(record[key], undefined);
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

async function firstFile(paths: readonly string[]): Promise<string | undefined> {
  for (const path of paths) if (await isFile(path)) return path;
  return undefined;
}
