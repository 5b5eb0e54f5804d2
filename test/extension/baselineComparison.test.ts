/**
 * The editor's baselines (issue 16, "In the editor"), on real runs of the built CLI: two runs of the
 * same config where case c2 passed in the first and fails in the second and c3 the other way round.
 * "Save as Baseline"'s process writes the first run's baseline, `evallens compare` compares the second
 * with it, and what the editor shows (the lens, the status bar's words, the regressed case's test
 * message) is derived from that real comparison, never from a hand-written one.
 */
import assert from 'node:assert/strict';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FailureMemory } from '../../extension/baseline/regressedCases';
import { LastComparisons } from '../../extension/baseline/lastComparisons';
import { comparisonAfterRun } from '../../extension/baseline/runBaseline';
import {
  comparisonInReport,
  comparisonOf,
  regressionStatusText,
  TOOLTIP_IDS,
  type RunComparison,
} from '../../extension/baseline/runComparison';
import { caseLenses } from '../../extension/editor/caseAnnotations';
import { compareWithBaseline, saveBaseline } from '../../extension/runner/baselineCli';
import { LastResults } from '../../extension/testing/lastResults';
import { RunEventMapper } from '../../extension/testing/runEventMapper';
import { createDecodeState, decodeEvents, finishEvents, type RunEvent } from '../../protocol/runEvents';
import { baselineFileOf } from '../../shared/baseline/baselinePath';
import { CLI, ensureBuilt, runCli } from '../support/cli';
import { RecordingSink } from './recordingSink';

const CONFIG = 'r.eval.yaml';
/** c1 passes in both runs, c2 passes only in the baseline, c3 only in the candidate. */
const BASELINE_CASES = [
  '{id: c1, output: x, expected: x}',
  '{id: c2, output: y, expected: y}',
  '{id: c3, output: z, expected: q}',
];
const CANDIDATE_CASES = [
  '{id: c1, output: x, expected: x}',
  '{id: c2, output: n, expected: y}',
  '{id: c3, output: z, expected: z}',
];

let root = '';
let baselineDir = '';
let candidateDir = '';
let candidateReport = '';
let candidateEvents: RunEvent[] = [];
let compareJson = '';

function writeConfig(dir: string, cases: readonly string[]): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, CONFIG), `cases:\n${cases.map((c) => `  - ${c}\n`).join('')}scorers:\n  exact_match: null\n`);
}

function onlyReport(dir: string): string {
  const runs = join(dir, '.evallens', 'runs');
  const [id] = readdirSync(runs);
  assert.ok(id !== undefined, `no run folder in ${runs}`);
  return join(runs, id, 'report.json');
}

function decoded(stdout: string): RunEvent[] {
  const state = createDecodeState();
  return [...decodeEvents(Buffer.from(stdout), state), ...finishEvents(state)];
}

before(async () => {
  ensureBuilt();
  root = mkdtempSync(join(tmpdir(), 'evallens-ext-baseline-'));
  baselineDir = join(root, 'base');
  candidateDir = join(root, 'cand');
  writeConfig(baselineDir, BASELINE_CASES);
  writeConfig(candidateDir, CANDIDATE_CASES);
  const first = await runCli(['run', CONFIG], { cwd: baselineDir });
  assert.equal(first.code, 1, first.stderr);
  const second = await runCli(['run', CONFIG, '--reporter', 'jsonl'], { cwd: candidateDir });
  assert.equal(second.code, 1, second.stderr);
  candidateEvents = decoded(second.stdout);
  candidateReport = onlyReport(candidateDir);
});
after(() => rmSync(root, { recursive: true, force: true }));

