/**
 * Loading without trust (issue 13, items 1 and 6): an untrusted environment reads nothing, each
 * `${VAR}` of the run config, a model config or an evalset is said to be unread at its position, a
 * target header's `{{env.X}}` is not checked (the target is never called), and a CSV folder the
 * config chooses outside the workspace is refused at its key — symbolic links followed.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadRunConfig } from '../../../core/config/loadRunConfig';
import { isUntrustedEnv, untrustedEnv } from '../../../core/config/untrustedEnv';
import { outsideOf } from '../../../core/config/workspacePath';
import { caseRecords } from '../../../core/runner/records';

let dir = '';
let outside = '';
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'evallens-trust-load-'));
  outside = mkdtempSync(join(tmpdir(), 'evallens-trust-load-outside-'));
});
after(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const at = (p: { range: { start: { line: number; column: number } } }) =>
  `${p.range.start.line + 1}:${p.range.start.column + 1}`;

describe('an untrusted environment', () => {
  it('answers nothing, lists nothing, and tells the asked names only to its listener', () => {
    const asked: string[] = [];
    const env = untrustedEnv((name) => asked.push(name));
    assert.equal(env['HOME'], undefined);
    assert.equal('PATH' in env, false);
    assert.deepEqual({ ...env }, {});
    assert.deepEqual(Object.keys(env), []);
    assert.deepEqual(asked, ['HOME']);
    assert.equal(isUntrustedEnv(env), true);
    assert.equal(isUntrustedEnv({}), false);
  });
});

describe('loading a run config without trust', () => {
  it('says each ${VAR} was not read, at its position; a fallback is used without reading', () => {
    writeFileSync(join(dir, 'cases.jsonl'), '{"id": "a", "output": "x", "expected": "x"}\n');
    writeFileSync(
      join(dir, 'vars.yaml'),
      'dataset: ${DATA:-cases.jsonl}\ntimeout_ms: ${TIMEOUT}\nscorers:\n  exact_match: {mode: "${MODE}"}\n',
    );
    const asked: string[] = [];
    const parsed = loadRunConfig(
      join(dir, 'vars.yaml'),
      untrustedEnv((name) => asked.push(name)),
    );
    assert.equal(parsed.config, undefined);
    const unread = parsed.problems.filter((p) => p.code === 'unresolved-variable').map((p) => `${at(p)} ${p.message}`);
    assert.deepEqual(unread, [
      '2:13 `${TIMEOUT}` was not read: the workspace is not trusted, and a run without trust reads no environment variable a workspace file names (trust the workspace, or run without --untrusted, to use it)',
      '4:23 `${MODE}` was not read: the workspace is not trusted, and a run without trust reads no environment variable a workspace file names (trust the workspace, or run without --untrusted, to use it)',
    ]);
    assert.deepEqual(asked.sort(), ['DATA', 'MODE', 'TIMEOUT']);
  });

  it("reads an evalset's ${VAR} from no environment: the dataset is refused at the placeholder", async () => {
    writeFileSync(
      join(dir, 'set.json'),
      '{"scenarios": [{"id": "s", "prompt": "${EVALSET_VAR}", "output": "x", "expected": "x"}]}',
    );
    writeFileSync(join(dir, 'evalset.yaml'), 'dataset: set.json\nscorers:\n  exact_match: {}\n');
    process.env['EVALSET_VAR'] = 'planted';
    try {
      const config = loadRunConfig(join(dir, 'evalset.yaml'), untrustedEnv()).config;
      assert.ok(config !== undefined);
      await assert.rejects(async () => {
        for await (const record of caseRecords(config)) void record;
      }, /line 1, column 39: `\$\{EVALSET_VAR\}` was not read: the workspace is not trusted/);
      // With trust the same dataset reads the variable.
      const trusted = loadRunConfig(join(dir, 'evalset.yaml'), process.env).config;
      assert.ok(trusted !== undefined);
      const records = [];
      for await (const record of caseRecords(trusted)) records.push(record);
      assert.equal(records.length, 1);
    } finally {
      delete process.env['EVALSET_VAR'];
    }
  });

  it("does not check a target header's {{env.X}} (the target is never called), and loads", () => {
    writeFileSync(
      join(dir, 'target.yaml'),
      'cases: [{id: a, input: q, expected: x}]\ntarget:\n  http:\n    url: http://127.0.0.1:9/chat\n    headers: {Authorization: "Bearer {{env.HEADER_KEY}}"}\nscorers:\n  exact_match: {}\n',
    );
    const parsed = loadRunConfig(join(dir, 'target.yaml'), untrustedEnv());
    assert.deepEqual(
      parsed.problems.filter((p) => p.severity === 'error'),
      [],
    );
    assert.ok(parsed.config?.target !== undefined);
  });

  it("says a judge's model config ${VAR} was not read", () => {
    writeFileSync(join(dir, 'model.yaml'), 'provider: openai\nmodel: ${JUDGE_MODEL}\napi_key_env: JUDGE_KEY\n');
    writeFileSync(
      join(dir, 'judge.yaml'),
      'cases: [{id: a, input: q, output: x}]\nscorers:\n  goal_completion: {model_config: model.yaml}\n',
    );
    const parsed = loadRunConfig(join(dir, 'judge.yaml'), untrustedEnv());
    assert.match(
      parsed.problems.map((p) => p.message).join('\n'),
      /model\.yaml:2:8: `\$\{JUDGE_MODEL\}` was not read: the workspace is not trusted/,
    );
  });
});

describe('a CSV folder the config chooses, without trust', () => {
  const config = (where: string) =>
    `cases: [{id: a, output: x, expected: x}]\nreporting:\n  csv:\n    output_directory: ${where}\nscorers:\n  exact_match: {}\n`;

  it('outside the workspace (absolute, .., or through a link) is refused at the key; inside loads; with trust anything loads', () => {
    const workspace = join(dir, 'ws');
    mkdirSync(workspace, { recursive: true });
    symlinkSync(outside, join(workspace, 'link'));
    for (const where of [outside, '../elsewhere', 'link/reports', 'link']) {
      writeFileSync(join(workspace, 'run.yaml'), config(where));
      const parsed = loadRunConfig(join(workspace, 'run.yaml'), untrustedEnv(), { workspace });
      const refused = parsed.problems.filter((p) => p.code === 'output-outside-workspace');
      assert.equal(parsed.config, undefined, where);
      assert.deepEqual(refused.map(at), ['4:23'], where);
      assert.ok(loadRunConfig(join(workspace, 'run.yaml'), {}, { workspace }).config !== undefined, where);
    }
    for (const where of ['results', 'deep/er/results', '.']) {
      writeFileSync(join(workspace, 'run.yaml'), config(where));
      assert.ok(loadRunConfig(join(workspace, 'run.yaml'), untrustedEnv(), { workspace }).config !== undefined, where);
    }
    // The default `results` beside a config outside the workspace is outside it too.
    writeFileSync(
      join(dir, 'default.yaml'),
      'cases: [{id: a, output: x, expected: x}]\nreporting:\n  csv: {}\nscorers:\n  exact_match: {}\n',
    );
    assert.equal(loadRunConfig(join(dir, 'default.yaml'), untrustedEnv(), { workspace }).config, undefined);
  });

  it('outsideOf follows links and handles paths that do not exist yet', () => {
    assert.equal(outsideOf(dir, join(dir, 'a', 'b')), false);
    assert.equal(outsideOf(dir, dir), false);
    assert.equal(outsideOf(dir, join(dir, '..')), true);
    assert.equal(outsideOf(dir, join(dir, '..dots')), false);
    assert.equal(outsideOf(join(dir, 'ws'), join(dir, 'ws', 'link', 'new', 'folder')), true);
  });
});
