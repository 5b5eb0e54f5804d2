/**
 * The request handlers: completion, hover, code actions, document symbols, definition. Each turns
 * LSP positions into offsets of the document's text, asks a feature, and turns the answer back. A
 * feature that throws answers nothing (and is logged): a bug never takes the server down.
 */
import { pathToFileURL } from 'node:url';
import type { Connection, Range, TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Span } from '../core/config/yamlOutline';
import { configFamily } from '../core/config/configFamily';
import { scorerSetFor } from '../core/config/evalbenchCompat';
import type { AnalysisCache } from './analysis/analysisCache';
import type { FileExists } from './analysis/configAnalysis';
import { documentFile } from './convert';
import { codeActions } from './features/codeActions';
import { completions } from './features/completion';
import { definitionAt } from './features/definition';
import { hoverAt, toHover } from './features/hover';
import { documentSymbols } from './features/symbols';
import { dirname } from 'node:path';
import { maskSecretText } from '../shared/text/secretMask';

export function registerRequests(
  connection: Connection,
  documents: TextDocuments<TextDocument>,
  cache: AnalysisCache,
  fileExists: FileExists,
): void {
  const guarded =
    <P extends { textDocument: { uri: string } }, R>(
      what: string,
      empty: R,
      body: (document: TextDocument, params: P) => R,
    ) =>
    (params: P): R => {
      const document = documents.get(params.textDocument.uri);
      if (document === undefined) return empty;
      try {
        return body(document, params);
      } catch (error) {
        connection.console.error(
          maskSecretText(
            `EvalLens ${what} failed in ${params.textDocument.uri}: ${error instanceof Error ? error.message : String(error)}`,
          ),
        );
        return empty;
      }
    };
  const rangeOf =
    (document: TextDocument) =>
    (start: number, end: number): Range => ({ start: document.positionAt(start), end: document.positionAt(end) });
  const spanRange =
    (document: TextDocument) =>
    (span: Span): Range =>
      rangeOf(document)(span.start, span.end);

  connection.onCompletion(
    guarded('completion', [], (document, params) => {
      if (cache.kindOf(document) !== 'config' || cache.overLimit(document, 'config') !== undefined) return [];
      // Completion reads the text around the cursor, not an analysis: it stays fast while typing.
      const text = document.getText();
      // Completion parses nothing: the family is read off the text's top-level keys.
      const family = configFamily(text);
      return completions({
        text,
        offset: document.offsetAt(params.position),
        rangeOf: rangeOf(document),
        configDir: document.uri.startsWith('file:') ? dirname(documentFile(document.uri)) : undefined,
        registry: scorerSetFor(family).registry,
      });
    }),
  );

  connection.onHover(
    guarded('hover', null, (document, params) => {
      const analysis = cache.configOf(document);
      const answer = analysis === undefined ? undefined : hoverAt(analysis, document.offsetAt(params.position));
      return answer === undefined ? null : toHover(answer, spanRange(document));
    }),
  );

  connection.onCodeAction(
    guarded('code actions', [], (document, params) => {
      const analysis = cache.configOf(document);
      if (analysis === undefined) return [];
      const actions = codeActions({
        uri: document.uri,
        analysis,
        range: params.range,
        diagnostics: params.context.diagnostics,
        offsetAt: (position) => document.offsetAt(position),
        rangeOf: rangeOf(document),
      });
      // An editor asking for some kinds only (e.g. quick fixes) gets only those: LSP's `only` filter,
      // where `refactor` also admits `refactor.rewrite`.
      const only = params.context.only;
      if (only === undefined || only.length === 0) return actions;
      return actions.filter(
        (a) => a.kind !== undefined && only.some((kind) => a.kind === kind || a.kind?.startsWith(`${kind}.`) === true),
      );
    }),
  );

  connection.onDocumentSymbol(
    guarded('outline', [], (document) => {
      const analysis = cache.configOf(document);
      return analysis === undefined ? [] : documentSymbols(analysis, spanRange(document));
    }),
  );

  connection.onDefinition(
    guarded('definition', null, (document, params) => {
      const analysis = cache.configOf(document);
      if (analysis === undefined || !document.uri.startsWith('file:')) return null;
      const file = definitionAt(analysis, document.offsetAt(params.position), fileExists);
      return file === undefined
        ? null
        : {
            uri: pathToFileURL(file).href,
            range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
          };
    }),
  );
}
