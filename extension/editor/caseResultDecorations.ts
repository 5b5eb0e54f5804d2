/**
 * Failing reasons where the case lives: after a run, each failing or erroring case's line carries an
 * information diagnostic (its own collection, apart from the language server's) with its reasons, and
 * hovering the line shows every scorer's last result. An edit to the file forgets its results (the
 * lines may have moved); a passing run replaces them.
 */
import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { LastResults } from '../testing/lastResults';
import { failureDiagnostics, outcomeHover } from './caseAnnotations';
import { ANNOTATED_FILES } from './caseCodeLens';

export class CaseResultDecorations implements vscode.Disposable, vscode.HoverProvider {
  private readonly collection = vscode.languages.createDiagnosticCollection('evallens-results');
  private readonly disposables: vscode.Disposable[] = [this.collection];
  private readonly dirty = new Set<string>();
  private pending: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly lastResults: LastResults) {
    this.disposables.push(
      lastResults.onDidChange((files) => this.updateSoon(files)),
      vscode.workspace.onDidChangeTextDocument((change) => {
        if (change.contentChanges.length > 0 && change.document.uri.scheme === 'file')
          lastResults.forgetFile(change.document.uri.fsPath);
      }),
      vscode.languages.registerHoverProvider(ANNOTATED_FILES, this),
    );
  }

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const outcomes = this.lastResults
      .inFile(document.uri.fsPath)
      .filter((o) => o.range.start.line <= position.line && position.line <= o.range.end.line);
    if (outcomes.length === 0) return undefined;
    return new vscode.Hover(outcomes.map((o) => new vscode.MarkdownString(outcomeHover(o, basename(o.configFile)))));
  }

  private updateSoon(files: ReadonlySet<string>): void {
    for (const file of files) this.dirty.add(file);
    this.pending ??= setTimeout(() => {
      this.pending = undefined;
      for (const file of this.dirty) this.update(file);
      this.dirty.clear();
    }, 100);
  }

  private update(file: string): void {
    const diagnostics = failureDiagnostics(this.lastResults.inFile(file)).map((spec) => {
      const diagnostic = new vscode.Diagnostic(
        new vscode.Range(spec.start.line, spec.start.column, spec.end.line, spec.end.column),
        spec.message,
        vscode.DiagnosticSeverity.Information,
      );
      diagnostic.source = 'EvalLens run';
      return diagnostic;
    });
    this.collection.set(vscode.Uri.file(file), diagnostics);
  }

  dispose(): void {
    if (this.pending !== undefined) clearTimeout(this.pending);
    for (const d of this.disposables) d.dispose();
  }
}
