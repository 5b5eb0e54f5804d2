/**
 * `evallens validate <config> --case-data <id>`: one case's fields (input, output, expected, trace, …)
 * as the runner reads them, printed as one JSON line (protocol/caseData.ts). Reports and run events
 * carry no payload, so the results view's detail pane asks for the case it shows; the extension calls
 * this in a child process rather than loading the config on the editor's thread. The dataset is
 * streamed up to the case, never held.
 */
import { resolve } from 'node:path';
import type { EvalCase } from '../core/case';
import { loadRunConfig } from '../core/config/loadRunConfig';
import { cliEngine } from './engine';
import { caseRecords } from '../core/runner/records';
import { jsonPrintable } from '../shared/text/printable';
import { traceOf } from '../core/trace/traceOf';
import type { CaseLookup } from '../protocol/caseData';
import type { CaseData } from '../protocol/webview';
import { displayLineColumn } from '../shared/text/displayPosition';

type Env = Readonly<Record<string, string | undefined>>;

/** Prints the lookup as one JSON line; exit code 0 when the case was found, 2 otherwise. */
export async function printCaseData(configPath: string, caseId: string, env: Env): Promise<number> {
  const found = await lookupCase(resolve(configPath), caseId, env);
  process.stdout.write(`${jsonPrintable(JSON.stringify(found))}\n`);
  return found.ok ? 0 : 2;
}

export function caseData(evalCase: EvalCase): CaseData {
  const trace = evalCase.trace === undefined || evalCase.trace === null ? undefined : traceOf(evalCase);
  return {
    id: evalCase.id,
    ...(evalCase.input === undefined ? {} : { input: evalCase.input }),
    ...(evalCase.output === undefined ? {} : { output: evalCase.output }),
    ...(evalCase.expected === undefined ? {} : { expected: evalCase.expected }),
    ...(evalCase.context === undefined ? {} : { context: evalCase.context }),
    ...(evalCase.metadata === undefined ? {} : { metadata: evalCase.metadata }),
    ...(evalCase.trials === undefined ? {} : { trials: evalCase.trials }),
    ...(evalCase.trace === undefined ? {} : { trace: evalCase.trace }),
    ...(trace === undefined ? {} : trace.ok ? { traceSteps: trace.trace.steps } : { traceProblem: trace.reason }),
  };
}

export async function lookupCase(configFile: string, caseId: string, env: Env): Promise<CaseLookup> {
  // The config's own folder is its workspace, as the extension host read it before this command.
  const loaded = loadRunConfig(configFile, env, { engine: cliEngine });
  if (loaded.config === undefined) {
    const problem = loaded.problems.find((p) => p.severity === 'error') ?? loaded.problems[0];
    const where =
      problem === undefined ? configFile : `${problem.range.file}:${displayLineColumn(problem.range.start)}`;
    return {
      ok: false,
      reason: `the run config could not be loaded (${where}: ${problem?.message ?? 'unknown problem'})`,
    };
  }
  try {
    for await (const record of caseRecords(loaded.config)) {
      if (record.ok && record.value.case.id === caseId) return { ok: true, data: caseData(record.value.case) };
      if (!record.ok && record.error.id === caseId) {
        const at = record.error.range;
        return {
          ok: false,
          reason: `the dataset record at ${at.file}:${displayLineColumn(at.start)} could not be read: ${record.error.message}`,
        };
      }
    }
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
  const where = loaded.config.dataset?.path ?? configFile;
  return { ok: false, reason: `no case "${caseId}" in ${where} now (the dataset may have changed since the run)` };
}
