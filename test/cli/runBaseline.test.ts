import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import compareSchema from '../../schemas/compare-report.schema.json';
import reportSchema from '../../schemas/report.schema.json';
import { ensureBuilt, runCli } from '../support/cli';

/**
 * `evallens run --baseline` on real runs of one config made by the built CLI. The baseline run: 30
 * refund answers that all state the 30-day window, each with a trace of 2 turns. The candidates:
 * - `regressed`: the first 12 answers say "a month" (`contains` fails on them: 12 cases regressed,
 *   exact McNemar p = 2 · 0.5¹² = 0.000488), and case-29's input was edited (its fingerprint changes);
 * - `turns`: every answer still passes, but each case now takes 3, 4 or 5 turns (turn_count, lower
 *   is better, rises on every case: paired t, a significant regression that fails no case);
 * - `noise`: every case passes, turns go 1 up on the even cases and 1 down on the odd ones (mean change
 *   0: no significant change).
 */
let work = '';
let baselineText = '';

function configText(baseline?: string): string {
  return `dataset: refunds.jsonl
${baseline === undefined ? '' : `baseline: ${baseline}\n`}scorers:
  contains:
    values: ["30 days"]
  turn_count:
    lower_is_better: true
`;
}

interface Variant {
  readonly regressedBelow?: number;
  readonly changedInput?: number;
  readonly turns?: (i: number) => number;
}

function writeFolder(name: string, variant: Variant, baseline?: string): string {
  const folder = join(work, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'refunds.eval.yaml'), configText(baseline));
  const lines = Array.from({ length: 30 }, (_, i) =>
    JSON.stringify({
      id: `case-${String(i).padStart(2, '0')}`,
      input: i === variant.changedInput ? `Question ${i}, reworded?` : `Question ${i} about refunds?`,
      output:
        i < (variant.regressedBelow ?? 0)
          ? `Answer ${i}: you can return it within a month.`
          : `Answer ${i}: you can return it within 30 days.`,
      trace: { turns: Array.from({ length: variant.turns?.(i) ?? 2 }, () => ({})) },
    }),
  );
  writeFileSync(join(folder, 'refunds.jsonl'), `${lines.join('\n')}\n`);
  return folder;
}

function run(folder: string, ...args: string[]): ReturnType<typeof runCli> {
  return runCli(['run', 'refunds.eval.yaml', '--no-color', '--runs-dir', 'runs', ...args], { cwd: join(work, folder) });
}

function runsIn(folder: string): string[] {
  const dir = join(work, folder, 'runs');
  return existsSync(dir) ? readdirSync(dir) : [];
}

before(async () => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'evallens-run-baseline-'));
  writeFolder('base', {});
  const saved = await run('base', '--save-baseline');
  assert.equal(saved.code, 0, saved.stderr);
  baselineText = readFileSync(join(work, 'base', 'refunds.baseline.json'), 'utf8');
  writeFolder('regressed', { regressedBelow: 12, changedInput: 29 });
  writeFolder('turns', { turns: (i) => 3 + (i % 3) });
  writeFolder('noise', { turns: (i) => (i % 2 === 0 ? 3 : 1) });
  for (const folder of ['regressed', 'turns', 'noise'])
    writeFileSync(join(work, folder, 'refunds.baseline.json'), baselineText);
});

after(() => rmSync(work, { recursive: true, force: true }));

