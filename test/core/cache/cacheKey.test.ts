/**
 * The result cache's key (core/cache): it changes when anything that decides a verdict changes — a
 * file an option names (by content), an option, a case field the scorer reads, the trial, the
 * scorer's version — and does not change otherwise (a threshold, the case id, a credential).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { EvalCase } from '../../../core/case';
import { parseRunConfig } from '../../../core/config/parseRunConfig';
import type { ScorerInstance } from '../../../core/config/runConfig';
import { caseFields, evaluationKey } from '../../../core/cache/cacheKey';
import { isCacheable } from '../../../core/cache/cacheable';
import { scorerFingerprint } from '../../../core/cache/scorerFingerprint';

let dir = '';

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'evallens-cache-key-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const ENV = { JUDGE_KEY: 'sk-key-test-1', OTHER_KEY: 'sk-key-test-2' };

/** The scorer instances of a config written to `dir` (its errors fail the test). */
function instances(yaml: string): ScorerInstance[] {
  const file = join(dir, 'run.eval.yaml');
  writeFileSync(file, `${yaml}cases: [{id: a, output: x}]\n`);
  const parsed = parseRunConfig(`${yaml}cases: [{id: a, output: x}]\n`, file, ENV, { fileExists: existsSync });
  const errors = parsed.problems.filter((p) => p.severity === 'error').map((p) => p.message);
  assert.deepEqual(errors, []);
  assert.ok(parsed.config !== undefined);
  return [...parsed.config.scorers];
}

function fingerprint(yaml: string, version = '1.0.0'): string {
  const [instance] = instances(yaml);
  assert.ok(instance !== undefined);
  return scorerFingerprint(instance, version);
}

function judgeConfig(lines: string): void {
  writeFileSync(join(dir, 'judge.yaml'), `provider: openai\nbase_url: http://127.0.0.1:9/v1\n${lines}`);
}

function key(scorer: string, evalCase: EvalCase, trial = 1): string {
  const input = { case: evalCase, output: evalCase.output, expected: evalCase.expected };
  return evaluationKey('fingerprint', caseFields(scorer, input), trial);
}

describe('result cache key', () => {
  it('is the same for the same scorer, options, files, case fields and trial', () => {
    writeFileSync(join(dir, 'check.py'), 'print(1)\n');
    const yaml = 'scorers:\n  subprocess: {cmd: python3 check.py}\n';
    assert.equal(fingerprint(yaml), fingerprint(yaml));
    const evalCase = { id: 'a', input: 'q', output: 'x' };
    assert.equal(key('subprocess', evalCase), key('subprocess', { ...evalCase }));
  });

  it("changes with the content of a file the command names, not with the file's time", () => {
    writeFileSync(join(dir, 'check.py'), 'print(1)\n');
    const yaml = 'scorers:\n  subprocess: {cmd: python3 check.py --strict}\n';
    const before = fingerprint(yaml);
    writeFileSync(join(dir, 'check.py'), 'print(1)\n');
    assert.equal(fingerprint(yaml), before, 'rewritten with the same content');
    writeFileSync(join(dir, 'check.py'), 'print(2)\n');
    assert.notEqual(fingerprint(yaml), before, 'new content');
  });

  it('changes with the content of a file option (python_scorer script_path)', () => {
    writeFileSync(join(dir, 'score.py'), 'A = 1\n');
    const yaml = 'scorers:\n  python_scorer: {script_path: score.py}\n';
    const before = fingerprint(yaml);
    writeFileSync(join(dir, 'score.py'), 'A = 2\n');
    assert.notEqual(fingerprint(yaml), before);
  });

  it("changes with the judge's model config, but not with the variable that holds its key", () => {
    judgeConfig('model: judge-a\napi_key_env: JUDGE_KEY\n');
    const yaml = 'scorers:\n  llmrater: {model_config: judge.yaml}\n';
    const before = fingerprint(yaml);
    judgeConfig('model: judge-a\napi_key_env: OTHER_KEY\n');
    assert.equal(fingerprint(yaml), before, 'another key variable judges the same');
    judgeConfig('model: judge-b\napi_key_env: JUDGE_KEY\n');
    assert.notEqual(fingerprint(yaml), before, 'another model');
    judgeConfig('model: judge-a\napi_key_env: JUDGE_KEY\ntemperature: 0.7\n');
    assert.notEqual(fingerprint(yaml), before, 'another temperature');
  });

  it('changes with an option and with the scorer version, not with a threshold, weight or name', () => {
    writeFileSync(join(dir, 'check.py'), 'print(1)\n');
    const base = fingerprint('scorers:\n  subprocess: {cmd: python3 check.py}\n');
    assert.notEqual(fingerprint('scorers:\n  subprocess: {cmd: python3 check.py -v}\n'), base, 'command');
    assert.notEqual(fingerprint('scorers:\n  subprocess: {cmd: python3 check.py}\n', '1.0.1'), base, 'version');
    assert.equal(
      fingerprint('scorers:\n  - type: subprocess\n    name: other\n    cmd: python3 check.py\n    threshold: 0.9\n'),
      base,
      'threshold and name are applied to the kept verdict',
    );
  });

  it('changes with a case field the scorer reads and with the trial, not with the case id', () => {
    const evalCase = { id: 'a', input: 'q', output: 'x', expected: 'x', metadata: { tag: 1 } };
    const base = key('subprocess', evalCase);
    assert.notEqual(key('subprocess', { ...evalCase, output: 'y' }), base, 'output');
    assert.notEqual(key('subprocess', { ...evalCase, input: 'r' }), base, 'input');
    assert.notEqual(key('subprocess', { ...evalCase, expected: 'y' }), base, 'expected');
    assert.notEqual(key('subprocess', { ...evalCase, context: ['c'] }), base, 'context');
    assert.notEqual(key('subprocess', evalCase, 2), base, 'trial');
    assert.equal(key('subprocess', { ...evalCase, id: 'b' }), base, 'the id decides nothing');
    assert.equal(
      key('subprocess', { ...evalCase, metadata: { tag: 2 } }),
      base,
      'subprocess is sent no metadata (EvalCore protocol)',
    );
    const judged = key('llmrater', evalCase);
    assert.notEqual(key('llmrater', { ...evalCase, metadata: { tag: 2 } }), judged, 'a judge may read metadata');
    assert.notEqual(key('llmrater', { ...evalCase, trace: { steps: [] } }), judged, 'and the trace');
  });
});

describe('what the result cache keeps', () => {
  it('keeps decided verdicts only: never errors, timeouts, skipped, inconclusive or a scorer process failure', () => {
    assert.equal(isCacheable({ status: 'pass', score: 1, reason: 'ok' }), true);
    assert.equal(isCacheable({ status: 'fail', score: 0, reason: 'the answer is wrong' }), true);
    assert.equal(isCacheable({ status: 'measured', score: 3, reason: '3 steps' }), true);
    for (const status of ['error', 'timeout', 'skipped', 'inconclusive', 'unsupported'] as const)
      assert.equal(isCacheable({ status, reason: 'r' }), false, status);
    assert.equal(isCacheable({ status: 'fail', score: 0, reason: 'scorer error: exit code 1' }), false);
    assert.equal(isCacheable({ status: 'fail', score: 0, reason: 'FAIL: the script printed no JSON' }), false);
    const part = (status: 'pass' | 'error') => ({ index: 0, status, reason: 'r' });
    assert.equal(isCacheable({ status: 'pass', reason: 'r', parts: [part('pass')] }), true);
    assert.equal(isCacheable({ status: 'pass', reason: 'r', parts: [part('pass'), part('error')] }), false);
  });
});
