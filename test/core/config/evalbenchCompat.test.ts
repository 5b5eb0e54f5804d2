import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { configFamily } from '../../../core/config/configFamily';
import { evalbenchScorers, isEvalbenchScorerNotRun, resolveConfigPath } from '../../../core/config/evalbenchCompat';
import { parseRunConfig, type ParseOptions } from '../../../core/config/parseRunConfig';
import { openDataset } from '../../../core/dataset/open';
import { executableSql } from '../../../core/scorers/builtin/sql/executableSql';
import { returnedSql } from '../../../core/scorers/builtin/sql/returnedSql';
import { setMatch } from '../../../core/scorers/builtin/sql/setMatch';
import { ScorerRegistry } from '../../../core/scorers/registry';
import { readAll } from '../../support/datasetRecords';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'evalbench');
const EXAMPLE = join(FIXTURES, 'datasets', 'bat', 'example_run_config.yaml');
const FILE = join(FIXTURES, 'run.eval.yaml');

/** The example config without its LLM judges, whose model config (a Gemini generator config) the fixture does not have. */
function withoutJudges(yaml: string): string {
  return yaml.replace(/^ {2}(llmrater|llm_consistency):\n {4}model_config: .*\n/gm, '');
}

/** The problems of a config as `line:col severity code` (1-based) with their messages. */
function problems(yaml: string, options: ParseOptions & { env?: Record<string, string> } = {}) {
  const parsed = parseRunConfig(yaml, FILE, options.env ?? {}, options);
  return parsed.problems.map((p) => ({
    at: `${p.range.start.line + 1}:${p.range.start.column + 1}`,
    severity: p.severity,
    code: p.code,
    message: p.message,
  }));
}

