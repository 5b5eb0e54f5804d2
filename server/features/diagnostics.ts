import type { Diagnostic } from 'vscode-languageserver';
import type { Problem } from '../../core/problem';
import type { ConfigAnalysis } from '../analysis/configAnalysis';
import { toDiagnostic } from '../convert';

/**
 * An unset `${VAR}` is a warning in the editor: the editor's environment is not the one a run gets
 * (CI sets its own), so it is worth a look, not a red mark. The CLI keeps it an error.
 */
function forEditor(problem: Problem): Problem {
  return problem.code === 'unresolved-variable' ? { ...problem, severity: 'warning' } : problem;
}

/** The diagnostics of one analysed run config: what the engine reports, as LSP sees it. */
export function configDiagnostics(analysis: ConfigAnalysis): Diagnostic[] {
  return problemDiagnostics(analysis.problems, analysis.file);
}

/** Problems of a config as LSP diagnostics (some of an analysis's: see AnalysisCache.visibleDiagnostics). */
export function problemDiagnostics(problems: readonly Problem[], file: string): Diagnostic[] {
  return problems.map((problem) => toDiagnostic(forEditor(problem), file));
}
