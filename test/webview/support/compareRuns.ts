/**
 * Two real runs of the quick-start example (examples/quickstart/refunds.eval.yaml, as shipped) made by
 * the built CLI, and their real comparison (`evallens compare --reporter json`). The dataset is the
 * example's format with 31 answers per run: the baseline's all state the 30-day window; in the
 * candidate, answers 0–11 say "within a month" instead (`contains` regresses on 12 cases: exact
 * McNemar p = 2·0.5¹² = 0.000488), case-30 is removed and case-31 added.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, ROOT, runCli } from '../../support/cli';

export const REGRESSED = 12;

export interface ComparedRuns {
  readonly work: string;
  readonly runsDir: string;
  readonly baselineRun: string;
  readonly candidateRun: string;
  /** What `evallens compare <baseline> <candidate> --reporter json` printed. */
  readonly compareJson: string;
  cleanup(): void;
}

function answer(i: number, regressed: boolean): string {
  const id = `case-${String(i).padStart(2, '0')}`;
  const good = `You can return item ${i} within 30 days of delivery for a full refund.`;
  return JSON.stringify({
    id,
    input: `Can I return item ${i}?`,
    output: regressed ? `You can return item ${i} within a month of delivery for a full refund.` : good,
    expected: good,
  });
}

function writeConfig(folder: string, ids: readonly number[], regressedBelow: number): string {
  mkdirSync(folder, { recursive: true });
  const config = join(folder, 'refunds.eval.yaml');
  copyFileSync(join(ROOT, 'examples', 'quickstart', 'refunds.eval.yaml'), config);
  writeFileSync(join(folder, 'refunds.jsonl'), `${ids.map((i) => answer(i, i < regressedBelow)).join('\n')}\n`);
  return config;
}

async function runOnce(config: string, runsDir: string, cwd: string): Promise<string> {
  const before = new Set(safeReaddir(runsDir));
  const run = await runCli(['run', config, '--runs-dir', runsDir, '--no-color'], { cwd });
  assert.ok(run.code === 0 || run.code === 1, run.stderr);
  const made = safeReaddir(runsDir).filter((id) => !before.has(id));
  assert.equal(made.length, 1);
  return join(runsDir, made[0] ?? '');
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

export async function makeComparedRuns(): Promise<ComparedRuns> {
  ensureBuilt();
  const work = mkdtempSync(join(tmpdir(), 'evallens-resultscompare-'));
  const runsDir = join(work, '.evallens', 'runs');
  const shared = Array.from({ length: 30 }, (_, i) => i);
  // Both runs are of one config file (the dataset is rewritten between them), as in a workspace.
  const config = writeConfig(join(work, 'evals'), [...shared, 30], 0);
  const baselineRun = await runOnce(config, runsDir, work);
  writeConfig(join(work, 'evals'), [...shared, 31], REGRESSED);
  const candidateRun = await runOnce(config, runsDir, work);
  const compared = await runCli(['compare', baselineRun, candidateRun, '--reporter', 'json'], { cwd: work });
  assert.equal(compared.code, 1, compared.stderr);
  return {
    work,
    runsDir,
    baselineRun,
    candidateRun,
    compareJson: compared.stdout,
    cleanup: () => rmSync(work, { recursive: true, force: true }),
  };
}

/**
 * A report.json of `cases` cases × one pass/fail scorer in the CLI's own layout (one case or result
 * per line), for a comparison too large to run here case by case: 10% of cases fail in both runs, and
 * with `regress` every 50th more (2%) fails. The comparison of two of them is the CLI's, as for real runs.
 */
export function writeLargeReport(file: string, cases: number, regress: boolean): void {
  const failing = (i: number): boolean => i % 10 === 0 || (regress && i % 50 === 1);
  const head = {
    version: 1,
    tool: { name: 'evallens', version: '0.1.0' },
    runId: regress ? 'large-candidate' : 'large-baseline',
    configFile: '/work/evals/large.eval.yaml',
    startedAt: '2026-12-01T00:00:00.000Z',
    finishedAt: '2026-12-01T00:10:00.000Z',
    durationMs: 600000,
    cancelled: false,
    numTrials: 1,
    summary: { passed: 0, failed: 0, errored: 0, skipped: 0, total: cases },
    job: {},
  };
  const counts = { pass: 0, fail: 0, error: 0, inconclusive: 0, unsupported: 0, timeout: 0, skipped: 0, measured: 0 };
  const scorer = { name: 'contains', key: 'contains', origin: 'EvalBook', scale: { kind: 'bounded', max: 1 } };
  const lines = ['{'];
  for (const [key, value] of Object.entries(head)) lines.push(`${JSON.stringify(key)}:${JSON.stringify(value)},`);
  lines.push(`"scorers":[\n${JSON.stringify({ ...scorer, weight: 1, lowerIsBetter: false, counts })}\n],`, '"cases":[');
  const id = (i: number): string => `case-${String(i).padStart(6, '0')}`;
  for (let i = 0; i < cases; i++)
    lines.push(
      `${JSON.stringify({ id: id(i), index: i, status: failing(i) ? 'failed' : 'passed' })}${i === cases - 1 ? '' : ','}`,
    );
  lines.push('],', '"results":[');
  for (let i = 0; i < cases; i++) {
    const passed = !failing(i);
    const result = {
      caseId: id(i),
      scorer: 'contains',
      trial: 1,
      status: passed ? 'pass' : 'fail',
      score: passed ? 1 : 0,
      passed,
      reason: passed ? 'the output contains the value' : 'the value is missing from the output',
    };
    lines.push(`${JSON.stringify(result)}${i === cases - 1 ? '' : ','}`);
  }
  lines.push(']', '}', '');
  writeFileSync(file, lines.join('\n'));
}
