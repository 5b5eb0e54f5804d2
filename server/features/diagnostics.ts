import type { Diagnostic } from 'vscode-languageserver';
import { parseRunConfig } from '../../core/config/parseRunConfig';
import { toDiagnostic } from '../convert';

export type Environment = Readonly<Record<string, string | undefined>>;

/** Whether a file the config names exists; absent when there is no file system to ask (untitled documents). */
export type FileExists = (absolutePath: string) => boolean;

/** The diagnostics of one run config's text: what the engine's parser reports, as LSP sees it. */
export function diagnoseRunConfig(text: string, file: string, env: Environment, fileExists?: FileExists): Diagnostic[] {
  const { problems } = fileExists === undefined ? parseRunConfig(text, file, env) : parseRunConfig(text, file, env, { fileExists });
  return problems.map((problem) => toDiagnostic(problem, file));
}
