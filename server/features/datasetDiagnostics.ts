/**
 * Diagnostics in a dataset file that an open config names: one per line or case the engine's
 * readers refuse (malformed JSON, a case that breaks `schemas/case.schema.json`, a duplicate id, a
 * bad CSV cell), at its place, and one for a file that cannot be read as a dataset at all. It runs the
 * same readers as a run, on the editor's text. A case written over several lines (YAML, pretty JSON)
 * is marked on its first line, and a file that is not a list of cases on its first line: a diagnostic
 * marks the smallest span that names the problem, never a whole block.
 */
import { DiagnosticSeverity, type Diagnostic, type Range } from 'vscode-languageserver';
import { DatasetError } from '../../core/dataset/datasetError';
import { openDataset } from '../../core/dataset/open';
import type { DatasetSource } from '../../core/dataset/source';
import type { SourceRange } from '../../core/text/position';
import { DIAGNOSTIC_SOURCE, diagnosticText, toRange } from '../convert';

/** How many diagnostics one dataset gets at most: past that, the editor would only slow down. */
const MAX_DIAGNOSTICS = 1000;

export async function diagnoseDataset(source: DatasetSource, text: string): Promise<Diagnostic[]> {
  // Every case, whatever the config's scenario filters select.
  const { caseIds: _filters, ...all } = source;
  const diagnostics: Diagnostic[] = [];
  try {
    for await (const record of openDataset({ ...all, text })) {
      if (record.ok) continue;
      diagnostics.push({
        range: firstLine(record.error.range, text),
        severity: DiagnosticSeverity.Error,
        source: DIAGNOSTIC_SOURCE,
        code: 'dataset-case',
        message: diagnosticText(record.error.message),
      });
      if (diagnostics.length >= MAX_DIAGNOSTICS) break;
    }
  } catch (error) {
    if (!(error instanceof DatasetError)) throw error;
    const range =
      error.range === undefined
        ? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }
        : firstLine(error.range, text);
    diagnostics.push({
      range,
      severity: DiagnosticSeverity.Error,
      source: DIAGNOSTIC_SOURCE,
      code: 'dataset',
      message: diagnosticText(error.message),
    });
  }
  return diagnostics;
}

/** `range` cut at the end of its first line (trailing blanks left out); a one-line range as it is. */
function firstLine(range: SourceRange, text: string): Range {
  if (range.end.line === range.start.line) return toRange(range);
  const start = range.start.offset;
  const firstLineText = text.slice(start, range.end.offset).split(/[\r\n]/, 1)[0] ?? '';
  const end = range.start.column + firstLineText.trimEnd().length;
  return {
    start: { line: range.start.line, character: range.start.column },
    end: { line: range.start.line, character: end },
  };
}
