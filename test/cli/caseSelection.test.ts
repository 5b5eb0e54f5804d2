/**
 * `--case` and `--filter` are checked against the dataset before anything runs: an id the dataset does
 * not have (alone or among known ones) and a glob no case matches are usage errors (exit 2) that name
 * what was asked and the nearest ids — never a green run of nothing. `plan` refuses the same way.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureBuilt, ROOT, runCli } from '../support/cli';

let work = '';

before(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'evallens-selection-'));
  cpSync(join(ROOT, 'test', 'fixtures', 'cli'), work, { recursive: true });
});

after(() => rmSync(work, { recursive: true, force: true }));

describe('a selection that names no case', () => {
  it('refuses an unknown --case id before anything runs, with exit 2 and the nearest id', async () => {
    const run = await runCli(['run', 'all-pass.eval.yaml', '--case', 'capitol', '--runs-dir', 'runs-unknown'], {
      cwd: work,
    });
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.equal(run.stdout, '', 'no summary, no PASSED');
    assert.equal(
      run.stderr,
      'evallens: --case "capitol": the dataset has no case with this id (2 cases); did you mean "capital"?; `evallens validate all-pass.eval.yaml --cases` lists the ids\n',
    );
    assert.equal(existsSync(join(work, 'runs-unknown')), false, 'no run folder');
  });

  it('refuses an unknown id among known ones, naming only the unknown one', async () => {
    const run = await runCli(
      ['run', 'all-pass.eval.yaml', '--case', 'capital', '--case', 'nope', '--runs-dir', 'runs-mixed'],
      { cwd: work },
    );
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.doesNotMatch(run.stdout, /PASS/);
    assert.match(
      run.stderr,
      /^evallens: --case "nope": the dataset has no case with this id \(2 cases\); `evallens validate/m,
    );
    assert.doesNotMatch(run.stderr, /"capital"/);
  });

  it('refuses a --filter that matches no case id', async () => {
    const run = await runCli(['run', 'all-pass.eval.yaml', '--filter', 'zz*', '--runs-dir', 'runs-filter'], {
      cwd: work,
    });
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.equal(run.stdout, '');
    assert.match(
      run.stderr,
      /^evallens: --filter "zz\*": no case id matches \(2 cases; \* is any text, \? one character\);/m,
    );
    const near = await runCli(
      ['run', 'all-pass.eval.yaml', '--filter', 'capital-agian*', '--runs-dir', 'runs-filter'],
      { cwd: work },
    );
    assert.equal(near.code, 2);
    assert.match(near.stderr, /did you mean "capital-again"\?/);
  });

  it('refuses --case and --filter that are each fine but together select nothing', async () => {
    const run = await runCli(
      ['run', 'all-pass.eval.yaml', '--case', 'capital', '--filter', '*-again', '--runs-dir', 'runs-both'],
      { cwd: work },
    );
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.match(run.stderr, /^evallens: --case and --filter together select no case/m);
  });

  it('still runs a selection that names real cases', async () => {
    const run = await runCli(
      ['run', 'all-pass.eval.yaml', '--case', 'capital', '--filter', 'cap*', '--runs-dir', 'runs-ok'],
      { cwd: work },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^1 passed, 0 failed, 1 total$/m);
  });

  it('plan refuses the same selections', async () => {
    const plan = await runCli(['plan', 'all-pass.eval.yaml', '--case', 'capitol', '--json'], { cwd: work });
    assert.equal(plan.code, 2, plan.stdout + plan.stderr);
    assert.equal(plan.stdout, '');
    assert.match(plan.stderr, /--case "capitol": the dataset has no case with this id .*did you mean "capital"\?/);
    const filter = await runCli(['plan', 'all-pass.eval.yaml', '--filter', 'zz*'], { cwd: work });
    assert.equal(filter.code, 2);
    assert.match(filter.stderr, /--filter "zz\*": no case id matches/);
  });
});
