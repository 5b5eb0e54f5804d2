/**
 * validate, plan and run on the same EvalBench inputs give the same verdict: what a run refuses to
 * start on (an agent evalset with an unset ${VAR}, a database config that does not parse, a dataset
 * that is not there) validate and plan refuse too, with the same `file:line:col` line and exit code
 * 2, and no stack trace; what a run starts on, they accept.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureBuilt, ROOT, runCli } from '../support/cli';

let work = '';

before(() => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'evallens-inputs-'));
  cpSync(join(ROOT, 'test', 'fixtures', 'evalbench', 'bad-inputs'), join(work, 'bad-inputs'), { recursive: true });
  cpSync(join(ROOT, 'test', 'fixtures', 'evalbench', 'recordings'), join(work, 'recordings'), { recursive: true });
});

after(() => rmSync(work, { recursive: true, force: true }));

/** Exit code and error lines of each command on one config. */
async function verdicts(
  config: string,
): Promise<{ command: string; code: number | null; errors: string[]; stderr: string }[]> {
  const commands = ['validate', 'plan', 'run'];
  return Promise.all(
    commands.map(async (command) => {
      const extra = command === 'run' ? ['--runs-dir', join(work, 'runs')] : [];
      // The variable the unset-var fixture names must be unset whatever the machine has.
      const run = await runCli([command, config, ...extra], {
        cwd: work,
        env: { EVALLENS_TEST_UNSET_PROJECT: undefined },
      });
      return {
        command,
        code: run.code,
        errors: run.stderr.split('\n').filter((line) => line.includes(': error: ')),
        stderr: run.stderr,
      };
    }),
  );
}

describe('validate, plan and run agree on EvalBench inputs', () => {
  const refused: [string, RegExp][] = [
    [
      'bad-inputs/unset_var_config.yaml',
      /^bad-inputs\/unset-var\.evalset\.json:5:57: error: dataset .* uses \$\{EVALLENS_TEST_UNSET_PROJECT\} at line 5, column 57, but EVALLENS_TEST_UNSET_PROJECT is not set in the environment; set it, or remove the placeholder \[dataset\]$/,
    ],
    [
      'bad-inputs/broken_db_config.yaml',
      /^bad-inputs\/db_configs\/broken\.yaml:\d+:\d+: error: YAML: .* \[yaml-syntax\]$/,
    ],
    [
      'bad-inputs/missing_dataset_config.yaml',
      /^bad-inputs\/missing_dataset_config\.yaml:1:17: error: the dataset file .* does not exist/,
    ],
  ];
  for (const [config, expected] of refused) {
    it(`all three refuse ${config} with the same error and exit code 2`, async () => {
      const results = await verdicts(config);
      for (const r of results) {
        assert.equal(r.code, 2, `${r.command}: ${r.stderr}`);
        assert.equal(r.errors.length, 1, `${r.command}: ${r.stderr}`);
        assert.match(r.errors[0] ?? '', expected, r.command);
        assert.doesNotMatch(r.stderr, /internal error|\n\s+at /, `${r.command} printed a stack trace`);
      }
      assert.equal(new Set(results.map((r) => r.errors[0])).size, 1, 'the same line from each');
    });
  }

  it('all three accept recorded EvalBench conversations', async () => {
    const results = await verdicts('recordings/recorded_config.yaml');
    assert.deepEqual(
      results.map((r) => `${r.command} ${String(r.code)}`),
      ['validate 0', 'plan 0', 'run 0'],
      results.map((r) => r.stderr).join('\n'),
    );
  });
});
