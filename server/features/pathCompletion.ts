/**
 * File path completion for path-valued keys and options: the entries of the folder typed so far,
 * relative to the config's folder. Folders end with `/` and ask for the next completion at once.
 */
import { readdirSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import type { CompletionItem, Range } from 'vscode-languageserver';
import { ITEM_KINDS } from './itemKinds';

const DATASET_EXTENSIONS = new Set(['.jsonl', '.ndjson', '.json', '.yaml', '.yml', '.csv']);

export interface PathRequest {
  readonly configDir: string;
  /** What is typed so far (a relative or absolute path, maybe empty). */
  readonly typed: string;
  /** The range of the last segment of `typed`, which an item replaces. */
  readonly segmentRange: (segmentStartInTyped: number) => Range;
  readonly kind: 'file' | 'folder';
  readonly datasetOnly: boolean;
}

export function pathCompletions(request: PathRequest): CompletionItem[] {
  const slash = request.typed.lastIndexOf('/');
  const folderPart = request.typed.slice(0, slash + 1);
  const segment = request.typed.slice(slash + 1);
  const folder = resolve(request.configDir, folderPart === '' ? '.' : folderPart);
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  const range = request.segmentRange(slash + 1);
  return entries
    .filter((entry) => !entry.name.startsWith('.') || segment.startsWith('.'))
    .filter(
      (entry) =>
        entry.isDirectory() ||
        (request.kind === 'file' &&
          (!request.datasetOnly || DATASET_EXTENSIONS.has(extname(entry.name).toLowerCase()))),
    )
    .sort((a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || a.name.localeCompare(b.name))
    .map((entry): CompletionItem => {
      const folderEntry = entry.isDirectory();
      const text = folderEntry && request.kind === 'file' ? `${entry.name}/` : entry.name;
      return {
        label: text,
        kind: folderEntry ? ITEM_KINDS.folder : ITEM_KINDS.file,
        textEdit: { range, newText: text },
        ...(folderEntry && request.kind === 'file'
          ? { command: { title: 'Suggest', command: 'editor.action.triggerSuggest' } }
          : {}),
      };
    });
}
