/**
 * Quick fixes and refactorings: replace an unknown key or value with a suggestion, add a missing
 * required option, remove one of two conflicting options, set `num_trials` for a consistency scorer,
 * and convert `scorers:` between its mapping and list forms. The suggestions are the engine's
 * (Problem.suggestions, carried in each diagnostic's `data`).
 */
import { CodeActionKind, type CodeAction, type Diagnostic, type Range, type TextEdit } from 'vscode-languageserver';
import type { Span } from '../../core/config/yamlOutline';
import type { ConfigAnalysis } from '../analysis/configAnalysis';
import { entryOf, scorerEntryAt } from './outlineQuery';
import { placeholderValue, scorerOption, yamlValue } from './schemaFacts';
import { scorersFormChange } from './scorersForm';
import { addOption, removeOption, setTopLevel, type OffsetEdit } from './yamlEdits';

export interface ActionRequest {
  readonly uri: string;
  readonly analysis: ConfigAnalysis;
  readonly range: Range;
  readonly diagnostics: readonly Diagnostic[];
  readonly offsetAt: (position: Range['start']) => number;
  readonly rangeOf: (start: number, end: number) => Range;
}

const REPLACEABLE = new Set(['unknown-key', 'unknown-scorer', 'schema']);

export function codeActions(request: ActionRequest): CodeAction[] {
  const actions = request.diagnostics.flatMap((diagnostic) => fixesFor(request, diagnostic));
  const refactor = formRefactor(request);
  return refactor === undefined ? actions : [...actions, refactor];
}

function suggestionsOf(diagnostic: Diagnostic): string[] {
  const data: unknown = diagnostic.data;
  const list = data !== null && typeof data === 'object' ? (data as { suggestions?: unknown }).suggestions : undefined;
  return Array.isArray(list) ? list.filter((s): s is string => typeof s === 'string') : [];
}

function action(
  request: ActionRequest,
  title: string,
  edit: OffsetEdit,
  kind: CodeActionKind,
  diagnostic?: Diagnostic,
  preferred = false,
): CodeAction {
  const textEdit: TextEdit = { range: request.rangeOf(edit.start, edit.end), newText: edit.newText };
  return {
    title,
    kind,
    edit: { changes: { [request.uri]: [textEdit] } },
    ...(diagnostic === undefined ? {} : { diagnostics: [diagnostic] }),
    ...(preferred ? { isPreferred: true } : {}),
  };
}

function fixesFor(request: ActionRequest, diagnostic: Diagnostic): CodeAction[] {
  const code = typeof diagnostic.code === 'string' ? diagnostic.code : '';
  const suggestions = suggestionsOf(diagnostic);
  const start = request.offsetAt(diagnostic.range.start);
  const end = request.offsetAt(diagnostic.range.end);
  const { analysis } = request;
  if (REPLACEABLE.has(code)) {
    return suggestions.map((s, i) =>
      action(
        request,
        `Change to "${s}"`,
        { start, end, newText: yamlValue(s) },
        CodeActionKind.QuickFix,
        diagnostic,
        i === 0,
      ),
    );
  }
  const entry = scorerEntryAt(analysis.outline, start);
  if (code === 'missing-required' && entry !== undefined) {
    const definition = analysis.registry.get(entry.key);
    return suggestions.map((name, i) => {
      const value = yamlValue(
        placeholderValue((definition === undefined ? undefined : scorerOption(definition, name)) ?? {}),
      );
      return action(
        request,
        `Add option "${name}"`,
        addOption(analysis.text, entry, name, value),
        CodeActionKind.QuickFix,
        diagnostic,
        i === 0,
      );
    });
  }
  if (code === 'conflicting-options' && entry !== undefined) {
    return suggestions.flatMap((name) => {
      const edit = removeOption(analysis.text, entry, name);
      return edit === undefined
        ? []
        : [action(request, `Remove option "${name}"`, edit, CodeActionKind.QuickFix, diagnostic)];
    });
  }
  if (code === 'needs-trials') {
    return [
      action(
        request,
        'Set num_trials to 2',
        setTopLevel(analysis.text, analysis.outline, 'num_trials', '2', 'scorers'),
        CodeActionKind.QuickFix,
        diagnostic,
        true,
      ),
    ];
  }
  return [];
}

function formRefactor(request: ActionRequest): CodeAction | undefined {
  const scorers = entryOf(request.analysis.outline, 'scorers');
  if (scorers === undefined) return undefined;
  const at = request.offsetAt(request.range.start);
  const span: Span = scorers.span;
  if (at < span.start || at > span.end) return undefined;
  const change = scorersFormChange(request.analysis.text, request.analysis.outline);
  return change === undefined ? undefined : action(request, change.title, change.edit, CodeActionKind.RefactorRewrite);
}
