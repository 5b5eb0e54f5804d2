/**
 * One analysis of one version of a run config: the YAML parsed once, its outline (for completion's
 * neighbours, hover, outline, code actions), the engine's problems and the files the config names.
 * Features read this; none of them parses again.
 */
import { dirname } from 'node:path';
import type { YamlChunkCache } from '../../core/config/chunkedParse';
import type { ScorerEntryCache } from '../../core/config/entryCache';
import type { EngineContext } from '../../core/engineContext';
import { configFamily, type ConfigFamily } from '../../core/config/configFamily';
import { scorerSetFor } from '../../core/config/evalbenchCompat';
import { parseRunConfig } from '../../core/config/parseRunConfig';
import { outlineOf, type OutlineNode } from '../../core/config/yamlOutline';
import { YamlSource } from '../../core/config/yamlSource';
import type { DatasetSource } from '../../core/dataset/source';
import type { Problem } from '../../core/problem';
import type { ScorerRegistry } from '../../core/scorers/registry';

export type Environment = Readonly<Record<string, string | undefined>>;

/** Whether a file the config names exists; absent when there is no file system to ask (untitled documents). */
export type FileExists = (absolutePath: string) => boolean;

/** What a server keeps from one check of a config to the next, so that an edit re-checks only what it touched. */
export interface ParseCaches {
  readonly chunks: YamlChunkCache;
  readonly entries: ScorerEntryCache;
  /** The server's engine context: compiled validators, regex verdicts and compiled schemas. */
  readonly engine: EngineContext;
}

export interface ConfigAnalysis {
  readonly text: string;
  /** The file name problems are reported under (a path, or the URI of an untitled document). */
  readonly file: string;
  readonly dir: string;
  /** Undefined for an empty document. Taken from the text as written, before `${VAR}` expansion. */
  readonly outline: OutlineNode | undefined;
  readonly problems: readonly Problem[];
  readonly family: ConfigFamily;
  /** The scorers this config's keys mean (EvalBench configs mean EvalBench's `exact_match`). */
  readonly registry: ScorerRegistry;
  readonly datasetSource?: DatasetSource;
  /** Every absolute path the engine asked about: a change to one of them re-checks the config. */
  readonly referencedFiles: ReadonlySet<string>;
}

export function analyzeConfig(
  text: string,
  file: string,
  env: Environment,
  fileExists?: FileExists,
  caches?: ParseCaches,
): ConfigAnalysis {
  const source = new YamlSource(text, file, caches?.chunks);
  const family: ConfigFamily = configFamily(source.topLevelKeys());
  const referencedFiles = new Set<string>();
  const asking =
    fileExists === undefined ? {} : { fileExists: (path: string) => (referencedFiles.add(path), fileExists(path)) };
  const parsed = parseRunConfig(text, file, env, {
    source,
    ...asking,
    ...(caches === undefined ? {} : { entryCache: caches.entries, engine: caches.engine }),
  });
  // Diagnostics never need the outline; hover, completion and code actions make it on first use, from
  // a parse of their own (parseRunConfig expanded `${VAR}`s in this one, and the outline is of the
  // text as written). With the piece cache that parse re-uses the pieces just parsed.
  let outline: { readonly node: OutlineNode | undefined } | undefined;
  return {
    text,
    file,
    dir: dirname(file),
    get outline() {
      outline ??= { node: outlineOf(new YamlSource(text, file, caches?.chunks)) };
      return outline.node;
    },
    problems: parsed.problems,
    family,
    registry: scorerSetFor(family, caches?.engine).registry,
    ...(parsed.datasetSource === undefined ? {} : { datasetSource: parsed.datasetSource }),
    referencedFiles,
  };
}
