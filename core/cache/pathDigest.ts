import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { readBoundedTextSync } from '../text/boundedRead';
import type { Json } from '../case';
import { canonicalJson } from '../scorers/support/canonicalJson';
import { sha256 } from './cacheKey';

/** Bounds on what a fingerprint reads: a folder option (skills_dir) with more is keyed by its listing and sizes past the bound. */
const MAX_FILES = 2000;
const MAX_BYTES = 64 * 1024 * 1024;

/**
 * What a path option contributes to a cache key: the file's content (a changed prompt, script or
 * schema is a new key even under the same name), a folder's files by content, or that it is missing.
 */
export function pathDigest(absolute: string): string {
  let stats;
  try {
    stats = statSync(absolute);
  } catch {
    return 'missing';
  }
  if (stats.isDirectory()) return folderDigest(absolute);
  if (!stats.isFile()) return 'not a file';
  return fileDigest(absolute, stats.size);
}

/**
 * A judge's model config by what decides a verdict: its settings, parsed, without any key that names
 * or holds a credential (`api_key_env`, `headers.Authorization`, …). A rotated key or another key
 * variable gives the same verdicts and keeps the key; a new model, prompt prefix or temperature does not.
 */
export function modelConfigDigest(absolute: string): string {
  // Read as the run reads a model config: a regular file within the config cap.
  const read = readBoundedTextSync(absolute, 'config');
  if (!read.ok) return 'missing';
  const text = read.text;
  try {
    return sha256(canonicalJson(withoutSecrets(parse(text) as Json)));
  } catch {
    // A file that does not parse does not judge either; its bytes key it.
    return sha256(text);
  }
}

/** Key names whose values are credentials or name where one is kept (`max_tokens` is not one). */
const SECRET_KEY =
  /(^|[_-])(password|passwd|secret|token|api[_-]?key|access[_-]?key|authorization|auth|credentials?|cookie)([_-](env|file|path))?$/i;

function withoutSecrets(value: Json): Json {
  if (value === null || typeof value !== 'object') return value ?? null;
  if (Array.isArray(value)) return (value as readonly Json[]).map(withoutSecrets);
  const kept: { [key: string]: Json } = {};
  for (const [key, inner] of Object.entries(value as { readonly [key: string]: Json }))
    if (!SECRET_KEY.test(key)) kept[key] = withoutSecrets(inner);
  return kept;
}

function fileDigest(absolute: string, size: number): string {
  if (size > MAX_BYTES) return `size ${size}`;
  try {
    return sha256(readFileSync(absolute));
  } catch {
    return 'unreadable';
  }
}

function folderDigest(root: string): string {
  const entries: string[] = [];
  let bytes = 0;
  const walk = (dir: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (entries.length >= MAX_FILES) return;
      const path = join(dir, name);
      let stats;
      try {
        stats = statSync(path);
      } catch {
        continue;
      }
      if (stats.isDirectory()) walk(path);
      else if (stats.isFile()) {
        bytes += stats.size;
        const content = bytes > MAX_BYTES ? `size ${stats.size}` : fileDigest(path, stats.size);
        entries.push(`${relative(root, path)}\t${content}`);
      }
    }
  };
  walk(root);
  return sha256(entries.join('\n'));
}
