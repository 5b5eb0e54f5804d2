import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRunConfig } from '../../../core/config/parseRunConfig';
import type { RunConfig } from '../../../core/config/runConfig';
import type { ScorerResult } from '../../../core/result';
import { caseRecords } from '../../../core/runner/records';
import { runEval } from '../../../core/runner/run';
import { targetPreparer } from '../../../core/target/targetPreparer';

export const AGENT = join(__dirname, '..', '..', 'fixtures', 'target', 'agent.mjs');
export const NODE = process.execPath;

/** A config from its lines, written in `dir` (a command target runs from the config's folder). */
export function loadConfig(
  dir: string,
  lines: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): RunConfig {
  const file = join(dir, 'target.eval.yaml');
  const text = lines.join('\n');
  writeFileSync(file, text);
  const parsed = parseRunConfig(text, file, env);
  assert.ok(parsed.config, JSON.stringify(parsed.problems, null, 2));
  return parsed.config;
}

/** Runs the config with its target as the run's preparer, as the CLI does; every result, in order. */
export async function runWithTarget(
  config: RunConfig,
  options: { env: Readonly<Record<string, string | undefined>>; trusted?: boolean },
): Promise<ScorerResult[]> {
  assert.ok(config.target, 'the config has a target');
  const preparer = targetPreparer(config.target, { env: options.env });
  const results: ScorerResult[] = [];
  try {
    await runEval(config, caseRecords(config), {
      runId: 'target-test',
      concurrency: 2,
      preparer,
      ...(options.trusted === undefined ? {} : { trusted: options.trusted }),
      onEvent: (e) => {
        if (e.type === 'result') results.push(e.result);
      },
    });
  } finally {
    await preparer.close();
  }
  return results;
}

/** `[caseId, scorer, status]` of each result, sorted, for comparing a run at a glance. */
export function outcomes(results: readonly ScorerResult[]): string[][] {
  const key = (r: readonly string[]) => r.join('\u0000');
  return results
    .map((r) => [r.caseId, r.scorer, r.status])
    .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
