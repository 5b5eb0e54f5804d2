/**
 * The analyses of the open documents, one per document version: a config is parsed and checked once
 * per version, whatever number of requests (diagnostics, hover, code actions, outline) ask about it.
 * A change on disk drops the analyses of the configs that name the changed file, since whether a file
 * exists is part of an analysis.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { documentFile } from '../convert';
import { YamlChunkCache } from '../../core/config/chunkedParse';
import { ScorerEntryCache } from '../../core/config/entryCache';
import { createEngineContext } from '../../core/engineContext';
import { startPatternChecker } from '../../core/scorers/support/boundedRegex';
import { cacheHome, VerdictStore } from '../../shared/regexVerdicts/verdictStore';
import {
  analyzeConfig,
  type ConfigAnalysis,
  type Environment,
  type FileExists,
  type ParseCaches,
} from './configAnalysis';
import { documentKind, type DocumentKind } from './documentKind';
import { MAX_ANALYSED_CHARS, overSizeLimit } from './documentSize';
import type { DatasetSource } from '../../core/dataset/source';

interface Cached {
  readonly version: number;
  readonly analysis: ConfigAnalysis;
}

export class AnalysisCache {
  private readonly configs = new Map<string, Cached>();
  /**
   * The files each config named at its last analysis, by URI. Kept when an analysis is dropped for a
   * re-check (forgetReferencing), so what is watched does not flicker; dropped when the config is closed.
   */
  private readonly named = new Map<string, ReadonlySet<string>>();
  /** Parsed pieces, scorer-entry outcomes and the engine context shared by every config of this server (bounded). */
  private readonly parseCaches: ParseCaches = {
    chunks: new YamlChunkCache(),
    entries: new ScorerEntryCache(),
    engine: createEngineContext(verdictStoreOptions()),
  };

  constructor(
    private readonly env: Environment,
    private readonly fileExists: FileExists,
    /** Called when the files some config names may have changed (see namedFiles). */
    private readonly onNamedFilesChanged: () => void = () => undefined,
  ) {}

  /**
   * Starts what the first check will need and can get ready in other threads: the ReDoS checker's
   * worker loads recheck and starts its checker (~150 ms cold) while this thread loads, answers
   * `initialize` and parses the first config.
   */
  prepareForFirstCheck(): void {
    startPatternChecker();
  }

  kindOf(document: TextDocument): DocumentKind {
    // Whether a plain YAML document is an EvalBench config is read from its text: a document over the
    // config limit is looked at up to the limit only (it is then too large to analyse anyway).
    const text = document.getText();
    const sniffed = text.length > MAX_ANALYSED_CHARS.config ? text.slice(0, MAX_ANALYSED_CHARS.config) : text;
    return documentKind(document.uri, document.languageId, sniffed, this.datasetSourceFor(document.uri) !== undefined);
  }

  /** The size limit a config or dataset document is over (it is not analysed), else undefined. */
  overLimit(document: TextDocument, kind: DocumentKind): number | undefined {
    return kind === 'other' ? undefined : overSizeLimit(kind, document.getText().length);
  }

  /** The analysis of a config document's current version (made now if this version has none). */
  analysis(document: TextDocument): ConfigAnalysis {
    const cached = this.configs.get(document.uri);
    if (cached !== undefined && cached.version === document.version) return cached.analysis;
    // Scorers check their patterns with recheck, which takes a while to load: let it load in its own
    // thread while this one parses the config.
    startPatternChecker();
    const onDisk = document.uri.startsWith('file:');
    const analysis = analyzeConfig(
      document.getText(),
      documentFile(document.uri),
      this.env,
      onDisk ? this.fileExists : undefined,
      this.parseCaches,
    );
    this.configs.set(document.uri, { version: document.version, analysis });
    this.named.set(document.uri, namedBy(analysis));
    this.onNamedFilesChanged();
    return analysis;
  }

  /**
   * Parses, for up to `budgetMs`, the pieces of the last config that was parsed whole because it was
   * new to this server, so that its next edit re-parses only the piece it touches; true while work is left.
   */
  prepareForEdits(budgetMs: number): boolean {
    return this.parseCaches.chunks.warm(budgetMs);
  }

  /** The config analysis of a document when it is a config, else undefined. */
  configOf(document: TextDocument): ConfigAnalysis | undefined {
    return this.kindOf(document) === 'config' && this.overLimit(document, 'config') === undefined
      ? this.analysis(document)
      : undefined;
  }

  forget(uri: string): void {
    this.configs.delete(uri);
    if (this.named.delete(uri)) this.onNamedFilesChanged();
  }

  /** Every file an analysed config names: a change to one of them (and to nothing else) re-checks configs. */
  namedFiles(): Set<string> {
    const files = new Set<string>();
    for (const set of this.named.values()) for (const file of set) files.add(file);
    return files;
  }

  /** The dataset source an analysed config gives for the document at `uri`, if one names it. */
  datasetSourceFor(uri: string): DatasetSource | undefined {
    const file = documentFile(uri);
    for (const { analysis } of this.configs.values()) {
      if (analysis.datasetSource?.path === file) return analysis.datasetSource;
    }
    return undefined;
  }

  /** Drops the analyses of the configs that name any of `files`; returns their URIs. */
  forgetReferencing(files: readonly string[]): string[] {
    const uris: string[] = [];
    for (const [uri, { analysis }] of this.configs) {
      if (files.some((file) => analysis.referencedFiles.has(file) || analysis.datasetSource?.path === file)) {
        this.configs.delete(uri);
        uris.push(uri);
      }
    }
    return uris;
  }
}

function namedBy(analysis: ConfigAnalysis): ReadonlySet<string> {
  const dataset = analysis.datasetSource?.path;
  return dataset === undefined || analysis.referencedFiles.has(dataset)
    ? analysis.referencedFiles
    : new Set([...analysis.referencedFiles, dataset]);
}

/** Regex verdicts on disk, shared with the CLI: the user's cache folder, from the process's environment (not a workspace's). */
function verdictStoreOptions(): { readonly regexVerdictStore?: VerdictStore } {
  const home = cacheHome(process.env);
  return home === undefined ? {} : { regexVerdictStore: new VerdictStore(home) };
}
