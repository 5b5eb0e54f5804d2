/**
 * The largest documents the server analyses. Parsing and checking grow with a document's size (a
 * 50 MB document took 37 s and 3.8 GB); past the limit a document gets one diagnostic on its first
 * line saying so, and no analysis: no other diagnostics, completions, hovers, outline or definitions.
 * A config's limit is the one the CLI reads a config file with (READ_LIMITS.config), so a config the
 * editor will not analyse is one the CLI refuses too; a dataset (streamed by the CLI) gets more room.
 */
import { type Diagnostic, DiagnosticSeverity } from 'vscode-languageserver';
import { READ_LIMITS } from '../../core/text/boundedRead';
import { DIAGNOSTIC_SOURCE } from '../convert';

const MiB = 1024 * 1024;

/** The most characters of a document the server analyses, by what the document is. */
export const MAX_ANALYSED_CHARS = { config: READ_LIMITS.config, dataset: 16 * MiB } as const;

export type SizedKind = keyof typeof MAX_ANALYSED_CHARS;

/** The limit `length` characters are over, or undefined when a document of that kind is analysed. */
export function overSizeLimit(kind: SizedKind, length: number): number | undefined {
  const limit = MAX_ANALYSED_CHARS[kind];
  return length > limit ? limit : undefined;
}

/** The one diagnostic of a document too large to analyse, on its first line. */
export function tooLargeDiagnostic(kind: SizedKind, length: number, limit: number): Diagnostic {
  const what = kind === 'config' ? 'run config' : 'dataset';
  return {
    severity: DiagnosticSeverity.Warning,
    source: DIAGNOSTIC_SOURCE,
    code: 'too-large-to-analyse',
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    message: `This ${what} is too large to analyse: ${megabytes(length)} MB, the limit is ${megabytes(limit)} MB (in characters); the editor shows no other diagnostics, completions or hovers for it`,
  };
}

function megabytes(chars: number): string {
  const value = chars / MiB;
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}
