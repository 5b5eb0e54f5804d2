/**
 * The keys of newer EvalBench run configs (fixtures in test/fixtures/evalbench/newer-keys, written
 * after GoogleCloudPlatform/evalbench's cloud-sql-cujs, containerized, query_data_api, mcp_readability
 * and dea configs): one information notice per key EvalLens does not run, a warning saying what
 * differs for a key that changes EvalBench's scores, never an error; EvalLens's own configs stay
 * strict; and the published schema accepts exactly what the engine accepts.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import runConfigSchema from '../../../schemas/run-config.schema.json';
import { configFamily } from '../../../core/config/configFamily';
import { EVALBENCH_KEYS, evalbenchKey, FAMILY_KEYS } from '../../../core/config/evalbenchKeys';
import { parseRunConfig } from '../../../core/config/parseRunConfig';
import { YamlSource } from '../../../core/config/yamlSource';
import { createAjv } from '../../../core/schema/ajv';

const DIR = join(__dirname, '..', '..', 'fixtures', 'evalbench', 'newer-keys');

function parse(name: string, env: Record<string, string> = {}) {
  const file = join(DIR, name);
  return parseRunConfig(readFileSync(file, 'utf8'), file, env);
}

/** `line:col severity code` (1-based) of each problem, in order. */
function found(name: string, env: Record<string, string> = {}): string[] {
  return parse(name, env).problems.map(
    (p) => `${p.range.start.line + 1}:${p.range.start.column + 1} ${p.severity} ${p.code}`,
  );
}

