/**
 * `evallens validate <config>… --cases`: each config's cases as the engine reads them (ids, lines, records
 * that cannot be read), printed as one JSON line per config (protocol/caseList.ts). The VS Code extension lists
 * its Test Explorer items from it, in this process rather than its own: loading a config checks its
 * patterns synchronously, which must not block the editor.
 */
import { resolve } from 'node:path';
import { loadRunConfig } from '../core/config/loadRunConfig';
import { cliEngine } from './engine';
import { DatasetError } from '../core/dataset/datasetError';
import { caseRecords } from '../core/runner/records';
import { judgeCallsPerEvaluation } from '../core/judge/judgeCallPlan';
import { jsonPrintable } from '../shared/text/printable';
import { type SourceRange } from '../core/text/position';
import { displayLineColumn, toDisplayRange } from '../shared/text/displayPosition';
import type { CaseList, ListedCase, ListedPlan } from '../protocol/caseList';
import { databaseReaches } from './preparers';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * One JSON line per config, in order; several configs in one process share its start-up and compiled
 * schemas. Exit code 0 when every config loaded (even if a dataset could not be read in full), 2 otherwise.
 */
export async function printCaseLists(paths: readonly string[], env: Env): Promise<number> {
  let code = 0;
  for (const path of paths) {
    const list = await listCases(resolve(path), env);
    process.stdout.write(`${jsonPrintable(JSON.stringify(printedList(list)))}\n`);
    if (list.cases.length === 0 && list.problem !== undefined) code = 2;
  }
  return code;
}

export async function listCases(configFile: string, env: Env): Promise<CaseList> {
  const parsed = loadRunConfig(configFile, env, { workspace: process.cwd(), engine: cliEngine });
  const config = parsed.config;
  if (config === undefined) {
    const first = parsed.problems.find((p) => p.severity === 'error') ?? parsed.problems[0];
    return {
      configFile,
      cases: [],
      reaches: [],
      problem: first === undefined ? 'the config could not be read' : `${where(first.range)}${first.message}`,
    };
  }
  // Server databases are sockets the workspace chose: a config with one is not free (on-save runs leave it out).
  const scorerReaches = config.scorers.flatMap((s) =>
    s.definition.reaches === undefined ? [] : [s.definition.reaches],
  );
  const databases = databaseReaches(config);
  const reaches = [...new Set([...scorerReaches, ...databases])];
  const datasetFile = config.dataset?.path;
  // What `evallens plan` would add up, so the editor plans a run without a second process.
  const plan: ListedPlan = {
    trials: config.numTrials,
    scorers: config.scorers.map((s) => ({
      name: s.name,
      key: s.definition.key,
      acrossTrials: s.definition.acrossTrials === true,
      ...(s.definition.reaches === undefined ? {} : { reaches: s.definition.reaches }),
    })),
    reaches: databases,
  };
  const base = {
    configFile,
    reaches,
    target: config.target !== undefined,
    plan,
    ...(datasetFile === undefined ? {} : { datasetFile }),
  };
  const cases: ListedCase[] = [];
  try {
    for await (const record of caseRecords(config)) {
      if (record.ok) {
        const judgeCalls = judgeCallsPerEvaluation(config, record.value.case);
        cases.push({
          id: record.value.case.id,
          range: record.value.range,
          ...(judgeCalls.some((n) => n > 0) ? { judgeCalls } : {}),
        });
      } else cases.push({ id: record.error.id, range: record.error.range, readError: record.error.message });
    }
  } catch (e) {
    // A dataset that cannot be read at all; the cases read before it stay listed.
    const range = e instanceof DatasetError ? e.range : undefined;
    return {
      ...base,
      cases,
      problem: `${range === undefined ? '' : where(range)}${e instanceof Error ? e.message : String(e)}`,
    };
  }
  return { ...base, cases };
}

/** The list as printed: lines and columns 1-based, as everything the CLI prints (protocol/caseList.ts reads them back). */
function printedList(list: CaseList): CaseList {
  return { ...list, cases: list.cases.map((c) => ({ ...c, range: toDisplayRange(c.range) })) };
}

function where(range: SourceRange): string {
  return `${displayLineColumn(range.start)}: `;
}
