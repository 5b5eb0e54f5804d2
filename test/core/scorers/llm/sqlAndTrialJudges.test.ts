import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { EvalCase, Json } from '../../../../core/case';
import { parseRunConfig } from '../../../../core/config/parseRunConfig';
import { OptionsValidators } from '../../../../core/scorers/optionsValidator';
import type { ScorerDefinition } from '../../../../core/scorers/scorer';
import { analyticsScorer } from '../../../../core/scorers/builtin/llm/analyticsScorer';
import { llmrater } from '../../../../core/scorers/builtin/llm/llmrater';
import type { QueryRun } from '../../../../core/sql/sqlResult';
import { configYaml, ENV, judgeFixture, loadConfig, runConfig, type JudgeFixture } from './judgeHarness';
import { createEngineContext } from '../../../../core/engineContext';

const validators = new OptionsValidators();

function rows(columns: string[], values: Json[][]): QueryRun {
  return { query: { ok: true, result: { columns, rows: values as never } }, durationMs: 1 };
}

function sqlCase(golden: QueryRun, generated: QueryRun): EvalCase {
  return {
    id: 'q1',
    input: 'How many orders per customer?',
    sql: { dialect: 'sqlite', goldenSql: 'SELECT c, n FROM g', generatedSql: 'SELECT n, c FROM x', golden, generated },
  };
}

async function scoreWith(
  definition: ScorerDefinition,
  dir: string,
  options: { [key: string]: Json },
  evalCase: EvalCase,
) {
  const copy = structuredClone(options);
  assert.deepEqual(validators.validate(definition, copy), []);
  const made = definition.create(copy, { engine: createEngineContext(), configDir: dir, timeoutMs: 30_000, env: ENV });
  if (!made.ok) assert.fail(JSON.stringify(made.issues));
  return made.scorer.score({ case: evalCase, output: undefined, expected: undefined }, new AbortController().signal);
}

