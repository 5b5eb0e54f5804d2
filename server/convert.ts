/**
 * The one place where core's positions and problems become LSP's. Core positions are already
 * 0-based lines and UTF-16 columns, which is what LSP counts, so ranges convert field by field.
 */
import { isAbsolute } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Diagnostic, DiagnosticSeverity, type Range } from 'vscode-languageserver';
import type { Problem, ProblemSeverity } from '../core/problem';
import { printable } from '../shared/text/printable';
import { type SourceRange } from '../core/text/position';
import { displayLineColumn } from '../shared/text/displayPosition';

export const DIAGNOSTIC_SOURCE = 'evallens';

const SEVERITIES: { readonly [severity in ProblemSeverity]: DiagnosticSeverity } = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
};

export function toRange(range: SourceRange): Range {
  return {
    start: { line: range.start.line, character: range.start.column },
    end: { line: range.end.line, character: range.end.column },
  };
}

export function toSeverity(severity: ProblemSeverity): DiagnosticSeverity {
  return SEVERITIES[severity];
}

/**
 * A problem as a diagnostic of the document whose file is `file`. A problem located in another file
 * (say, a dataset the config names) is shown at the top of the document, and links to its place.
 */
export function toDiagnostic(problem: Problem, file: string): Diagnostic {
  // The engine's suggestions travel with the diagnostic, so a quick fix needs no second analysis.
  const data =
    problem.suggestions === undefined || problem.suggestions.length === 0
      ? {}
      : { data: { suggestions: problem.suggestions } };
  const base = { severity: toSeverity(problem.severity), source: DIAGNOSTIC_SOURCE, code: problem.code, ...data };
  const message = diagnosticText(problem.message);
  if (problem.range.file === file) return { ...base, range: toRange(problem.range), message };
  const top: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const at = `${printable(problem.range.file)}:${displayLineColumn(problem.range.start)}`;
  return {
    ...base,
    range: top,
    message: `${at}: ${message}`,
    relatedInformation: [{ location: { uri: fileUri(problem.range.file), range: toRange(problem.range) }, message }],
  };
}

/**
 * A diagnostic's message with the controls, bidi and invisible characters it quotes from the
 * workspace (keys, paths, ids) escaped: editors, `--check` runs and CI logs show it as it is written.
 */
export function diagnosticText(message: string): string {
  return printable(message, { lines: true });
}

/** The file name core reports problems under: the path of a `file:` document, the URI itself otherwise (untitled). */
export function documentFile(uri: string): string {
  return uri.startsWith('file:') ? fileURLToPath(uri) : uri;
}

/** Inverse of documentFile: paths become `file:` URIs; anything else already is a URI. */
function fileUri(file: string): string {
  return isAbsolute(file) ? pathToFileURL(file).href : file;
}
