import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Ajv2020 from 'ajv/dist/2020';
import compareSchema from '../../schemas/compare-report.schema.json';
import { ensureBuilt, runCli } from '../support/cli';

/**
 * Two real runs of one config made by the built CLI: the baseline's 31 answers all state the
 * 30-day window; the candidate's first 12 say "a month" instead (the `contains` scorer regresses on
 * 12 cases, 12 discordant pairs: exact McNemar p = 2·0.5¹² = 0.000488, Holm-adjusted ×2 over the two
 * scorers tested = 0.000977), one case is removed and one added.
 */
let work = '';
let baseReport = '';
let candReport = '';
let baseRun = '';

const CONFIG = `dataset: refunds.jsonl
scorers:
  contains:
    values: ["30 days"]
  secret_scan: {}
`;

function answer(i: number, regressed: boolean): string {
  return JSON.stringify({
    id: `case-${String(i).padStart(2, '0')}`,
    input: `Question ${i} about refunds?`,
    output: regressed
      ? `Answer ${i}: you can return it within a month.`
      : `Answer ${i}: you can return it within 30 days.`,
  });
}

function writeRunConfig(folder: string, ids: readonly number[], regressedBelow: number): void {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'refunds.eval.yaml'), CONFIG);
  writeFileSync(join(folder, 'refunds.jsonl'), `${ids.map((i) => answer(i, i < regressedBelow)).join('\n')}\n`);
}

async function runOnce(folder: string, runsDir: string): Promise<string> {
  const run = await runCli(['run', join(folder, 'refunds.eval.yaml'), '--runs-dir', runsDir, '--no-color'], {
    cwd: work,
  });
  assert.ok(run.code === 0 || run.code === 1, run.stderr);
  const [id] = readdirSync(join(work, runsDir));
  assert.ok(id !== undefined);
  return join(runsDir, id);
}

function compare(...args: string[]): ReturnType<typeof runCli> {
  return runCli(['compare', ...args], { cwd: work });
}

before(async () => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'evallens-compare-'));
  const shared = Array.from({ length: 30 }, (_, i) => i);
  writeRunConfig(join(work, 'base'), [...shared, 30], 0);
  writeRunConfig(join(work, 'cand'), [...shared, 31], 12);
  baseRun = await runOnce(join(work, 'base'), 'runs-base');
  const candRun = await runOnce(join(work, 'cand'), 'runs-cand');
  baseReport = join(baseRun, 'report.json');
  candReport = join(candRun, 'report.json');
});

after(() => rmSync(work, { recursive: true, force: true }));

