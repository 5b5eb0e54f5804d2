import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { ensureBuilt, ROOT } from '../support/cli';

const SCRIPT = join(ROOT, 'scripts', 'evalbench-compat.mjs');
const CHECKOUT = join(ROOT, 'test', 'fixtures', 'evalbench-compat');

interface Entry {
  config: string;
  validate: { exitCode: number; verdict: string; errors: number; warnings: number; notices: number };
  run?: {
    exitCode: number | null;
    summary?: { passed: number; failed: number; errored: number; skipped: number; total: number };
  };
}

function compat(args: readonly string[]): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [SCRIPT, CHECKOUT, ...args], { encoding: 'utf8', timeout: 120_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('scripts/evalbench-compat.mjs', () => {
  before(() => ensureBuilt());

  it('finds the run configs of a checkout (not other YAML) and classifies what validate says of each', () => {
    const result = compat(['--json']);
    assert.equal(result.code, 1, 'a refused config makes the script exit 1');
    const entries = (JSON.parse(result.stdout) as { entries: Entry[] }).entries;
    const verdicts = Object.fromEntries(entries.map((e) => [e.config, e.validate.verdict]));
    assert.deepEqual(verdicts, {
      'datasets/good/run_config.yaml': 'loads',
      'datasets/notices/run_config.yaml': 'loads with notices',
      'datasets/refused/run_config.yaml': 'refused',
    });
    const refused = entries.find((e) => e.config === 'datasets/refused/run_config.yaml');
    assert.equal(refused?.validate.errors, 2);
    assert.equal(refused?.validate.exitCode, 2);
    assert.equal(entries.find((e) => e.config === 'datasets/notices/run_config.yaml')?.validate.notices, 1);
  });

  it('with --run, runs each config that loads and reports how its cases ended; a refused config is not run', () => {
    const result = compat(['--run', '--json']);
    const entries = (JSON.parse(result.stdout) as { entries: Entry[] }).entries;
    const good = entries.find((e) => e.config === 'datasets/good/run_config.yaml');
    assert.equal(good?.run?.exitCode, 0);
    assert.deepEqual(good?.run?.summary, { passed: 1, failed: 0, errored: 0, skipped: 0, total: 1 });
    assert.equal(entries.find((e) => e.config === 'datasets/refused/run_config.yaml')?.run, undefined);
  });

  it('prints a Markdown table with the tally', () => {
    const result = compat([]);
    assert.match(result.stdout, /^3 run configs: 1 load, 1 load with notices, 1 refused$/m);
    assert.match(result.stdout, /^\| datasets\/refused\/run_config\.yaml \| refused \(exit 2\) \| 2 \| 0 \| 0 \|$/m);
  });

  it('refuses a path that is not a folder, with usage and exit 2', () => {
    const result = spawnSync(process.execPath, [SCRIPT, join(CHECKOUT, 'missing')], { encoding: 'utf8' });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /^usage: /);
  });
});
