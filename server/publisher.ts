/**
 * When and what the server publishes: a changed document is checked once, after the changes that
 * arrived with it (a burst of keystrokes costs one check), configs synchronously, datasets with the
 * engine's streaming readers. Results of a version the document has left are dropped.
 */
import type { Connection, Diagnostic, TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { pathToFileURL } from 'node:url';
import type { AnalysisCache } from './analysis/analysisCache';
import { configDiagnostics } from './features/diagnostics';
import { diagnoseDataset } from './features/datasetDiagnostics';
import { tooLargeDiagnostic } from './analysis/documentSize';
import { maskSecretText } from '../shared/text/secretMask';

/** How long one slice of idle-time preparation may take. */
const PREPARE_SLICE_MS = 5;

export class DiagnosticsPublisher {
  private readonly pending = new Map<string, NodeJS.Immediate>();
  /** The idle-time preparation of a newly opened config for its edits (AnalysisCache.prepareForEdits). */
  private preparing: NodeJS.Immediate | undefined;
  /** Documents that have diagnostics on the client, to clear when they stop being ours. */
  private readonly published = new Set<string>();
  /** Configs checked since they were opened: only a config's first check may show an earlier session's diagnostics. */
  private readonly checked = new Set<string>();
  /** What was last published for each config, and for which version (kept for later sessions at close). */
  private readonly lastSent = new Map<
    string,
    {
      readonly version: number;
      readonly json: string;
      readonly diagnostics: Diagnostic[];
      /** Whether these are an earlier session's kept diagnostics, not yet confirmed by an analysis. */
      readonly kept: boolean;
      /** Whether these are the top of a large config's only (showVisiblePart), the complete set still to come. */
      readonly partial?: boolean;
    }
  >();

  constructor(
    private readonly connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly cache: AnalysisCache,
  ) {}

  schedule(uri: string): void {
    if (this.pending.has(uri)) return;
    this.pending.set(
      uri,
      setImmediate(() => {
        this.pending.delete(uri);
        void this.check(uri);
      }),
    );
  }

  /**
   * Keeps, for later sessions, what was published for a config's current version (the document is
   * being closed, or the server shut down).
   */
  keep(document: TextDocument): void {
    const sent = this.lastSent.get(document.uri);
    // A part's diagnostics are never kept: only a whole analysis's.
    if (sent !== undefined && sent.version === document.version && sent.partial !== true) {
      this.cache.keep(document, sent.diagnostics);
    }
  }

  clear(uri: string): void {
    this.checked.delete(uri);
    this.lastSent.delete(uri);
    const timer = this.pending.get(uri);
    if (timer !== undefined) clearImmediate(timer);
    this.pending.delete(uri);
    this.published.delete(uri);
    void this.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  dispose(): void {
    for (const timer of this.pending.values()) clearImmediate(timer);
    this.pending.clear();
    if (this.preparing !== undefined) clearImmediate(this.preparing);
    this.preparing = undefined;
  }

  /**
   * After a check, in slices short enough not to delay a request or a change that arrives meanwhile:
   * parses the pieces of a config that was new to the server, for its next edit.
   */
  private prepareForEdits(): void {
    if (this.preparing !== undefined) return;
    this.preparing = setImmediate(() => {
      this.preparing = undefined;
      if (this.cache.prepareForEdits(PREPARE_SLICE_MS)) this.prepareForEdits();
    });
  }

  private async check(uri: string): Promise<void> {
    const document = this.documents.get(uri);
    if (document === undefined) return;
    try {
      const kind = this.cache.kindOf(document);
      const limit = this.cache.overLimit(document, kind);
      if (limit !== undefined && kind !== 'other') {
        this.cache.forget(uri);
        this.send(document, [tooLargeDiagnostic(kind, document.getText().length, limit)]);
      } else if (kind === 'config') {
        const first = !this.checked.has(uri);
        this.checked.add(uri);
        if (first && (this.showStored(document) || this.showVisiblePart(document))) return;
        const analysis = this.cache.analysis(document);
        const diagnostics = configDiagnostics(analysis).map(masked);
        const json = JSON.stringify(diagnostics);
        const sent = this.lastSent.get(uri);
        const partialShown = sent?.partial === true && sent.version === document.version;
        // The stored diagnostics shown for this version are what the analysis found: nothing to send.
        // After a part's diagnostics the complete set is always sent, even when it is the same: a
        // client (and the benchmark, and the tests) then sees when the analysis is complete, for the
        // cost of one message per opening of a large config.
        if (sent === undefined || sent.version !== document.version || sent.json !== json || partialShown) {
          this.send(document, diagnostics);
        }
        this.lastSent.set(uri, { version: document.version, json, diagnostics, kept: false });
        // A config just opened and not kept before, or kept with other diagnostics, is kept now (after
        // an edit it is kept only when closed: an entry per keystroke would be a write per check).
        const staleKept = sent?.kept === true && sent.version === document.version && sent.json !== json;
        if (first || staleKept || partialShown) this.cache.keep(document, diagnostics);
        this.prepareForEdits();
        // The dataset it names may be open: check it with this config's way of reading it.
        const dataset = analysis.datasetSource;
        if (dataset !== undefined) {
          const datasetUri = pathToFileURL(dataset.path).href;
          if (datasetUri !== uri && this.documents.get(datasetUri) !== undefined) this.schedule(datasetUri);
        }
      } else if (kind === 'dataset') {
        const source = this.cache.datasetSourceFor(uri);
        if (source === undefined) return;
        const version = document.version;
        const diagnostics = await diagnoseDataset(source, document.getText());
        if (this.documents.get(uri)?.version === version) this.send(document, diagnostics);
      } else if (this.published.has(uri)) {
        this.clear(uri);
      }
    } catch (error) {
      // An engine bug must not take the server down; say which document, keep its text out of the log.
      this.connection.console.error(
        maskSecretText(`EvalLens could not check ${uri}: ${error instanceof Error ? error.message : String(error)}`),
      );
      this.send(document, []);
    }
  }

  /**
   * On a config's first check since it was opened: publishes at once the diagnostics an earlier session
   * published for this same text (when what they depended on is unchanged), and schedules the full
   * analysis, whose diagnostics replace them if they differ. False when nothing was kept.
   */
  private showStored(document: TextDocument): boolean {
    const stored = this.cache.storedDiagnostics(document);
    if (stored === undefined) return false;
    const diagnostics = stored.map(masked);
    this.send(document, diagnostics);
    this.lastSent.set(document.uri, {
      version: document.version,
      json: JSON.stringify(diagnostics),
      diagnostics,
      kept: true,
    });
    this.schedule(document.uri);
    return true;
  }

  /**
   * On a large config's first check since it was opened, when nothing was kept: publishes at once the
   * diagnostics of its top (the part an editor shows; AnalysisCache.visibleDiagnostics), every one of
   * which the whole analysis reports too, and schedules that analysis, whose diagnostics follow. False
   * when the config has no such part.
   */
  private showVisiblePart(document: TextDocument): boolean {
    const visible = this.cache.visibleDiagnostics(document);
    if (visible === undefined) return false;
    const diagnostics = visible.map(masked);
    this.send(document, diagnostics);
    this.lastSent.set(document.uri, {
      version: document.version,
      json: JSON.stringify(diagnostics),
      diagnostics,
      kept: false,
      partial: true,
    });
    this.schedule(document.uri);
    return true;
  }

  private send(document: TextDocument, diagnostics: Diagnostic[]): void {
    this.published.add(document.uri);
    void this.connection.sendDiagnostics({
      uri: document.uri,
      version: document.version,
      diagnostics: diagnostics.map(masked),
    });
  }
}

/**
 * Every diagnostic leaves the server through the one masking rule (values read from the environment,
 * credentials, URL user-info, secret_scan's shapes): the engine masks its own problems, and this is
 * where every other message (dataset errors, a related location's words) is held to the same rule.
 */
function masked(diagnostic: Diagnostic): Diagnostic {
  const related = diagnostic.relatedInformation?.map((r) => ({ ...r, message: maskSecretText(r.message) }));
  const message =
    typeof diagnostic.message === 'string'
      ? maskSecretText(diagnostic.message)
      : { ...diagnostic.message, value: maskSecretText(diagnostic.message.value) };
  return { ...diagnostic, message, ...(related === undefined ? {} : { relatedInformation: related }) };
}
