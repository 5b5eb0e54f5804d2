import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { isEvalbenchScorerNotRun } from '../../../core/config/evalbenchCompat';
import { findOnPath } from '../../../core/scorers/support/processPath';
import { casesYaml, load, removeTempDirs, runInTemp, SCRIPTS, tempDir } from '../../fixtures/scorers/runInTemp';

after(removeTempDirs);

/** This machine's PATH without any folder that has a uv in it, so the python3 branch is taken for real. */
const PATH_WITHOUT_UV = (process.env['PATH'] ?? '')
  .split(delimiter)
  .filter((dir) => findOnPath('uv', dir) === undefined)
  .join(delimiter);
const NO_UV = { ...process.env, PATH: PATH_WITHOUT_UV };

/** A folder whose `uv` is the stand-in of test/fixtures/scorers/fake-uv.sh (not uv), first on PATH. */
function fakeUvEnv(): Record<string, string | undefined> {
  const bin = tempDir();
  copyFileSync(join(SCRIPTS, 'fake-uv.sh'), join(bin, 'uv'));
  return { ...process.env, PATH: `${bin}${delimiter}${PATH_WITHOUT_UV}` };
}

const BEHAVIOURS = ['ok', 'crash', 'ok', 'hang', 'ok', 'garbage', 'ok', 'huge', 'ok', 'score3', 'ok'];
const SCRIPT = `${SCRIPTS}/evalbench_case.py`;