describe('evallens compare on two real runs', () => {
  it('finds the regressed scorer and the regressed, added and removed cases; exit 1', async () => {
    const run = await compare(baseRun, candReport);
    assert.equal(run.code, 1, run.stderr);
    assert.equal(run.stderr, '');
    assert.match(run.stdout, /^ {2}contains \(pass rate\): REGRESSED$/m);
    assert.match(run.stdout, /^ {2}secret_scan \(pass rate\): NO SIGNIFICANT CHANGE$/m);
    assert.match(
      run.stdout,
      /delta -0\.400 \[[-0-9.]+, [-0-9.]+\] over 30 shared cases {3}p 0\.0010 \(Holm; raw 0\.0005, exact McNemar\) {3}12 regressed, 0 fixed/,
    );
    assert.match(
      run.stdout,
      /^Cases: 12 regressed, 0 fixed, 18 unchanged pass, 0 unchanged fail, 1 added, 1 removed$/m,
    );
    assert.match(run.stdout, /^ {2}regressed: case-00, case-01, .*case-11$/m);
    assert.match(run.stdout, /^ {2}added: case-31$/m);
    assert.match(run.stdout, /^ {2}removed: case-30$/m);
    assert.match(run.stdout, /^REGRESSED: contains \(--fail-on regression: exit 1\)$/m);
  });

  it('writes JSON that the compare-report schema validates, with every field the issue names', async () => {
    const run = await compare(baseRun, candRun(), '--reporter', 'json');
    assert.equal(run.code, 1, run.stderr);
    const value = JSON.parse(run.stdout) as {
      scorers: {
        name: string;
        verdict: string;
        p_value: number;
        p_value_raw: number;
        delta: { mean: number; ci_low: number; ci_high: number };
        baseline: { mean: number; n: number };
        candidate: { mean: number; n: number };
      }[];
      cases: { id: string; transition: string }[];
      counts: Record<string, number>;
      failed: boolean;
    };
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    assert.equal(ajv.validate(compareSchema, value), true, JSON.stringify(ajv.errors));
    const contains = value.scorers.find((s) => s.name === 'contains');
    assert.ok(contains !== undefined);
    assert.equal(contains.verdict, 'regressed');
    // Exact McNemar by hand: 12 discordant pairs, all regressions: p = 2 · (1/2)^12 = 0.00048828125.
    assert.ok(Math.abs(contains.p_value_raw - 2 / 4096) < 1e-12, String(contains.p_value_raw));
    // Holm over the two scorers tested: sorted (0.000488, 1): 0.000488 × 2.
    assert.ok(Math.abs(contains.p_value - 4 / 4096) < 1e-12, String(contains.p_value));
    assert.ok(Math.abs(contains.delta.mean - -12 / 30) < 1e-12);
    assert.ok(contains.delta.ci_high < 0);
    assert.deepEqual([contains.baseline.mean, contains.baseline.n], [1, 31]);
    assert.ok(Math.abs(contains.candidate.mean - 19 / 31) < 1e-12);
    assert.equal(value.cases.length, 32);
    assert.deepEqual(value.cases[0], { id: 'case-00', transition: 'regressed' });
    assert.deepEqual(
      value.cases.find((c) => c.id === 'case-31'),
      { id: 'case-31', transition: 'added' },
    );
    assert.deepEqual(
      value.cases.find((c) => c.id === 'case-30'),
      { id: 'case-30', transition: 'removed' },
    );
    assert.deepEqual(value.counts, {
      regressed: 12,
      fixed: 0,
      unchanged_pass: 18,
      unchanged_fail: 0,
      added: 1,
      removed: 1,
      changed: 0,
    });
    assert.equal(value.failed, true);
  });

  it('exits by --fail-on: regression 1, never 0, any-change 1; swapped runs improve: regression 0, any-change 1', async () => {
    assert.equal((await compare(baseReport, candReport, '--fail-on', 'regression')).code, 1);
    assert.equal((await compare(baseReport, candReport, '--fail-on', 'never')).code, 0);
    assert.equal((await compare(baseReport, candReport, '--fail-on', 'any-change')).code, 1);
    const swapped = await compare(candReport, baseReport);
    assert.equal(swapped.code, 0, swapped.stdout);
    assert.match(swapped.stdout, /^ {2}contains \(pass rate\): IMPROVED$/m);
    assert.equal((await compare(candReport, baseReport, '--fail-on', 'any-change')).code, 1);
    // The same run on both sides: nothing moved, so even any-change passes.
    assert.equal((await compare(baseReport, baseRun, '--fail-on', 'any-change')).code, 0);
    const bad = await compare(baseReport, candReport, '--fail-on', 'sometimes');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--fail-on must be one of regression, any-change, never; got "sometimes"/);
  });

  it('refuses a corrupt file, naming it with line:col; exit 2 and nothing compared', async () => {
    const lines = readFileSync(join(work, candReport), 'utf8').split('\n');
    const at = lines.findIndex((l) => l.startsWith('{"caseId"'));
    lines[at] = (lines[at] ?? '').replace('"scorer":', '"scorer" ');
    writeFileSync(join(work, 'corrupt.json'), lines.join('\n'));
    const run = await compare(baseReport, 'corrupt.json');
    assert.equal(run.code, 2);
    assert.equal(run.stdout, '');
    const column = (lines[at] ?? '').indexOf('"scorer" ') + '"scorer" '.length + 1;
    assert.equal(
      run.stderr,
      `evallens: corrupt.json:${at + 1}:${column}: expected a result as JSON, saw a JSON syntax error (colon expected): the file is corrupt\n`,
    );
  });

  it('refuses a file cut short', async () => {
    const text = readFileSync(join(work, candReport), 'utf8');
    const cut = text.slice(0, text.indexOf('\n"results":['));
    writeFileSync(join(work, 'cut.json'), `${cut}\n`);
    const run = await compare('cut.json', baseReport);
    assert.equal(run.code, 2);
    assert.match(
      run.stderr,
      /^evallens: cut\.json:\d+:1: expected the rest of the report .*saw the end of the file: the file is cut short\n$/,
    );
  });

  it('refuses a report of an older format, in the CLI layout and re-indented', async () => {
    const text = readFileSync(join(work, candReport), 'utf8');
    writeFileSync(join(work, 'old.json'), text.replace('"version":1,', '"version":0,'));
    const run = await compare(baseReport, 'old.json');
    assert.equal(run.code, 2);
    assert.equal(
      run.stderr,
      'evallens: old.json:2:1: expected an EvalLens report of version 1, saw version 0 (a report of an older format: run the eval again to compare it)\n',
    );
    const reindented = JSON.parse(text) as Record<string, unknown>;
    delete reindented['version'];
    writeFileSync(join(work, 'old-indented.json'), JSON.stringify(reindented, null, 2));
    const whole = await compare('old-indented.json', baseReport);
    assert.equal(whole.code, 2);
    assert.match(
      whole.stderr,
      /^evallens: old-indented\.json:1:1: expected an EvalLens report of version 1, saw no version/,
    );
  });

  it('reads a re-indented report whole and compares it as the same run', async () => {
    const text = readFileSync(join(work, candReport), 'utf8');
    writeFileSync(join(work, 'indented.json'), JSON.stringify(JSON.parse(text), null, 2));
    const run = await compare(baseReport, 'indented.json', '--fail-on', 'never');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^ {2}contains \(pass rate\): REGRESSED$/m);
  });

  it('refuses runs of different configs, saying which', async () => {
    const text = readFileSync(join(work, candReport), 'utf8');
    writeFileSync(
      join(work, 'other.json'),
      text.replace(/"configFile":"[^"]*refunds\.eval\.yaml"/, '"configFile":"/ci/orders.eval.yaml"'),
    );
    const run = await compare(baseReport, 'other.json');
    assert.equal(run.code, 2);
    assert.equal(
      run.stderr,
      `evallens: ${baseReport} and other.json are runs of different configs (refunds.eval.yaml and orders.eval.yaml): compare two runs of the same config\n`,
    );
  });

  it('refuses a path that is neither a report nor a run folder', async () => {
    const missing = await compare(baseReport, 'nowhere.json');
    assert.equal(missing.code, 2);
    assert.equal(missing.stderr, 'evallens: nowhere.json: cannot read it (it does not exist)\n');
    const folder = await compare(baseReport, 'base');
    assert.equal(folder.code, 2);
    assert.equal(
      folder.stderr,
      'evallens: base: expected a run folder with a report.json (written when a run finishes), saw none\n',
    );
  });
});

