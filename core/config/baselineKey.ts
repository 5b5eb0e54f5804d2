import { isAbsolute, resolve } from 'node:path';
import type { Problem } from '../problem';
import type { SourceRange } from '../text/position';
import type { YamlSource } from './yamlSource';

/** `baseline:`: the baseline every run of the config is compared with (docs/compare.md). */
export interface BaselineRef {
  /** Absolute path: a baseline file, a report.json or a run folder. */
  readonly path: string;
  /** The value, where messages about the baseline point. */
  readonly range: SourceRange;
}

/**
 * Reads `baseline:` (the schema has checked it is a non-empty string). A file that does not exist is
 * a warning at the value, not an error: `evallens run --save-baseline` is how it comes to exist, and a
 * run without `--save-baseline` refuses to start on it (cli/runBaseline.ts).
 */
export function readBaselineKey(
  source: YamlSource,
  data: Record<string, unknown>,
  dir: string,
  fileExists: ((path: string) => boolean) | undefined,
): { ref?: BaselineRef; problems: Problem[] } {
  const value = data['baseline'];
  if (typeof value !== 'string' || value === '') return { problems: [] };
  const ref = { path: isAbsolute(value) ? value : resolve(dir, value), range: source.valueRange(['baseline']) };
  if (fileExists === undefined || fileExists(ref.path)) return { ref, problems: [] };
  return {
    ref,
    problems: [
      {
        code: 'missing-baseline',
        severity: 'warning',
        message: `the baseline ${ref.path} does not exist (paths are relative to the config's folder): runs are not compared until it does; \`evallens run --save-baseline\` or \`evallens baseline save\` writes it`,
        range: ref.range,
      },
    ],
  };
}
