/**
 * A run that scores nothing is not a pass: an EvalBench agent config whose scenarios hold no
 * recorded conversation ends NOTHING SCORED with exit code 3, says what is missing and how to get
 * it, and its JSON and JUnit reports say so too; validate warns before the run.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import reportSchema from '../../schemas/report.schema.json';
import compareSchema from '../../schemas/compare-report.schema.json';
import { ensureBuilt, ROOT, runCli } from '../support/cli';

let work = '';

before(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'evallens-nothing-scored-'));
  cpSync(join(ROOT, 'test', 'fixtures', 'evalbench', 'recordings'), work, { recursive: true });
});

after(() => rmSync(work, { recursive: true, force: true }));

function validReport(file: string): { verdict?: string; summary: { skipped: number; total: number } } {
  const report = JSON.parse(readFileSync(file, 'utf8')) as {
    verdict?: string;
    summary: { skipped: number; total: number };
  };
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(compareSchema); // report.json's `comparison` refers to it
  assert.ok(ajv.validate(reportSchema, report), ajv.errorsText(ajv.errors));
  return report;
}

describe('a run that scores nothing', () => {
  it('ends NOTHING SCORED with exit code 3, saying what is missing and what to do, in the console, JSON and JUnit', async () => {
    const run = await runCli(
      [
        'run',
        'not-recorded_config.yaml',
        '--runs-dir',
        'runs',
        '--reporter',
        'json',
        '--out',
        'report.json',
        '--reporter',
        'junit',
        '--out',
        'junit.xml',
      ],
      { cwd: work },
    );
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stdout, /^0 passed, 0 failed, 2 skipped, 2 total$/m);
    assert.match(run.stdout, /^Nothing was scored: every case was skipped \(2 of 2\)\.$/m);
    assert.match(run.stdout, /^ {2}4 × the case has no trace$/m);
    assert.match(run.stdout, /does not run the agent/);
    assert.match(run.stdout, /`conversation_history`/);
    assert.match(run.stdout, /add a `target:`/);
    assert.match(run.stdout, /^NOTHING SCORED$/m);
    assert.doesNotMatch(run.stdout, /^PASSED$/m);

    const report = validReport(join(work, 'report.json'));
    assert.equal(report.verdict, 'nothing-scored');
    const junit = readFileSync(join(work, 'junit.xml'), 'utf8');
    assert.match(junit, /<testsuites name="evallens" tests="3" failures="0" errors="1" skipped="2"/);
    assert.match(junit, /<property name="evallens.verdict" value="nothing-scored"\/>/);
    assert.match(
      junit,
      /<testcase classname="not-recorded_config.yaml" name="\(run\) nothing scored" time="0.000">\n {6}<error message="Nothing was scored: every case was skipped \(2 of 2\)." type="nothing-scored">/,
    );
  });

  it('ends NOTHING SCORED when the dataset has no case', async () => {
    writeFileSync(join(work, 'empty.jsonl'), '');
    writeFileSync(join(work, 'empty.eval.yaml'), 'dataset: empty.jsonl\nscorers:\n  contains: {value: x}\n');
    const run = await runCli(['run', 'empty.eval.yaml', '--runs-dir', 'runs'], { cwd: work });
    assert.equal(run.code, 3, run.stderr);
    assert.match(
      run.stdout,
      /^Nothing was scored: the run had no case \(the dataset is empty, or the config's `scenarios` or `scenario_pattern` selected none\)\.$/m,
    );
  });

  it('is warned about by validate, which still accepts the config', async () => {
    const validate = await runCli(['validate', 'not-recorded_config.yaml'], { cwd: work });
    assert.equal(validate.code, 0, validate.stderr);
    assert.match(
      validate.stderr,
      /^not-recorded_config.yaml:1:17: warning: none of the 2 cases has a recorded output or conversation, and the config has no `target:`.* \[nothing-recorded\]$/m,
    );
  });

  it('leaves a run that scored its recordings PASSED, exit code 0, with verdict passed in its report', async () => {
    const run = await runCli(
      ['run', 'recorded_config.yaml', '--runs-dir', 'runs', '--reporter', 'json', '--out', 'passed.json'],
      { cwd: work },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^PASSED$/m);
    assert.equal(validReport(join(work, 'passed.json')).verdict, 'passed');
  });
});