describe('Save as Baseline (the CLI forked as the command does)', () => {
  it('writes the latest run as <name>.baseline.json beside the config, where the extension looks for it', async () => {
    const config = join(baselineDir, CONFIG);
    const answer = await saveBaseline(CLI, config, join(baselineDir, '.evallens', 'runs'), baselineDir);
    assert.deepEqual(answer, { ok: true });
    const file = baselineFileOf(config);
    assert.equal(file, join(baselineDir, 'r.baseline.json'));
    const baseline = readFileSync(file, 'utf8');
    assert.match(baseline, /"format":"evallens-baseline"/);
    assert.match(baseline, /\{"id":"c2","fingerprint":"[0-9a-f]{16}","passed":true/);
  });

  it('says why when the config has no finished run, and writes nothing', async () => {
    const dir = join(root, 'never-ran');
    writeConfig(dir, BASELINE_CASES);
    const answer = await saveBaseline(CLI, join(dir, CONFIG), join(dir, '.evallens', 'runs'), dir);
    assert.equal(answer.ok, false);
    assert.match(answer.ok ? '' : answer.reason, /^no finished run of .*r\.eval\.yaml.*: run it first/);
    assert.equal(existsSync(baselineFileOf(join(dir, CONFIG))), false);
  });
});

describe('a run compared with its baseline', () => {
  let comparison: RunComparison | undefined;

  before(async () => {
    const answer = await compareWithBaseline(CLI, join(baselineDir, 'r.baseline.json'), candidateReport, root);
    assert.ok(answer.ok, answer.ok ? '' : answer.reason);
    compareJson = answer.json;
    comparison = comparisonOf(JSON.parse(compareJson));
  });

  it('reads each case transition from `evallens compare --reporter json`', () => {
    assert.ok(comparison !== undefined);
    assert.deepEqual(Object.fromEntries(comparison.transitions), {
      c1: 'unchanged_pass',
      c2: 'regressed',
      c3: 'fixed',
    });
    assert.deepEqual(comparison.regressed, ['c2']);
    assert.deepEqual(comparison.fixed, ['c3']);
  });

  it("reads a report's own `comparison` (a run given a baseline) without forking anything", async () => {
    const report = JSON.parse(readFileSync(candidateReport, 'utf8')) as Record<string, unknown>;
    const withComparison = JSON.stringify({ ...report, comparison: JSON.parse(compareJson) });
    assert.deepEqual(comparisonInReport(withComparison)?.regressed, ['c2']);
    assert.equal(comparisonInReport(readFileSync(candidateReport, 'utf8')), undefined);
    // The report's comparison wins: no baseline beside this config, and none is needed.
    const answer = await comparisonAfterRun({
      cliPath: '/nonexistent/cli.js',
      configFile: join(candidateDir, CONFIG),
      reportFile: candidateReport,
      reportJson: withComparison,
      cwd: candidateDir,
    });
    assert.deepEqual(answer.comparison?.regressed, ['c2']);
  });

  it('compares with the baseline file beside the config when the report has no comparison, and not without one', async () => {
    const run = {
      cliPath: CLI,
      configFile: join(candidateDir, CONFIG),
      reportFile: candidateReport,
      cwd: candidateDir,
    };
    assert.deepEqual(await comparisonAfterRun({ ...run, reportJson: readFileSync(candidateReport, 'utf8') }), {});
    copyFileSync(join(baselineDir, 'r.baseline.json'), join(candidateDir, 'r.baseline.json'));
    try {
      const answer = await comparisonAfterRun(run);
      assert.deepEqual(answer.comparison?.regressed, ['c2']);
      assert.deepEqual(answer.comparison?.fixed, ['c3']);
    } finally {
      rmSync(join(candidateDir, 'r.baseline.json'));
    }
  });

  it('says why a corrupt baseline beside the config could not be compared', async () => {
    const beside = join(candidateDir, 'r.baseline.json');
    writeFileSync(beside, '{"format":"evallens-baseline","version":1,\n');
    try {
      const answer = await comparisonAfterRun({
        cliPath: CLI,
        configFile: join(candidateDir, CONFIG),
        reportFile: candidateReport,
        cwd: candidateDir,
      });
      assert.equal(answer.comparison, undefined);
      assert.match(answer.problem ?? '', /r\.baseline\.json/);
    } finally {
      rmSync(beside);
    }
  });

  it('puts ▼ regressed and ▲ fixed beside the cases’ results, and nothing a newer result contradicts', () => {
    assert.ok(comparison !== undefined);
    const config = join(candidateDir, CONFIG);
    const results = new LastResults();
    for (const event of candidateEvents) if (event.type === 'case/end') results.record(config, event);
    const comparisons = new LastComparisons();
    comparisons.record(config, comparison);
    const sites = ['c1', 'c2', 'c3'].map((caseId, line) => ({ configFile: config, caseId, line }));
    const lensesOf = () =>
      caseLenses(
        sites,
        (c, id) => results.get(c, id),
        () => CONFIG,
        (c, id) => comparisons.get(c, id),
      )
        .filter((l) => l.kind === 'transition')
        .map((l) => [l.caseId, l.title]);
    assert.deepEqual(lensesOf(), [
      ['c2', '▼ regressed'],
      ['c3', '▲ fixed'],
    ]);
    // c2 passes again in a later run of that case only: its ▼ goes, c3's ▲ stays.
    const c2Passed = candidateEvents.find((e) => e.type === 'case/end' && e.caseId === 'c1');
    assert.ok(c2Passed?.type === 'case/end');
    results.record(config, { ...c2Passed, caseId: 'c2' });
    assert.deepEqual(lensesOf(), [['c3', '▲ fixed']]);
  });

  it('counts the regressions for the status bar and names the first ids', () => {
    assert.ok(comparison !== undefined);
    const words = regressionStatusText([{ label: 'cand/r.eval.yaml', comparison }]);
    assert.equal(words?.text, '▼ 1 regressed');
    assert.match(words?.tooltip ?? '', /^1 case passed in the baseline, not in the last run:\nc2\n1 fixed\./);
    assert.equal(regressionStatusText([]), undefined);
    const many = comparisonOf({
      cases: Array.from({ length: TOOLTIP_IDS + 3 }, (_, i) => ({ id: `case-${i}`, transition: 'regressed' })),
    });
    assert.ok(many !== undefined);
    const manyWords = regressionStatusText([{ label: 'a.eval.yaml', comparison: many }]);
    assert.equal(manyWords?.text, `▼ ${TOOLTIP_IDS + 3} regressed`);
    assert.match(manyWords?.tooltip ?? '', /case-4, 3 more\n/);
    assert.doesNotMatch(manyWords?.tooltip ?? '', /case-5/);
  });

  it("tells a regressed case's test message that it passed in the baseline, its diff kept", () => {
    assert.ok(comparison !== undefined);
    const sink = new RecordingSink();
    const failures = new FailureMemory();
    const mapper = new RunEventMapper(failures.wrap(sink));
    for (const event of candidateEvents) mapper.handle(event);
    const first = sink.states().get('c2');
    assert.ok(first?.kind === 'failed');
    const notice = failures.regressed('c2');
    assert.ok(notice !== undefined);
    assert.equal(notice.status, 'failed');
    const [message] = notice.messages;
    const lines = message?.text.split('\n') ?? [];
    assert.equal(lines[0], '▼ regressed: passed in the baseline, not in this run');
    assert.equal(lines.slice(1).join('\n'), first.messages[0]?.text);
    assert.deepEqual([message?.expected, message?.actual], ['y', 'n']);
    assert.deepEqual(message?.location, first.messages[0]?.location);
    // Cases that passed, or were not failing in this run, get nothing more.
    assert.equal(failures.regressed('c1'), undefined);
    assert.equal(failures.regressed('c3'), undefined);
  });
});