describe('evallens run --save-baseline', () => {
  it('writes the baseline beside the config, the same bytes on a second run and as `baseline save`', async () => {
    assert.match(baselineText, /^\{\n"format":"evallens-baseline",\n"version":1,\n"config":"refunds.eval.yaml",\n/);
    assert.match(baselineText, /^\{"id":"case-00","fingerprint":"[0-9a-f]{16}","passed":true,/m);
    assert.doesNotMatch(baselineText, /durationMs|runId|startedAt|evallens-run-baseline-/);
    const again = await run('base', '--save-baseline');
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /^baseline: refunds\.baseline\.json \(30 cases, from run /m);
    assert.equal(readFileSync(join(work, 'base', 'refunds.baseline.json'), 'utf8'), baselineText);
    const save = await runCli(['baseline', 'save', 'refunds.eval.yaml', '--runs-dir', 'runs'], {
      cwd: join(work, 'base'),
    });
    assert.equal(save.code, 0, save.stderr);
    assert.equal(readFileSync(join(work, 'base', 'refunds.baseline.json'), 'utf8'), baselineText);
  });

  it('refuses --case and --filter, which would save part of the run', async () => {
    const partial = await run('base', '--save-baseline', '--case', 'case-00');
    assert.equal(partial.code, 2);
    assert.match(
      partial.stderr,
      /--save-baseline saves the whole run as the baseline: run it without --case or --filter/,
    );
  });
});

describe('evallens run --baseline on a regressed run', () => {
  let stdout = '';
  let code = -1;
  before(async () => {
    const result = await run(
      'regressed',
      '--baseline',
      'refunds.baseline.json',
      '--reporter',
      'console',
      '--reporter',
      'junit',
      '--out',
      'junit.xml',
      '--reporter',
      'json',
      '--out',
      'report.json',
    );
    assert.equal(result.stderr, '');
    stdout = result.stdout;
    code = result.code ?? -1;
  });

  it('lists the regressed cases and each scorer with its delta, interval and verdict; exit 1', () => {
    assert.equal(code, 1);
    assert.match(stdout, /^Compared with the baseline:$/m);
    assert.match(stdout, /^ {2}contains \(pass rate\): REGRESSED$/m);
    // case-29 changed input: left out, so 29 shared cases, 12 of them regressed.
    assert.match(
      stdout,
      /delta -0\.414 \[-?[0-9.]+, -?[0-9.]+\] over 29 shared cases {3}p [0-9.]+ \(Holm; raw 0\.0005, exact McNemar\) {3}12 regressed, 0 fixed/,
    );
    assert.match(stdout, /^ {2}turn_count \(mean score, lower is better\): NO SIGNIFICANT CHANGE$/m);
    assert.match(stdout, /^Cases: 12 regressed, 0 fixed, 18 unchanged pass, 0 unchanged fail, 0 added, 0 removed$/m);
    assert.match(stdout, /^ {2}regressed: case-00, case-01, case-02, .*case-11$/m);
    assert.match(stdout, /^ {2}1 case changed input or expected; not compared: case-29$/m);
    assert.match(stdout, /^REGRESSED: contains \(--fail-on regression: exit 1\)$/m);
  });

  it('marks the regressed cases in JUnit with the transition property and message', () => {
    const xml = readFileSync(join(work, 'regressed', 'junit.xml'), 'utf8');
    const cases = xml.split('<testcase ').slice(1);
    const regressed = cases.filter((c) => c.includes('<property name="evallens.transition" value="regressed"/>'));
    assert.equal(regressed.length, 12);
    for (const c of regressed) assert.match(c, /<failure message="regressed: passed in the baseline; contains: /);
    assert.match(cases[0] ?? '', /^classname="refunds\.eval\.yaml" name="case-00"/);
    const quiet = cases.find((c) => c.includes('name="case-20"'));
    assert.ok(quiet !== undefined);
    assert.doesNotMatch(quiet, /evallens\.transition/);
  });

  it('carries the comparison in report.json, valid against both schemas, with the changed case flagged', () => {
    const report = JSON.parse(readFileSync(join(work, 'regressed', 'report.json'), 'utf8')) as {
      cases: { id: string; fingerprint?: string }[];
      comparison: {
        scorers: { name: string; verdict: string; delta: { n: number } }[];
        cases: { id: string; transition: string; changed?: boolean }[];
        counts: Record<string, number>;
        fail_on: string;
        failed: boolean;
      };
    };
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(compareSchema);
    assert.equal(ajv.validate(reportSchema, report), true, JSON.stringify(ajv.errors));
    assert.equal(ajv.validate(compareSchema, report.comparison), true, JSON.stringify(ajv.errors));
    const c = report.comparison;
    assert.equal(c.fail_on, 'regression');
    assert.equal(c.failed, true);
    assert.deepEqual(c.counts, {
      regressed: 12,
      fixed: 0,
      unchanged_pass: 18,
      unchanged_fail: 0,
      added: 0,
      removed: 0,
      changed: 1,
    });
    assert.deepEqual(
      c.cases.find((x) => x.id === 'case-29'),
      { id: 'case-29', transition: 'unchanged_pass', changed: true },
    );
    assert.deepEqual(
      c.cases.find((x) => x.id === 'case-00'),
      { id: 'case-00', transition: 'regressed' },
    );
    assert.equal(c.scorers.find((s) => s.name === 'contains')?.delta.n, 29);
    assert.equal(c.scorers.find((s) => s.name === 'contains')?.verdict, 'regressed');
    // Every case carries its fingerprint; case-29's differs from the baseline's, the others do not.
    const base = new Map(
      baselineText
        .split('\n')
        .filter((l) => l.startsWith('{"id":'))
        .map((l) => JSON.parse(l.replace(/,$/, '')) as { id: string; fingerprint: string })
        .map((x) => [x.id, x.fingerprint]),
    );
    for (const x of report.cases) {
      assert.match(x.fingerprint ?? '', /^[0-9a-f]{16}$/);
      assert.equal(x.fingerprint === base.get(x.id), x.id !== 'case-29', x.id);
    }
  });

  it('is the comparison `evallens compare --reporter json` makes of the same two runs', async () => {
    const [id] = runsIn('regressed');
    assert.ok(id !== undefined);
    const compared = await runCli(['compare', 'refunds.baseline.json', join('runs', id), '--reporter', 'json'], {
      cwd: join(work, 'regressed'),
    });
    assert.equal(compared.code, 1, compared.stderr);
    const report = JSON.parse(readFileSync(join(work, 'regressed', 'report.json'), 'utf8')) as { comparison: object };
    const alone = JSON.parse(compared.stdout) as { candidate: { file: string } };
    const embedded = report.comparison as { candidate: { file: string } };
    assert.equal(embedded.candidate.file, join('runs', id, 'report.json'));
    assert.deepEqual(
      { ...embedded, candidate: { ...embedded.candidate, file: '' } },
      {
        ...alone,
        candidate: { ...alone.candidate, file: '' },
      },
    );
  });
});

describe('evallens run --baseline: what fails the run', () => {
  it('a scorer that regressed significantly fails a run whose cases all pass: exit 1; --fail-on never: 0', async () => {
    const regression = await run('turns', '--baseline', 'refunds.baseline.json');
    assert.equal(regression.code, 1, regression.stderr);
    assert.match(regression.stdout, /^PASSED$/m);
    assert.match(regression.stdout, /^ {2}turn_count \(mean score, lower is better\): REGRESSED$/m);
    assert.match(regression.stdout, /^REGRESSED: turn_count \(--fail-on regression: exit 1\)$/m);
    const never = await run('turns', '--baseline', 'refunds.baseline.json', '--fail-on', 'never');
    assert.equal(never.code, 0, never.stderr);
    assert.match(never.stdout, /^REGRESSED: turn_count \(--fail-on never: exit 0\)$/m);
    const any = await run('turns', '--baseline', 'refunds.baseline.json', '--fail-on', 'any-change');
    assert.equal(any.code, 1, any.stderr);
  });

  it('noise does not fail it: exit 0 by regression and by any-change', async () => {
    const noise = await run('noise', '--baseline', 'refunds.baseline.json');
    assert.equal(noise.code, 0, noise.stderr);
    assert.match(noise.stdout, /^ {2}turn_count \(mean score, lower is better\): NO SIGNIFICANT CHANGE$/m);
    assert.match(noise.stdout, /^NO SIGNIFICANT REGRESSION \(--fail-on regression: exit 0\)$/m);
    const any = await run('noise', '--baseline', 'refunds.baseline.json', '--fail-on', 'any-change');
    assert.equal(any.code, 0, any.stderr);
  });

  it('compares a run of some cases (--case, --filter) with those cases of the baseline only', async () => {
    const some = await run(
      'noise',
      '--baseline',
      'refunds.baseline.json',
      '--filter',
      'case-0*',
      '--fail-on',
      'any-change',
    );
    assert.equal(some.code, 0, some.stderr);
    assert.match(
      some.stdout,
      /^Cases: 0 regressed, 0 fixed, 10 unchanged pass, 0 unchanged fail, 0 added, 0 removed$/m,
    );
    const one = await run('regressed', '--baseline', 'refunds.baseline.json', '--case', 'case-00');
    assert.match(one.stdout, /^Cases: 1 regressed, 0 fixed, 0 unchanged pass, 0 unchanged fail, 0 added, 0 removed$/m);
    assert.match(one.stdout, /^ {2}contains \(pass rate\): NOT ENOUGH DATA$/m);
  });

  it('compares a shard with the cases of that shard in the baseline only; a shard is never saved as the baseline', async () => {
    const shard = await run(
      'noise',
      '--baseline',
      'refunds.baseline.json',
      '--shard',
      '2/3',
      '--fail-on',
      'any-change',
    );
    assert.equal(shard.code, 0, shard.stderr);
    const counts = /^Cases: 0 regressed, 0 fixed, (\d+) unchanged pass, 0 unchanged fail, 0 added, 0 removed$/m.exec(
      shard.stdout,
    );
    assert.ok(counts !== null, shard.stdout);
    const ran = /(\d+) passed/.exec(shard.stdout);
    assert.equal(counts[1], ran?.[1], 'every case of the shard compared, none of the others');
    assert.ok(Number(counts[1]) > 0 && Number(counts[1]) < 30);
    const saved = await run('noise', '--save-baseline', '--shard', '2/3');
    assert.equal(saved.code, 2);
    assert.match(saved.stderr, /--save-baseline saves a whole run as the baseline: not a shard/);
  });

  it('takes `baseline:` from the config; --baseline wins over it', async () => {
    writeFileSync(join(work, 'turns', 'refunds.eval.yaml'), configText('refunds.baseline.json'));
    const fromConfig = await run('turns');
    assert.equal(fromConfig.code, 1, fromConfig.stderr);
    assert.match(fromConfig.stdout, /^REGRESSED: turn_count/m);
    // The flag names the candidate's own past run instead: the same turns, no regression.
    const [id] = runsIn('turns').sort();
    assert.ok(id !== undefined);
    const flag = await run('turns', '--baseline', join('runs', id));
    assert.equal(flag.code, 0, flag.stderr);
    assert.match(flag.stdout, /^baseline: {2}runs\/[^ ]+ \(30 cases\)$/m);
    writeFileSync(join(work, 'turns', 'refunds.eval.yaml'), configText());
  });
});

describe('evallens run --baseline refuses a bad baseline before running', () => {
  async function refused(file: string, text: string): Promise<string> {
    const folder = `bad-${file.replace(/\W/g, '-')}`;
    writeFolder(folder, {});
    writeFileSync(join(work, folder, file), text);
    const result = await run(folder, '--baseline', file);
    assert.equal(result.code, 2, result.stdout);
    assert.deepEqual(runsIn(folder), [], 'nothing ran');
    assert.equal(result.stdout, '');
    return result.stderr;
  }

  it('a corrupt baseline, naming its line and column', async () => {
    const lines = baselineText.split('\n');
    // Line 10 is case-00's (after the head, the scorers and `"cases":[`).
    lines[9] = (lines[9] ?? '').replace('"passed":true', '"passed" true');
    const stderr = await refused('corrupt.baseline.json', lines.join('\n'));
    assert.match(
      stderr,
      /^evallens: --baseline corrupt\.baseline\.json:10:\d+: expected a baseline case as JSON, saw a JSON syntax error \(colon expected\): the file is corrupt; nothing ran\n$/,
    );
  });

  it('a baseline of an older format', async () => {
    const stderr = await refused('old.baseline.json', baselineText.replace('"version":1,', '"version":0,'));
    assert.equal(
      stderr,
      'evallens: --baseline old.baseline.json:3:1: expected an EvalLens baseline of version 1, saw version 0 (a baseline of an older format: save it again with `evallens baseline save`); nothing ran\n',
    );
  });

  it('a baseline of another config', async () => {
    const stderr = await refused(
      'other.baseline.json',
      baselineText.replace('"config":"refunds.eval.yaml"', '"config":"orders.eval.yaml"'),
    );
    assert.equal(
      stderr,
      'evallens: --baseline other.baseline.json is a run of orders.eval.yaml, not of refunds.eval.yaml: compare with a baseline of the same config (`evallens run refunds.eval.yaml --save-baseline` writes one); nothing ran\n',
    );
  });

  it('a baseline whose scorer of the same name is another scorer', async () => {
    const stderr = await refused(
      'keys.baseline.json',
      baselineText.replace('"name":"contains","key":"contains"', '"name":"contains","key":"regex"'),
    );
    assert.match(
      stderr,
      /^evallens: --baseline keys\.baseline\.json and refunds\.eval\.yaml name different scorers "contains" \(regex and contains\): their scores are not comparable; nothing ran\n$/,
    );
  });

  it('a baseline: in the config that does not exist, at the key line:column; --save-baseline writes it', async () => {
    const folder = writeFolder('missing', {}, 'refunds.baseline.json');
    const validate = await runCli(['validate', 'refunds.eval.yaml'], { cwd: folder });
    assert.equal(validate.code, 0, validate.stderr);
    assert.match(
      validate.stderr,
      /refunds\.eval\.yaml:2:11: warning: the baseline .*refunds\.baseline\.json does not exist/,
    );
    const result = await run('missing');
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /^evallens: refunds\.eval\.yaml:2:11: baseline: refunds\.baseline\.json: cannot read it \(it does not exist\); nothing ran$/m,
    );
    assert.deepEqual(runsIn('missing'), []);
    const first = await run('missing', '--save-baseline');
    assert.equal(first.code, 0, first.stderr);
    assert.equal(readFileSync(join(folder, 'refunds.baseline.json'), 'utf8'), baselineText);
    const compared = await run('missing');
    assert.equal(compared.code, 0, compared.stderr);
    assert.match(compared.stdout, /^NO SIGNIFICANT REGRESSION \(--fail-on regression: exit 0\)$/m);
  });

  it('a baseline with no case id in common is said after the run, whose report is kept; exit 2', async () => {
    writeFolder('renamed', {});
    writeFileSync(join(work, 'renamed', 'renamed.baseline.json'), baselineText.replace(/"id":"case-/g, '"id":"old-'));
    const result = await run('renamed', '--baseline', 'renamed.baseline.json');
    assert.equal(result.code, 2);
    const [id] = runsIn('renamed');
    assert.ok(id !== undefined, 'the run is saved');
    assert.ok(existsSync(join(work, 'renamed', 'runs', id, 'report.json')));
    assert.equal(
      result.stderr,
      `evallens: not compared with the baseline: renamed.baseline.json (30 cases) and ${join('runs', id, 'report.json')} (30 cases) share no case id: nothing to compare (the run's results are in ${join('runs', id)})\n`,
    );
  });

  it('an untrusted run does not --save-baseline outside the working folder the config chose', async () => {
    const folder = writeFolder('untrusted', {}, '../outside.baseline.json');
    const result = await run('untrusted', '--untrusted', '--save-baseline');
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /^evallens: refunds\.eval\.yaml:2:11: the workspace is not trusted, so a run writes nothing outside it \(.*\), and --save-baseline would write .*outside\.baseline\.json: choose a baseline inside the workspace, or trust it; nothing ran$/m,
    );
    assert.equal(existsSync(join(folder, '..', 'outside.baseline.json')), false);
    assert.deepEqual(runsIn('untrusted'), []);
  });

  it('--fail-on without a baseline is a usage error', async () => {
    const result = await run('base', '--fail-on', 'never');
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--fail-on chooses what fails a run compared with a baseline/);
  });
});