describe('python_scorer (in a run)', () => {
  it('runs python3 when uv is not on PATH and says so once, at the script_path value', () => {
    const yaml = `scorers:\n  python_scorer: {script_path: "${SCRIPT}"}\n${casesYaml(['ok'])}`;
    const { problems } = load(yaml, tempDir(), NO_UV);
    assert.equal(problems.length, 1);
    const [notice] = problems;
    assert.equal(notice?.severity, 'information');
    assert.match(
      notice?.message ?? '',
      /uv is not on PATH, so the script runs with `python3 <script>` instead of `uv run --isolated <script>`; PEP 723 inline dependencies are not installed/u,
    );
    assert.equal(yaml.slice(notice?.range.start.offset, notice?.range.end.offset), `"${SCRIPT}"`);
  });

  it('python3: each misbehaviour fails its own case with score 0 and a FAIL reason; a score of 3 fails as a score; the other cases pass with 100', async () => {
    const { results, byCase } = await runInTemp(
      `scorers:\n  python_scorer: {script_path: "${SCRIPT}", timeout_ms: 8000}\n${casesYaml(BEHAVIOURS)}`,
      { env: NO_UV, concurrency: 2 },
    );
    assert.equal(results.length, BEHAVIOURS.length);
    assert.ok(
      results.every((r) => r.scorer === 'evalbench_case'),
      'results report under the script name',
    );
    for (const result of results.filter((r) => r.caseId.startsWith('ok-'))) {
      assert.deepEqual([result.status, result.score], ['pass', 100], `${result.caseId}: ${result.reason}`);
      assert.match(result.reason, /^PASS from pid \d+$/u);
    }
    const failed = (id: string, score = 0) => {
      const result = byCase.get(id);
      assert.deepEqual([result?.status, result?.score], ['fail', score], `${id}: ${String(result?.reason)}`);
      return result?.reason ?? '';
    };
    assert.match(
      failed('crash-1'),
      /^FAIL: the script exited with code 1\. Stderr: Traceback \(most recent call last\):[^]*RuntimeError: boom on purpose$/u,
    );
    assert.equal(
      failed('hang-3'),
      "FAIL: the script did not finish within 7200 ms (just under the scorer's time limit) and was stopped",
    );
    assert.equal(failed('garbage-5'), 'FAIL: Failed to parse JSON from script output');
    assert.equal(byCase.get('garbage-5')?.details?.['stdout'], 'this is not json');
    assert.equal(failed('huge-7'), 'FAIL: the script wrote more than 1048576 bytes to stdout');
    assert.equal(failed('score3-9', 3), '3 of 100 checks hold');
  });

  it('fails a script that exits without reading its stdin and prints nothing', async () => {
    const { results } = await runInTemp(
      `scorers:\n  - {type: python_scorer, script_path: "${SCRIPTS}/no_stdin.py"}\n  - {type: python_scorer, script_path: "${SCRIPT}"}\ncases:\n  - {id: a, input: ok, output: "${'x'.repeat(200_000)}"}\n`,
      { env: NO_UV },
    );
    assert.deepEqual(
      results.map((r) => [r.scorer, r.status, r.reason.replace(/\d+$/u, 'N')]),
      [
        [
          'no_stdin',
          'fail',
          'FAIL: the script printed nothing on stdout; it must print {"score": <0..100>, "reason": "…"}',
        ],
        ['evalbench_case', 'pass', 'PASS from pid N'],
      ],
    );
  });

  it("sends EvalBench's evaluation context on stdin, with the case and the options", async () => {
    const yaml = `scorers:\n  python_scorer: {script_path: "${SCRIPT}", scorer_name: " context_check ", dialect_hint: sqlite, weight: 2}\ncases:\n  - {id: c1, input: echo, output: "SELECT 1", expected: {answer: 1}, metadata: {tag: t}}\n`;
    const { dir, results } = await runInTemp(yaml, { env: NO_UV });
    assert.deepEqual(
      results.map((r) => [r.scorer, r.status]),
      [['context_check', 'pass']],
    );
    const context = JSON.parse(readFileSync(join(dir, 'context.json'), 'utf8')) as Record<string, unknown>;
    const config = { script_path: SCRIPT, scorer_name: ' context_check ', dialect_hint: 'sqlite' };
    assert.deepEqual(context, {
      nl_prompt: 'echo',
      golden_query: { answer: 1 },
      query_type: '',
      golden_execution_result: null,
      golden_eval_result: '',
      golden_error: null,
      generated_query: 'SELECT 1',
      generated_execution_result: null,
      generated_eval_result: '',
      generated_error: null,
      database: '',
      sqlite_db_dir: '',
      config,
      kwargs: {},
      case: { id: 'c1', input: 'echo', output: 'SELECT 1', expected: { answer: 1 }, metadata: { tag: 't' } },
      scorer_name: ' context_check ',
      dialect_hint: 'sqlite',
    });
    assert.deepEqual(Object.keys(context).slice(0, 10), [
      'nl_prompt',
      'golden_query',
      'query_type',
      'golden_execution_result',
      'golden_eval_result',
      'golden_error',
      'generated_query',
      'generated_execution_result',
      'generated_eval_result',
      'generated_error',
    ]);
  });

  it('runs `uv run --isolated <script>` when uv is on PATH (a stand-in uv records its argv), with no notice', async () => {
    const env = fakeUvEnv();
    const yaml = `scorers:\n  python_scorer: {script_path: scorers/check.py}\n${casesYaml(['ok', 'ok'])}`;
    const dir = tempDir();
    mkdirSync(join(dir, 'scorers'));
    copyFileSync(SCRIPT, join(dir, 'scorers', 'check.py'));
    assert.deepEqual(load(yaml, dir, env).problems, []);
    const { results } = await runInTemp(yaml, { dir, env });
    assert.deepEqual(
      results.map((r) => [r.scorer, r.status, r.score]),
      [
        ['check', 'pass', 100],
        ['check', 'pass', 100],
      ],
    );
    const calls = readFileSync(join(dir, 'uv-argv.log'), 'utf8')
      .split('\n\n')
      .filter((call) => call !== '');
    assert.deepEqual(
      calls.map((call) => call.split('\n')),
      [
        ['run', '--isolated', join(dir, 'scorers', 'check.py')],
        ['run', '--isolated', join(dir, 'scorers', 'check.py')],
      ],
    );
  });

  it('reports a missing script on the script_path value when the config loads', () => {
    const yaml = `scorers:\n  python_scorer: {script_path: scorers/missing.py}\n${casesYaml(['ok'])}`;
    const { dir, problems } = load(yaml, tempDir(), NO_UV);
    const errors = problems.filter((p) => p.severity === 'error');
    assert.equal(errors.length, 1);
    assert.match(
      errors[0]?.message ?? '',
      new RegExp(`${join(dir, 'scorers', 'missing.py').replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')}.*does not exist`, 'u'),
    );
    assert.equal(yaml.slice(errors[0]?.range.start.offset, errors[0]?.range.end.offset), 'scorers/missing.py');
  });

  it('lets `name` win over scorer_name, and a threshold decide instead of "only 100 passes"', async () => {
    const { results } = await runInTemp(
      `scorers:\n  python_scorer: {script_path: "${SCRIPT}", scorer_name: ignored, name: chosen, threshold: 3}\n${casesYaml(['score3'])}`,
      { env: NO_UV },
    );
    assert.deepEqual(
      results.map((r) => [r.scorer, r.status, r.score]),
      [['chosen', 'pass', 3]],
    );
  });

  it('is run in EvalBench configs (no longer in the not-run list)', () => {
    assert.equal(isEvalbenchScorerNotRun('python_scorer'), false);
  });

  it('says at load when neither uv nor python3 is on PATH', () => {
    const empty = tempDir();
    writeFileSync(join(empty, 'readme'), 'no programs here');
    const { problems } = load(
      `scorers:\n  python_scorer: {script_path: "${SCRIPT}"}\n${casesYaml(['ok'])}`,
      tempDir(),
      { PATH: empty },
    );
    assert.match(problems[0]?.message ?? '', /neither uv nor python3 is on PATH/u);
  });
});