describe('SQL and trial judges against the OpenAI protocol test double', () => {
  let fixture: JudgeFixture;
  before(async () => {
    fixture = await judgeFixture();
  });
  after(async () => {
    await fixture.close();
  });
  beforeEach(() => {
    fixture.server.requests.length = 0;
  });

  it('llmrater: results that match as sets score 100 with no call; otherwise the judge sees both queries and rows', async () => {
    const same = await scoreWith(
      llmrater,
      fixture.dir,
      { model_config: 'judge.yaml' },
      sqlCase(rows(['c', 'n'], [['a', 1]]), rows(['x', 'y'], [['a', 1]])),
    );
    assert.deepEqual([same.status, same.score], ['pass', 100]);
    assert.equal(fixture.server.requests.length, 0);

    fixture.server.enqueue({ text: '{"verdict": "EXTRA_INFORMATION", "reason": "adds a column"}' });
    const extra = await scoreWith(
      llmrater,
      fixture.dir,
      { model_config: 'judge.yaml' },
      sqlCase(
        rows(
          ['c', 'n'],
          [
            ['a', 1],
            ['a', 1],
          ],
        ),
        rows(['n', 'c', 'z'], [[1, 'a', true]]),
      ),
    );
    assert.deepEqual([extra.status, extra.score], ['pass', 100]);
    const prompt = fixture.server.requests[0]?.prompt ?? '';
    assert.match(prompt, /How many orders per customer\?/);
    assert.match(prompt, /SELECT n, c FROM x/);
    assert.match(prompt, /Rows the golden query returned \(1 distinct row\):\ncolumns: \["c","n"\]\n\["a",1\]/);

    fixture.server.enqueue({ text: '{"verdict": "NOT_EQUIVALENT"}' });
    const empty = await scoreWith(
      llmrater,
      fixture.dir,
      { model_config: 'judge.yaml' },
      sqlCase(rows(['c'], []), rows(['c'], [])),
    );
    assert.deepEqual([empty.status, empty.score], ['fail', 0]);
    assert.match(fixture.server.requests[1]?.prompt ?? '', /both returned no rows/);

    const failed = await scoreWith(
      llmrater,
      fixture.dir,
      { model_config: 'judge.yaml' },
      sqlCase(rows(['c'], []), { query: { ok: false, error: 'no such table' }, durationMs: 1 }),
    );
    assert.deepEqual([failed.status, failed.score], ['fail', 0]);
    assert.equal(fixture.server.requests.length, 2, 'a failed query makes no judge call');
  });

  it('analytics_scorer: a failed golden query is an error; PASS/FAIL from the rubric; max_rows bounds the rows shown', async () => {
    const broken = await scoreWith(
      analyticsScorer,
      fixture.dir,
      { model_config: 'judge.yaml' },
      sqlCase({ query: { ok: false, error: 'boom' }, durationMs: 1 }, rows(['c'], [])),
    );
    assert.equal(broken.status, 'error');
    fixture.server.enqueue({ text: '{"verdict": "FAIL", "failed_checks": [4], "reason": "wrong value"}' });
    const graded = await scoreWith(
      analyticsScorer,
      fixture.dir,
      { model_config: 'judge.yaml', max_rows: 2, query_label: 'Query' },
      sqlCase(rows(['c'], [[1], [2], [3]]), rows(['c'], [[1], [2], [4]])),
    );
    assert.deepEqual([graded.status, graded.score, graded.details?.['failed_checks']], ['fail', 0, [4]]);
    assert.match(
      fixture.server.requests[0]?.prompt ?? '',
      /Query:\nSELECT c, n FROM g\n\nData \(the first 2 of 3 distinct rows\)/,
    );
  });

  it('llm_consistency: one judge call per case over every trial, result on trial 0', async () => {
    fixture.server.enqueue({ text: '{"consistent": false, "inconsistent_trials": [2], "reason": "trial 2 differs"}' });
    const cases = [
      { id: 'c1', input: 'What is 2+2?', trials: [{ output: 'four' }, { output: 'five' }, { output: '4' }] },
    ];
    const { results } = await runConfig(
      loadConfig(fixture.dir, configYaml('  llm_consistency: {model_config: judge.yaml}', cases, 'num_trials: 3\n')),
    );
    assert.deepEqual(
      results.map((r) => [r.scorer, r.trial, r.status, r.score]),
      [['llm_consistency', 0, 'fail', 0]],
    );
    assert.equal(fixture.server.requests.length, 1);
    assert.match(
      fixture.server.requests[0]?.prompt ?? '',
      /Run 1:\noutput: four\n\nRun 2:\noutput: five\n\nRun 3:\noutput: 4/,
    );
  });

  it('skills_best_practices: one call per activated skill, the mean of their scores; a skill without SKILL.md scores 0', async () => {
    const skills = join(fixture.dir, 'skills');
    mkdirSync(join(skills, 'Report-Writer'), { recursive: true });
    writeFileSync(
      join(skills, 'Report-Writer', 'SKILL.md'),
      '---\nname: report-writer\ndescription: Writes reports\n---\nSteps.',
    );
    fixture.server.enqueue({ text: '{"score": 80, "clarity": {"score": 16, "comment": "clear"}, "summary": "good"}' });
    const cases = [
      {
        id: 'k',
        output: 'x',
        trace: {
          steps: [
            { type: 'skill', name: 'report-writer' },
            { type: 'skill', name: 'missing-skill' },
            { type: 'skill', name: 'report-writer' },
          ],
        },
      },
    ];
    const { results } = await runConfig(
      loadConfig(
        fixture.dir,
        configYaml('  skills_best_practices: {model_config: judge.yaml, skills_dir: skills}', cases),
      ),
    );
    assert.deepEqual([results[0]?.status, results[0]?.score], ['fail', 40]);
    assert.match(results[0]?.reason ?? '', /no SKILL.md found for missing-skill/);
    assert.equal(fixture.server.requests.length, 1);
    assert.match(fixture.server.requests[0]?.prompt ?? '', /name: report-writer\ndescription: Writes reports/);
  });

  it('skills_best_practices with no skills folder yet (EvalBench makes its sandbox while the agent runs) loads with a notice, and a case that activated a skill is unsupported', async () => {
    const requestsBefore = fixture.server.requests.length;
    const yaml = configYaml('  skills_best_practices: {model_config: judge.yaml}', [
      { id: 'k', output: 'x', trace: { steps: [{ type: 'skill', name: 'report-writer' }] } },
    ]);
    const file = join(fixture.dir, 'run.eval.yaml');
    writeFileSync(file, yaml);
    const parsed = parseRunConfig(yaml, file, ENV, { fileExists: existsSync });
    assert.deepEqual(
      parsed.problems.map((p) => `${p.severity} ${p.message.slice(0, 60)}`),
      ["information skills_best_practices: no skills folder: none of EvalBench's"],
    );
    const { results } = await runConfig(loadConfig(fixture.dir, yaml));
    assert.equal(results[0]?.status, 'unsupported');
    assert.match(
      results[0]?.reason ?? '',
      /^no skills folder: .*set skills_dir to the folder that holds <skill>\/SKILL\.md$/,
    );
    assert.equal(fixture.server.requests.length, requestsBefore, 'no judge call');
  });
});
