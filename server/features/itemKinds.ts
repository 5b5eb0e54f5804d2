/**
 * One item kind per kind of thing offered, the same wherever it is offered: a scorer (its key or a
 * list entry's `type`) is a function of a case; a key of the run config is a property, a scorer's
 * option a field; a value from a fixed set an enum member; `true`/`false` keywords; paths files and
 * folders (pathCompletion.ts).
 */
import { CompletionItemKind } from 'vscode-languageserver';

export const ITEM_KINDS = {
  scorer: CompletionItemKind.Function,
  configKey: CompletionItemKind.Property,
  option: CompletionItemKind.Field,
  value: CompletionItemKind.EnumMember,
  keyword: CompletionItemKind.Keyword,
  file: CompletionItemKind.File,
  folder: CompletionItemKind.Folder,
} as const;
