import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Problem } from '../problem';
import { parseRunConfig, type ParsedRunConfig } from './parseRunConfig';

/** Reads a run config from disk and parses it; an unreadable file is a problem, not a crash. */
export function loadRunConfig(path: string, env: Readonly<Record<string, string | undefined>>): ParsedRunConfig {
  const file = resolve(path);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message;
    const problem: Problem = {
      code: 'unreadable-config',
      severity: 'error',
      message: `cannot read the run config: ${reason}`,
      range: { file, start: { offset: 0, line: 0, column: 0 }, end: { offset: 0, line: 0, column: 0 } },
    };
    return { problems: [problem] };
  }
  return parseRunConfig(text, file, env, { fileExists: existsSync });
}
