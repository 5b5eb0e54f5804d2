import { existsSync } from 'node:fs';
import { parseRunConfig, type ParsedRunConfig } from './parseRunConfig';
import { readConfigFile } from './readConfigFile';

/** Reads a run config from disk and parses it; an unreadable file is a problem, not a crash. */
export function loadRunConfig(path: string, env: Readonly<Record<string, string | undefined>>): ParsedRunConfig {
  const read = readConfigFile(path, 'run config');
  if ('problem' in read) return { problems: [read.problem] };
  return parseRunConfig(read.text, read.file, env, { fileExists: existsSync });
}