describe('keys of newer EvalBench run configs', () => {
  it('gives each key EvalLens does not run one information notice naming it, and no error (cloud-sql CUJ, containerized)', () => {
    const parsed = parse('cloudsql_cuj_config.yaml');
    assert.deepEqual(
      parsed.problems.filter((p) => p.severity !== 'information'),
      [],
    );
    const named = parsed.problems.map((p) => /\(([a-z_.]+)\); it scores recorded outputs/.exec(p.message)?.[1]);
    assert.deepEqual(named, [
      'product_name',
      'eval_group',
      'orchestrator',
      'model_config',
      'simulated_user_model_config',
      'eval_case_timeout',
      'containerization',
      'runners',
      'set_up_script',
      'tear_down_script',
      'reporting.bigquery',
    ]);
    assert.ok(parsed.problems.every((p) => p.code === 'evalbench-key-not-run'));
    assert.equal(parsed.config?.family, 'evalbench');
    assert.deepEqual(
      parsed.config?.scorers.map((s) => s.name),
      ['trajectory_matcher', 'turn_count'],
    );
  });

  it('reads `dialect` and `prompt_generator` for the clean-up of generated SQL, warns, saying what differs, about keys that change what EvalBench scores, and reads db_name_mappings', () => {
    const parsed = parse('query_data_api_config.yaml');
    assert.deepEqual(found('query_data_api_config.yaml'), [
      '8:1 information evalbench-key-not-run',
      '9:1 warning evalbench-key-differs',
    ]);
    assert.match(parsed.problems[0]?.message ?? '', /\(prompt_generator\)/);
    assert.match(
      parsed.problems[1]?.message ?? '',
      /num_evals_to_run.*EvalBench scores a sample of this many items; EvalLens scores every case/,
    );
    assert.deepEqual(parsed.config?.sqlCleanUp, { dialect: 'postgres', promptGenerator: 'NOOPGenerator' });
    assert.deepEqual(
      parsed.config?.databaseNames?.mappings,
      { blog: 'db_blog' },
      'db_name_mappings is read (each case then runs on the database it maps to)',
    );
    assert.ok(parsed.config !== undefined);
  });

  it('treats every EvalBench scorer it does not run alike, by name or family prefix, in the list form too, and ignores unset ${VAR}s in them', () => {
    const parsed = parse('dataform_list_config.yaml');
    const notRun = parsed.problems.filter((p) => p.code === 'evalbench-scorer-not-run');
    assert.deepEqual(
      notRun.map((p) => `${p.range.start.line + 1}:${p.range.start.column + 1} ${p.severity}`),
      ['5:11 information', '8:11 information', '11:11 information'],
    );
    assert.match(
      notRun[0]?.message ?? '',
      /dataform_cloud_compile scorer \(scorers\.dataform_cloud_compile\), which compiles in a Google Cloud Dataform workspace; the key is accepted and the scorer is left out of the run/,
    );
    assert.ok(
      !parsed.problems.some((p) => p.severity === 'error'),
      'EVAL_GCP_PROJECT_ID is unset, inside a scorer that is not run',
    );
    assert.deepEqual(
      parsed.config?.scorers.map((s) => s.name),
      ['turn_count'],
    );
  });

  it('takes an EvalBench config without scorers (its seed configs) as a warning that nothing is scored, where an EvalLens config without them is an error', () => {
    const parsed = parse('seed_config.yaml');
    assert.ok(parsed.config !== undefined);
    assert.deepEqual(
      parsed.problems.filter((p) => p.severity !== 'information').map((p) => `${p.severity} ${p.code}`),
      ['warning no-scorer-runs'],
    );
    assert.deepEqual(parsed.config.scorers, []);
  });

  it('warns when no scorer is left to run, in the mapping form as in the list form', () => {
    assert.deepEqual(found('nothing_runs_config.yaml'), [
      '4:3 information evalbench-scorer-not-run',
      '6:3 information evalbench-scorer-not-run',
      '3:1 warning no-scorer-runs',
    ]);
    assert.deepEqual(parse('nothing_runs_config.yaml').config?.scorers, []);
  });

  it('accepts a config with an orchestrator and no dataset (mcp_readability) and says a run scores nothing', () => {
    const parsed = parse('mcp_readability_config.yaml');
    assert.equal(configFamily({ orchestrator: 'mcp_readability' }), 'evalbench');
    assert.deepEqual(
      parsed.problems.filter((p) => p.severity !== 'information').map((p) => p.code),
      ['nothing-to-score'],
      'mcp_tool_metrics runs; the config has no dataset',
    );
    assert.ok(parsed.config !== undefined);
  });

  it('gives a key neither reads a notice in an EvalBench config, and a warning with the suggestion when it is a near miss', () => {
    const parsed = parse('typo_config.yaml');
    assert.deepEqual(found('typo_config.yaml'), [
      '3:1 warning evalbench-key-unknown',
      '4:1 information evalbench-key-unknown',
    ]);
    assert.match(parsed.problems[0]?.message ?? '', /did you mean "scenario_pattern"/);
  });

  it('keeps an EvalLens config strict: a key neither reads is an error; an EvalBench key is still a notice', () => {
    assert.deepEqual(found('native.eval.yaml'), ['3:1 error unknown-key', '2:1 information evalbench-key-not-run']);
    const [unknown] = parseRunConfig(
      'dataset: cuj.evalset.json\nscorers:\n  dataform_run: {}\n',
      join(DIR, 'x.eval.yaml'),
      {},
    ).problems;
    assert.equal(unknown?.code, 'unknown-scorer');
  });

  it('says what to do about a BIRD dataset that is not downloaded yet: run the download script beside the config', () => {
    const file = join(DIR, '..', 'bird-download', 'example_run_config.yaml');
    const parsed = parseRunConfig(readFileSync(file, 'utf8'), file, {}, { fileExists: existsSync });
    const missing = parsed.problems.filter((p) => p.code === 'missing-file');
    assert.equal(missing.length, 1);
    assert.equal(`${(missing[0]?.range.start.line ?? 0) + 1}:${(missing[0]?.range.start.column ?? 0) + 1}`, '1:17');
    assert.match(
      missing[0]?.message ?? '',
      /does not exist .*download_dataset\.sh, which fetches EvalBench's dataset: run it first$/,
    );
  });

  it('has one table: every EvalBench key is a property of the published schema with its handling in its description', () => {
    const properties = runConfigSchema.properties as Record<string, { description?: string }>;
    for (const key of EVALBENCH_KEYS) {
      assert.ok(properties[key] !== undefined, key);
      const handling = evalbenchKey(key)?.handling;
      if (handling === 'not-run') assert.match(properties[key]?.description ?? '', /does not run it|not run/, key);
      if (handling === 'differs') assert.match(properties[key]?.description ?? '', /cannot honour it/, key);
    }
    assert.deepEqual(
      runConfigSchema.if.anyOf.map((c) => c.required[0]),
      [...FAMILY_KEYS],
    );
  });

  it('publishes a schema that accepts exactly the fixture configs the engine accepts', () => {
    const validate = createAjv({ useDefaults: false }).compile(runConfigSchema);
    for (const name of readdirSync(DIR).filter((f) => f.endsWith('.yaml'))) {
      const text = readFileSync(join(DIR, name), 'utf8');
      const source = new YamlSource(text, name);
      source.expandEnvironment({ EVAL_GCP_PROJECT_ID: 'p' });
      const data = source.toData().value;
      const engine = parse(name, { EVAL_GCP_PROJECT_ID: 'p' }).problems.every((p) => p.severity !== 'error');
      assert.equal(validate(data), engine, `${name}: ${JSON.stringify(validate.errors?.slice(0, 2))}`);
    }
  });
});