describe('EvalBench run configs', () => {
  // The SQL scorers of the real example besides exact_match, until core/scorers/registry.ts lists them.
  const registry = new ScorerRegistry([...evalbenchScorers(), setMatch, returnedSql, executableSql]);

  it("gives the real example config's LLM judges (llmrater, llm_consistency) an error each: their model config is not in the fixture", () => {
    const parsed = parseRunConfig(readFileSync(EXAMPLE, 'utf8'), EXAMPLE, {}, { fileExists: existsSync, registry });
    const judges = parsed.problems
      .filter((p) => p.severity === 'error')
      .map((p) => `${p.range.start.line + 1}:${p.range.start.column + 1} ${p.code} ${p.message.split(':')[0] ?? ''}`);
    assert.deepEqual(judges, ['15:19 missing-file llmrater', '21:19 missing-file llm_consistency']);
  });

  it('loads the real example config (datasets/bat/example_run_config.yaml), its judges left out, with no error and exactly its information notices', () => {
    const parsed = parseRunConfig(
      withoutJudges(readFileSync(EXAMPLE, 'utf8')),
      EXAMPLE,
      {},
      { fileExists: existsSync, registry },
    );
    const found = parsed.problems
      .filter((p) => p.code !== 'missing-file')
      .map((p) => `${p.range.start.line + 1}:${p.range.start.column + 1} ${p.severity} ${p.code}`);
    assert.deepEqual(found, [
      '9:1 information evalbench-key-not-run',
      '10:1 information evalbench-key-not-run',
      // Four lines up from the file's 25:3: the two judge entries are left out.
      '21:3 information evalbench-key-not-run',
    ]);
    assert.deepEqual(
      parsed.problems.filter((p) => p.code !== 'missing-file').map((p) => p.message),
      [
        "EvalLens does not run EvalBench's SQL and agent generation (model_config); it scores recorded outputs — the key is accepted and ignored",
        "EvalLens does not run EvalBench's prompt generator (prompt_generator); it scores recorded outputs — the key is accepted and ignored",
        "EvalLens does not run EvalBench's GCS artifact upload (reporting.gcs_artifacts); it scores recorded outputs — the key is accepted and ignored",
        // setup_directory is run (SQLite databases are built from it): what is built is said per database at validate time.
      ],
    );
    const config = parsed.config;
    assert.ok(config !== undefined);
    assert.equal(config.family, 'evalbench');
    assert.equal(config.numTrials, 2);
    // EvalBench resolves paths from its repository root, a folder above the config.
    assert.equal(config.dataset?.path, join(FIXTURES, 'datasets', 'bat', 'prompts.json'));
    assert.deepEqual(config.dataset?.nl2sql, {
      format: 'evalbench-standard-format',
      dialects: ['sqlite'],
      queryTypes: ['dql'],
      inferred: true,
    });
    assert.deepEqual(
      config.databases?.map((d) => [d.configFile, d.range.start.line + 1]),
      [[join(FIXTURES, 'datasets', 'bat', 'db_configs', 'sqlite.yaml'), 4]],
    );
    assert.equal(config.setupDirectory, join(FIXTURES, 'datasets', 'bat', 'setup'));
    assert.equal(config.csvOutputDirectory, join(FIXTURES, 'datasets', 'bat', 'results'));
    assert.equal(config.truncateExecutionOutputs, 250);
    assert.deepEqual(
      config.scorers.map((s) => `${s.name}:${s.definition.origin}`),
      [
        'exact_match:EvalBench',
        'returned_sql:EvalBench',
        'set_match:EvalBench',
        'executable_sql:EvalBench',
        'exact_match_consistency:EvalBench',
      ],
    );
  });

  it("reads the example's dataset through its filters: dialects sqlite, query_types dql", async () => {
    const config = parseRunConfig(
      withoutJudges(readFileSync(EXAMPLE, 'utf8')),
      EXAMPLE,
      {},
      { fileExists: existsSync, registry },
    ).config;
    assert.ok(config?.dataset !== undefined);
    const records = await readAll(openDataset, config.dataset);
    assert.deepEqual(
      records.map((r) => (r.ok ? r.value.case.id : `!${r.error.id}`)),
      ['1', '5'],
    );
  });

  it('routes exact_match to the EvalBench SQL scorer in an EvalBench config, and to EvalBook in an EvalLens config', () => {
    const origin = (yaml: string) => parseRunConfig(yaml, FILE, {}).config?.scorers[0]?.definition.origin;
    assert.equal(origin('dataset_config: prompts.json\nscorers:\n  exact_match: null\n'), 'EvalBench');
    assert.equal(
      origin('dataset: cases.json\ndatabase_configs: [db.yaml]\nscorers:\n  exact_match: null\n'),
      'EvalBench',
    );
    assert.equal(origin('dataset: cases.json\nscorers:\n  exact_match: null\n'), 'EvalBook');
    const evallens = parseRunConfig('dataset: cases.json\nscorers:\n  exact_match: {mode: text}\n', FILE, {});
    assert.deepEqual(evallens.problems, []);
    assert.equal(evallens.config?.scorers[0]?.options['mode'], 'text');
    assert.equal(evallens.config?.family, 'evallens');
  });

  it('keeps the options of each family apart: EvalBook options are unknown to the EvalBench exact_match', () => {
    const found = problems('dataset_config: prompts.json\nscorers:\n  exact_match: {mode: text}\n');
    assert.equal(found[0]?.code, 'unknown-key');
    assert.equal(found[0]?.at, '3:17');
  });

  it('lists the EvalBench scorers EvalLens does not run in one place', () => {
    for (const key of [
      'llmrater',
      'analytics_scorer',
      'goal_completion',
      'behavioral_metrics',
      'parameter_analysis',
      'binary_rubric_scorer',
      'skills_best_practices',
      'llm_consistency',
    ]) {
      assert.ok(!isEvalbenchScorerNotRun(key), `${key} runs (an LLM judge)`);
    }
    for (const key of ['dataset_quality', 'dataform_cloud_run', 'dbt_compile', 'mcp_style_readability']) {
      assert.ok(isEvalbenchScorerNotRun(key), key);
    }
    assert.ok(!isEvalbenchScorerNotRun('exact_match'));
    assert.ok(!isEvalbenchScorerNotRun('llm_rater'));
  });

  it('makes an EvalBench scorer EvalLens does not run a notice in an EvalBench config, in either form, and an unknown scorer in an EvalLens config', () => {
    assert.deepEqual(
      problems(
        'dataset_config: p.json\nscorers:\n  - type: dataset_quality\n    product_name: p\n  - type: exact_match\n',
      ),
      [
        {
          at: '3:11',
          severity: 'information',
          code: 'evalbench-scorer-not-run',
          message:
            "EvalLens does not run EvalBench's dataset_quality scorer (scorers.dataset_quality), which grades a whole dataset with LLM sub-scorers and a live MCP tool catalog; the key is accepted and the scorer is left out of the run",
        },
      ],
    );
    const [error] = problems('dataset: d.jsonl\nscorers:\n  dataset_quality: {}\n');
    assert.equal(error?.code, 'unknown-scorer');
    assert.equal(error?.severity, 'error');
  });

  it('keeps a misspelt scorer an error with suggestions in an EvalBench config', () => {
    const [p] = problems('dataset_config: p.json\nscorers:\n  set_mach: null\n', { registry });
    assert.equal(p?.code, 'unknown-scorer');
    assert.match(p?.message ?? '', /did you mean "set_match"/);
  });

  it('warns when none of the scorers of an EvalBench config runs', () => {
    const found = problems('dataset_config: p.json\nscorers:\n  dataset_quality: {}\n');
    assert.deepEqual(
      found.map((p) => `${p.at} ${p.severity} ${p.code}`),
      ['3:3 information evalbench-scorer-not-run', '2:1 warning no-scorer-runs'],
    );
  });

  it('gives one information notice on the key of each EvalBench key EvalLens does not run', () => {
    const yaml = [
      'dataset_config: .ci/harness_smoke.evalset.json',
      'dataset_format: agent-format',
      'orchestrator: agent',
      'model_config: m.yaml',
      'simulated_user_model_config: u.yaml',
      "prompt_generator: 'NOOPGenerator'",
      'runners: {agent_runners: 4}',
      'scorers:',
      '  trajectory_matcher: {}',
      'reporting:',
      '  bigquery: {gcp_project_id: p}',
      '  gcs_artifacts: {bucket: b}',
      '',
    ].join('\n');
    const found = problems(yaml);
    assert.deepEqual(
      found.map(
        (p) =>
          `${p.at} ${p.severity} ${p.message.replace(/^EvalLens does not run EvalBench's (.*); it scores .*$/, '$1')}`,
      ),
      [
        '3:1 information orchestrator (orchestrator)',
        '4:1 information SQL and agent generation (model_config)',
        '5:1 information simulated user (simulated_user_model_config)',
        '6:1 information prompt generator (prompt_generator)',
        '7:1 information runner pools (runners)',
        '11:3 information BigQuery reporting (reporting.bigquery)',
        '12:3 information GCS artifact upload (reporting.gcs_artifacts)',
      ],
    );
  });

  it('keeps !ENV working, and ignores unset variables in the values of keys EvalLens does not run', () => {
    const yaml =
      'dataset_config: !ENV ${DATA}/p.json\nmodel_config: !ENV .ci/model_configs/${CI_HARNESS}_model.yaml\nscorers:\n  exact_match: null\n';
    const parsed = parseRunConfig(yaml, FILE, { DATA: '/data' });
    assert.deepEqual(
      parsed.problems.map((p) => p.code),
      ['evalbench-key-not-run'],
    );
    assert.equal(parsed.config?.dataset?.path, '/data/p.json');
    const unset = problems(yaml).map((p) => `${p.at} ${p.code}`);
    assert.deepEqual(unset, ['1:22 unresolved-variable', '2:1 evalbench-key-not-run']);
  });

  it('reports a database config that does not exist on its list item', () => {
    const yaml =
      'dataset_config: datasets/bat/prompts.json\ndatabase_configs:\n  - datasets/bat/db_configs/sqlite.yaml\n  - db_configs/postgres.yaml\nscorers:\n  exact_match: null\n';
    const found = problems(yaml, { fileExists: existsSync });
    assert.deepEqual(found, [
      {
        at: '4:5',
        severity: 'error',
        code: 'missing-file',
        message: `the database config ${join(FIXTURES, 'db_configs', 'postgres.yaml')} does not exist (paths are relative to the config's folder)`,
      },
    ]);
  });

  it('reads dataset_format: NL2SQL formats go to the NL2SQL reader, agentic evalsets to the JSON reader, others warn', () => {
    const datasetOf = (extra: string) =>
      parseRunConfig(`dataset_config: p.json\n${extra}scorers:\n  exact_match: null\n`, FILE, {}).config?.dataset;
    assert.deepEqual(
      datasetOf('dataset_format: bird-standard-format\ndialects: [postgres]\ndatabases: [financial]\n')?.nl2sql,
      { format: 'bird-standard-format', dialects: ['postgres'], databases: ['financial'] },
    );
    assert.deepEqual(datasetOf('dataset_format: evalbench-standard-format\n')?.nl2sql, {
      format: 'evalbench-standard-format',
    });
    assert.equal(datasetOf('dataset_format: agent-format\n')?.nl2sql, undefined);
    assert.equal(datasetOf('')?.nl2sql, undefined, 'no database_configs: no NL2SQL default');
    const [warning] = problems(
      'dataset_config: p.jsonl\ndataset_format: bird-interact-format\nscorers:\n  exact_match: null\n',
    );
    assert.equal(warning?.severity, 'warning');
    assert.equal(warning?.code, 'evalbench-format-not-read');
    assert.equal(warning?.at, '2:17');
    assert.match(warning?.message ?? '', /the dataset is not read, so a run scores nothing/);
    const unread = parseRunConfig(
      'dataset_config: missing.jsonl\ndataset_format: mcp-compliance-format\nscorers:\n  mcp_token_cost: {}\n',
      FILE,
      {},
      { fileExists: () => false },
    );
    assert.equal(unread.config?.dataset, undefined, 'a format EvalLens cannot read is not read as something else');
    assert.deepEqual(
      unread.problems.filter((p) => p.severity === 'error'),
      [],
      'so a file it would not read is no missing-file error either',
    );
    const [error] = problems('dataset_config: p.json\ndataset_format: bird-standard\nscorers:\n  exact_match: null\n');
    assert.equal(error?.severity, 'error');
    assert.match(error?.message ?? '', /did you mean "bird-standard-format"/);
  });

  it('defaults to evalbench-standard-format only for a .json dataset of no declared format in a config with database_configs', () => {
    const datasetOf = (head: string) =>
      parseRunConfig(`${head}database_configs: [db.yaml]\nscorers:\n  exact_match: null\n`, FILE, {}).config?.dataset;
    assert.deepEqual(datasetOf('dataset: p.json\n')?.nl2sql, { format: 'evalbench-standard-format', inferred: true });
    assert.equal(datasetOf('dataset: p.jsonl\n')?.nl2sql, undefined);
    assert.equal(datasetOf('dataset: {path: p.json, format: json}\n')?.nl2sql, undefined);
  });

  it('checks query_types (any case) and dataset_config in its dict form', () => {
    assert.deepEqual(
      problems('dataset_config: {prompts_file: p.json}\nquery_types: [DQL, dml]\nscorers:\n  exact_match: null\n'),
      [],
    );
    assert.equal(
      parseRunConfig('dataset_config: {prompts_file: p.json}\nscorers:\n  exact_match: null\n', FILE, {}).config
        ?.dataset?.path,
      join(FIXTURES, 'p.json'),
    );
    const [p] = problems('dataset_config: p.json\nquery_types: [dcl]\nscorers:\n  exact_match: null\n');
    assert.equal(p?.at, '2:15');
    assert.equal(p?.severity, 'error');
  });

  it('reads reporting: truncate_execution_outputs, and csv.output_directory relative to the config', () => {
    const config = parseRunConfig(
      'dataset_config: p.json\nreporting:\n  truncate_execution_outputs: 10\n  csv: {output_directory: out/csv}\nscorers:\n  exact_match: null\n',
      FILE,
      {},
    ).config;
    assert.equal(config?.truncateExecutionOutputs, 10);
    assert.equal(config?.csvOutputDirectory, join(FIXTURES, 'out', 'csv'));
    assert.equal(
      parseRunConfig('dataset_config: p.json\nreporting:\n  csv: {}\nscorers:\n  exact_match: null\n', FILE, {}).config
        ?.csvOutputDirectory,
      join(FIXTURES, 'results'),
    );
    assert.equal(
      parseRunConfig('dataset_config: p.json\nscorers:\n  exact_match: null\n', FILE, {}).config?.csvOutputDirectory,
      undefined,
    );
    const [typo] = problems(
      'dataset_config: p.json\nreporting:\n  csv: {output_dir: out}\nscorers:\n  exact_match: null\n',
    );
    assert.equal(typo?.code, 'unknown-key');
    assert.match(typo?.message ?? '', /did you mean "output_directory"/);
  });

  it('applies scenarios and scenario_pattern as filters on case ids', async () => {
    const config = parseRunConfig(
      `dataset_config: datasets/bat/prompts.json\ndatabase_configs: [datasets/bat/db_configs/sqlite.yaml]\nscenarios: [1, ddl-1, 5]\nscenario_pattern: '[!5]*'\nscorers:\n  exact_match: null\n`,
      FILE,
      {},
    ).config;
    assert.deepEqual(config?.dataset?.caseIds, { ids: ['1', 'ddl-1', '5'], filter: '[!5]*' });
    assert.ok(config?.dataset !== undefined);
    const records = await readAll(openDataset, config.dataset);
    assert.deepEqual(
      records.map((r) => (r.ok ? r.value.case.id : r.error.id)),
      ['1', 'ddl-1'],
    );
  });

  it('warns about a setup folder that does not exist', () => {
    const [p] = problems(
      'dataset_config: datasets/bat/prompts.json\nsetup_directory: setup\nscorers:\n  exact_match: null\n',
      { fileExists: existsSync },
    );
    assert.equal(p?.severity, 'warning');
    assert.equal(p?.code, 'missing-file');
    assert.equal(p?.at, '2:18');
  });

  it('tells the families apart and resolves EvalBench paths from the folders above the config', () => {
    assert.equal(configFamily({ dataset_config: 'p.json' }), 'evalbench');
    assert.equal(configFamily({ database_configs: [] }), 'evalbench');
    assert.equal(configFamily({ dataset: 'p.json' }), 'evallens');
    const dir = join(FIXTURES, 'datasets', 'bat');
    assert.equal(
      resolveConfigPath('datasets/bird/financial.json', { dir, family: 'evalbench', fileExists: existsSync }),
      join(FIXTURES, 'datasets', 'bird', 'financial.json'),
    );
    assert.equal(
      resolveConfigPath('datasets/bird/financial.json', { dir, family: 'evallens', fileExists: existsSync }),
      join(dir, 'datasets', 'bird', 'financial.json'),
    );
    assert.equal(
      resolveConfigPath('nowhere.json', { dir, family: 'evalbench', fileExists: existsSync }),
      join(dir, 'nowhere.json'),
    );
  });
});

describe('reporting.truncate_execution_outputs', () => {
  it('is the default of every SQL scorer that shows rows, and an entry may set its own', () => {
    const yaml =
      'cases: []\nreporting:\n  truncate_execution_outputs: 5\nscorers:\n  - {type: set_match}\n  - {type: recall_match, truncate_execution_outputs: 9}\n  - {type: returned_sql}\n';
    const parsed = parseRunConfig(yaml, '/x.eval.yaml', {});
    assert.deepEqual(
      parsed.problems.filter((p) => p.severity === 'error'),
      [],
    );
    const options = parsed.config?.scorers.map((s) => s.options['truncate_execution_outputs']);
    assert.deepEqual(options, [5, 9, undefined]);
  });
});
