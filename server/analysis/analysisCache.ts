/**
 * The analyses of the open documents, one per document version: a config is parsed and checked once
 * per version, whatever number of requests (diagnostics, hover, code actions, outline) ask about it.
 * A change on disk drops the analyses of the configs that name the changed file, since whether a file
 * exists is part of an analysis.
 */
import type { Diagnostic } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { documentFile } from '../convert';
import { problemDiagnostics } from '../features/diagnostics';
import { certainProblems, visiblePartOf, type PartLimits } from '../../core/config/visiblePart';
import { YamlChunkCache } from '../../core/config/chunkedParse';
import { ScorerEntryCache } from '../../core/config/entryCache';
import { createEngineContext } from '../../core/engineContext';
import { startPatternChecker } from '../../core/scorers/support/boundedRegex';
import { cacheHome } from '../../shared/cacheHome';
import { VerdictStore } from '../../shared/regexVerdicts/verdictStore';
import {
  analyzeConfig,
  type ConfigAnalysis,
  type Environment,
  type FileExists,
  type ParseCaches,
} from './configAnalysis';
import { type AnalysisStore, envDigest } from './analysisStore';
import { documentKind, type DocumentKind } from './documentKind';
import { isUntrustedEnv } from '../../core/config/untrustedEnv';
import { MAX_ANALYSED_CHARS, overSizeLimit } from './documentSize';
import type { DatasetSource } from '../../core/dataset/source';

interface Cached {
  readonly version: number;
  readonly analysis: ConfigAnalysis;
  /** The files the analysis asked about and their answers (noted only when analyses are kept). */
  readonly files: ReadonlyMap<string, boolean>;
}

export class AnalysisCache {
  private readonly configs = new Map<string, Cached>();
  /**
   * The files each config named at its last analysis, by URI. Kept when an analysis is dropped for a
   * re-check (forgetReferencing), so what is watched does not flicker; dropped when the config is closed.
   */
  private readonly named = new Map<string, ReadonlySet<string>>();
  /** Parsed pieces, scorer-entry outcomes and the engine context shared by every config of this server (bounded). */
  /** Notes the environment variables analyses read, when analyses are kept. */
  private readonly recorder: EnvRecorder | undefined;
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
    /** Diagnostics of earlier sessions' analyses (absent: none are kept). */
    private readonly store?: AnalysisStore,
  ) {
    this.recorder = store === undefined ? undefined : new EnvRecorder(env);
  }

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
    // When analyses are kept, note the files this one asks about and what they answered.
    const files = new Map<string, boolean>();
    const fileExists: FileExists =
      this.recorder === undefined
        ? this.fileExists
        : (path) => {
            const exists = this.fileExists(path);
            files.set(path, exists);
            return exists;
          };
    const analysis = analyzeConfig(
      document.getText(),
      documentFile(document.uri),
      this.recorder?.env ?? this.env,
      onDisk ? fileExists : undefined,
      this.parseCaches,
    );
    this.configs.set(document.uri, { version: document.version, analysis, files });
    this.named.set(document.uri, namedBy(analysis));
    this.onNamedFilesChanged();
    return analysis;
  }

  /**
   * The diagnostics of the top of a large config that the analysis of the whole of it is certain to
   * report too (core/config/visiblePart.ts says which), from an analysis of that part only; undefined
   * when the config is small or the part could differ (then only the whole analysis is published).
   * Nothing is kept of it but the scorer entries' outcomes (the entry cache), which the whole analysis
   * that follows reads again.
   */
  visibleDiagnostics(document: TextDocument, limits?: PartLimits): Diagnostic[] | undefined {
    const text = document.getText();
    const part = visiblePartOf(text, limits);
    if (part === undefined) return undefined;
    startPatternChecker();
    const verdicts = this.parseCaches.engine.regexVerdicts;
    const loadDependent = verdicts.loadDependent;
    const file = documentFile(document.uri);
    const analysis = analyzeConfig(
      text,
      file,
      this.recorder?.env ?? this.env,
      document.uri.startsWith('file:') ? this.fileExists : undefined,
      { ...this.parseCaches, chunks: part.chunks },
    );
    // The part was parsed whole (flow collections nested too deep), an EvalBench config (its scorer
    // list is read as a whole), or a regex verdict given under load (the next check may differ).
    if (!part.chunks.used || analysis.family !== 'evallens' || verdicts.loadDependent !== loadDependent) {
      return undefined;
    }
    return problemDiagnostics(certainProblems(analysis.problems, part), file);
  }

  /**
   * The diagnostics an earlier session published for this very text of this document, when the
   * environment variables and files they depended on are unchanged; undefined otherwise (or when
   * nothing is kept). The caller still analyses the document afterwards.
   */
  storedDiagnostics(document: TextDocument): readonly Diagnostic[] | undefined {
    const onDisk = document.uri.startsWith('file:');
    return this.store?.get(this.storeName(document), document.getText(), {
      env: this.env,
      fileExists: onDisk ? this.fileExists : undefined,
    });
  }

  /** Keeps, for later sessions, the diagnostics published for the analysis of this document's current version. */
  keep(document: TextDocument, diagnostics: readonly Diagnostic[]): void {
    const cached = this.configs.get(document.uri);
    const recorder = this.recorder;
    if (this.store === undefined || recorder === undefined || recorder.enumerated) return;
    // A regex verdict given under load (recheck out of time) may differ next time: so may these diagnostics.
    if (this.parseCaches.engine.regexVerdicts.loadDependent > 0) return;
    if (cached?.version !== document.version) return;
    const envNames = [...recorder.names].sort();
    this.store.put(this.storeName(document), document.getText(), {
      diagnostics,
      envNames,
      envDigest: envDigest(envNames, this.env),
      files: Object.fromEntries(cached.files),
    });
  }

  /** The name an analysis is kept under: the file, and whether the workspace was trusted (messages differ). */
  private storeName(document: TextDocument): string {
    const file = documentFile(document.uri);
    return isUntrustedEnv(this.env) ? `untrusted:${file}` : file;
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

/**
 * The environment as analyses see it when their diagnostics may be kept: one object for the server's
 * life (the entry cache keys its outcomes by the environment's identity), which notes every name any
 * analysis looked up. The names are all this server's analyses ever read, a superset of what any one
 * read (an entry cache hit reads nothing again). An untrusted environment reads nothing and is
 * recognised by identity, so it is used as it is. Once the names are listed, what was read is unknown.
 */
class EnvRecorder {
  readonly names = new Set<string>();
  enumerated = false;
  readonly env: Environment;

  constructor(env: Environment) {
    this.env = isUntrustedEnv(env)
      ? env
      : new Proxy(env, {
          get: (target, name) => {
            if (typeof name === 'string') this.names.add(name);
            return Reflect.get(target, name) as unknown;
          },
          has: (target, name) => {
            if (typeof name === 'string') this.names.add(name);
            return Reflect.has(target, name);
          },
          ownKeys: (target) => {
            this.enumerated = true;
            return Reflect.ownKeys(target);
          },
        });
  }
}

/** Regex verdicts on disk, shared with the CLI: the user's cache folder, from the process's environment (not a workspace's). */
function verdictStoreOptions(): { readonly regexVerdictStore?: VerdictStore } {
  const home = cacheHome(process.env);
  return home === undefined ? {} : { regexVerdictStore: new VerdictStore(home) };
}
