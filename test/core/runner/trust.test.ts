import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parseRunConfig } from '../../../core/config/parseRunConfig';
import type { RunConfig } from '../../../core/config/runConfig';
import type { ScorerResult } from '../../../core/result';
import type { CasePreparer } from '../../../core/runner/casePreparer';
import { caseRecords } from '../../../core/runner/records';
import { runEval } from '../../../core/runner/run';
import { UNTRUSTED_REASON } from '../../../core/runner/scoreCase';

const dir = mkdtempSync(join(tmpdir(), 'evallens-trust-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A config whose subprocess scorer would leave a marker file behind if it ever ran. */
function configWithSubprocess(marker: string): RunConfig {
  const text = [
    'cases:',
    '  - {id: a, output: "yes", expected: "yes"}',
    '  - {id: b, output: "no", expected: "yes"}',
    'scorers:',
    '  exact_match: {}',
    '  subprocess:',
    `    cmd: "touch ${marker}; echo '{\\"score\\": 1}'"`,
  ].join('\n');
  const parsed = parseRunConfig(text, join(dir, 'trust.eval.yaml'), {});
  assert.ok(parsed.config, JSON.stringify(parsed.problems));
  return parsed.config;
}

async function run(config: RunConfig, trusted: boolean, preparer?: CasePreparer): Promise<ScorerResult[]> {
  const results: ScorerResult[] = [];
  await runEval(config, caseRecords(config), {
    runId: 'trust',
    trusted,
    ...(preparer === undefined ? {} : { preparer }),
    onEvent: (e) => {
      if (e.type === 'result') results.push(e.result);
    },
  });
  return results;
}

describe('a run without trust', () => {
  it('skips the subprocess scorer with the trust reason and never starts its process; deterministic scorers still decide', async () => {
    const marker = join(dir, 'untrusted-ran');
    const results = await run(configWithSubprocess(marker), false);
    const bySubprocess = results.filter((r) => r.scorer === 'subprocess');
    assert.deepEqual(
      bySubprocess.map((r) => [r.caseId, r.status, r.reason]),
      [
        ['a', 'skipped', UNTRUSTED_REASON],
        ['b', 'skipped', UNTRUSTED_REASON],
      ],
    );
    assert.deepEqual(
      results.filter((r) => r.scorer === 'exact_match').map((r) => [r.caseId, r.status]),
      [
        ['a', 'pass'],
        ['b', 'fail'],
      ],
    );
    assert.equal(existsSync(marker), false, 'the command must not have run');
  });

  it('runs the same scorer when trusted (the marker proves the command is real)', async () => {
    const marker = join(dir, 'trusted-ran');
    const results = await run(configWithSubprocess(marker), true);
    assert.deepEqual(
      results.filter((r) => r.scorer === 'subprocess').map((r) => r.status),
      ['pass', 'pass'],
    );
    assert.equal(existsSync(marker), true);
  });

  it('never calls a preparer that runs workspace code (a target), and skips every scorer of the case', async () => {
    let calls = 0;
    const target: CasePreparer = {
      reaches: 'workspace-code',
      prepare: (c) => {
        calls++;
        return Promise.resolve(c);
      },
      close: () => Promise.resolve(),
    };
    const results = await run(configWithSubprocess(join(dir, 'never')), false, target);
    assert.equal(calls, 0);
    assert.ok(
      results.length === 4 && results.every((r) => r.status === 'skipped' && r.reason === UNTRUSTED_REASON),
      JSON.stringify(results),
    );
  });

  it('still scores the cases a target would leave alone (a recorded output), and skips those it would call', async () => {
    const seen: string[] = [];
    const target: CasePreparer = {
      reaches: 'network',
      reachesFor: (c) => c.id === 'b',
      prepare: (c) => {
        seen.push(c.id);
        return Promise.resolve(c);
      },
      close: () => Promise.resolve(),
    };
    const results = await run(configWithSubprocess(join(dir, 'never-either')), false, target);
    assert.deepEqual(seen, ['a'], 'only the case the target would not call is prepared');
    assert.deepEqual(
      results.map((r) => [r.caseId, r.scorer, r.status]).sort((x, y) => x.join().localeCompare(y.join())),
      [
        ['a', 'exact_match', 'pass'],
        ['a', 'subprocess', 'skipped'],
        ['b', 'exact_match', 'skipped'],
        ['b', 'subprocess', 'skipped'],
      ],
    );
  });
});
