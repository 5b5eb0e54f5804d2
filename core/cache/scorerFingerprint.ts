import { isAbsolute, relative, resolve } from 'node:path';
import type { Json } from '../case';
import type { ScorerInstance } from '../config/runConfig';
import { fileOptionKeys } from '../config/fileOptions';
import { canonicalJson } from '../scorers/support/canonicalJson';
import { resolveOptionPath } from '../scorers/scorer';
import { sha256 } from './cacheKey';
import { modelConfigDigest, pathDigest } from './pathDigest';

/**
 * Everything about a scorer entry that decides its verdicts, as one hash: its key, the version of
 * the scorer (EvalLens's own version: built-in scorers and their prompts change with it), and its
 * resolved options (defaults filled in), where each option that names a file counts by the file's
 * content (the model config without secrets), and a command's words that name a file in the
 * config's folder count by that file's content too (`python3 scorers/check.py`). Options that only
 * say how the runner treats the result (its name, threshold, weight, time limit) are left out:
 * the threshold is applied to the kept verdict at every run. Computed once per entry per run.
 */
export function scorerFingerprint(instance: ScorerInstance, version: string): string {
  const fileKeys = new Set(fileOptionKeys(instance.definition.schema));
  const options: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(instance.options)) {
    if (RUNNER_OPTIONS.has(key)) continue;
    if (fileKeys.has(key) && typeof value === 'string') {
      const path = resolveOptionPath(instance.context, value);
      options[key] = { path: value, content: key === 'model_config' ? modelConfigDigest(path) : pathDigest(path) };
    } else options[key] = value;
  }
  const cmd = instance.options['cmd'];
  const commandFiles = typeof cmd === 'string' ? filesNamedBy(cmd, instance.context.configDir) : {};
  return sha256(canonicalJson({ key: instance.definition.key, version, options, commandFiles }));
}

/** The common options that do not reach the scorer's verdict (scorer-common.schema.json), and the list form's `type` (the key is keyed already). */
const RUNNER_OPTIONS: ReadonlySet<string> = new Set([
  'name',
  'type',
  'threshold',
  'weight',
  'lower_is_better',
  'timeout_ms',
]);

/**
 * The files in the config's folder (or below it) that a command's words name, by content. Words are
 * split at white space, quotes and `=` (`--rules=rules.json`); a word that is no file there is the
 * command's own text, already in the options.
 */
export function filesNamedBy(command: string, configDir: string): { [word: string]: string } {
  const files: { [word: string]: string } = {};
  for (const word of command.split(/[\s"'=`]+/)) {
    if (word === '' || word.startsWith('-') || word.length > 4096) continue;
    const path = resolve(configDir, word);
    const inside = relative(configDir, path);
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) continue;
    const digest = pathDigest(path);
    if (digest !== 'missing' && digest !== 'not a file') files[word] = digest;
  }
  return files;
}
