/** The outline of a run config: its top-level keys, each scorer entry, each inline case. */
import { SymbolKind, type DocumentSymbol, type Range } from 'vscode-languageserver';
import type { OutlineNode, Span } from '../../core/config/yamlOutline';
import type { ConfigAnalysis } from '../analysis/configAnalysis';
import { entryOf, scorerEntries } from './outlineQuery';

export function documentSymbols(analysis: ConfigAnalysis, rangeOf: (span: Span) => Range): DocumentSymbol[] {
  const root = analysis.outline;
  if (root?.kind !== 'map') return [];
  return root.entries.map((entry): DocumentSymbol => {
    const symbol = { name: entry.key, range: rangeOf(entry.span), selectionRange: rangeOf(entry.keySpan) };
    if (entry.key === 'scorers') {
      const children = scorerEntries(root).map((scorer, i): DocumentSymbol => ({
        name: scorer.key === '' ? `scorer ${i + 1}` : scorer.key,
        ...(scorer.listForm ? { detail: nameOf(scorer.options) } : {}),
        kind: SymbolKind.Function,
        range: rangeOf(scorer.span),
        selectionRange: rangeOf(scorer.keySpan),
      }));
      return { ...symbol, kind: SymbolKind.Namespace, children };
    }
    if (entry.key === 'cases' && entry.value?.kind === 'seq') {
      const children = entry.value.items.map((item, i): DocumentSymbol => {
        const id = entryOf(item, 'id');
        const idValue = id?.value?.kind === 'scalar' ? id.value.value : null;
        return {
          name: idValue === null ? `case ${i + 1}` : String(idValue),
          kind: SymbolKind.Object,
          range: rangeOf(item.span),
          selectionRange: rangeOf(id?.value?.span ?? item.span),
        };
      });
      return { ...symbol, kind: SymbolKind.Array, children };
    }
    return { ...symbol, kind: SymbolKind.Property };
  });
}

function nameOf(options: OutlineNode | undefined): string {
  const name = entryOf(options, 'name')?.value;
  return name?.kind === 'scalar' && name.value !== null ? String(name.value) : '';
}