describe('evallens baseline save', () => {
  it('writes the latest run as a sorted, deterministic baseline beside the config, which compare takes as a side', async () => {
    const saved = await runCli(['baseline', 'save', 'base/refunds.eval.yaml', '--runs-dir', 'runs-base'], {
      cwd: work,
    });
    assert.equal(saved.code, 0, saved.stderr);
    assert.match(saved.stdout, /^baseline: base\/refunds\.baseline\.json \(31 cases, from run /);
    const file = join(work, 'base', 'refunds.baseline.json');
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n');
    assert.deepEqual(lines.slice(0, 4), [
      '{',
      '"format":"evallens-baseline",',
      '"version":1,',
      '"config":"refunds.eval.yaml",',
    ]);
    // The fingerprint by hand: SHA-256 of the canonical JSON of the case's input (it has no expected), first 16 hex.
    const fingerprint = createHash('sha256').update('{"input":"Question 0 about refunds?"}').digest('hex').slice(0, 16);
    assert.equal(
      lines.find((l) => l.startsWith('{"id":"case-00"')),
      `{"id":"case-00","fingerprint":"${fingerprint}","passed":true,"scorers":{"contains":{"passed":true,"score":1},"secret_scan":{"passed":true,"score":1}}},`,
    );
    const ids = lines
      .filter((l) => l.startsWith('{"id":'))
      .map((l) => (JSON.parse(l.replace(/,$/, '')) as { id: string }).id);
    assert.deepEqual(ids, [...ids].sort());
    assert.equal(ids.length, 31);
    assert.doesNotMatch(text, /durationMs|runId|startedAt|\/tmp|evallens-compare-/);
    // Saved again from the same run: the same bytes.
    await runCli(['baseline', 'save', 'base/refunds.eval.yaml', '--runs-dir', 'runs-base'], { cwd: work });
    assert.equal(readFileSync(file, 'utf8'), text);

    const run = await compare('base/refunds.baseline.json', candReport, '--reporter', 'json');
    assert.equal(run.code, 1, run.stderr);
    const value = JSON.parse(run.stdout) as {
      scorers: { name: string; verdict: string; p_value: number }[];
      counts: object;
    };
    assert.deepEqual(
      value.scorers.map((s) => [s.name, s.verdict]),
      [
        ['contains', 'regressed'],
        ['secret_scan', 'no significant change'],
      ],
    );
    assert.deepEqual(value.counts, {
      regressed: 12,
      fixed: 0,
      unchanged_pass: 18,
      unchanged_fail: 0,
      added: 1,
      removed: 1,
      changed: 0,
    });

    writeFileSync(join(work, 'old.baseline.json'), text.replace('"version":1,', '"version":0,'));
    const old = await compare('old.baseline.json', candReport);
    assert.equal(old.code, 2);
    assert.equal(
      old.stderr,
      'evallens: old.baseline.json:3:1: expected an EvalLens baseline of version 1, saw version 0 (a baseline of an older format: save it again with `evallens baseline save`)\n',
    );
  });

  it('says when the config has no finished run', async () => {
    const run = await runCli(['baseline', 'save', 'cand/refunds.eval.yaml', '--runs-dir', 'runs-base'], { cwd: work });
    assert.equal(run.code, 2);
    assert.equal(
      run.stderr,
      'evallens: no finished run of cand/refunds.eval.yaml in runs-base: run it first (`evallens run cand/refunds.eval.yaml`)\n',
    );
  });
});

function candRun(): string {
  return join(candReport, '..');
}
