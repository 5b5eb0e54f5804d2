import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRunConfig } from '../../../core/config/parseRunConfig';

const FILE = '/work/evals/support.eval.yaml';

/** Problems as `line:col code` (1-based), the way a person reads them. */
function problems(yaml: string, env: Record<string, string> = {}, fileExists?: (p: string) => boolean) {
  const parsed = parseRunConfig(yaml, FILE, env, fileExists ? { fileExists } : {});
  return parsed.problems.map((p) => ({
    at: `${p.range.start.line + 1}:${p.range.start.column + 1}`,
    code: p.code,
    message: p.message,
    suggestions: p.suggestions,
  }));
}

describe('run config', () => {
  it('accepts the mapping form, with null and {} for no options', () => {
    for (const empty of ['null', '{}', '']) {
      const parsed = parseRunConfig(`dataset: data.jsonl\nscorers:\n  exact_match: ${empty}\n`, FILE, {});
      assert.deepEqual(parsed.problems, [], `exact_match: ${empty}`);
      assert.equal(parsed.config?.scorers[0]?.name, 'exact_match');
    }
  });

  it('accepts the list form with several instances of one scorer, each under its name', () => {
    const parsed = parseRunConfig(
      'dataset: data.jsonl\nscorers:\n  - type: exact_match\n    name: strict\n  - type: exact_match\n    name: loose\n    ignore_case: true\n',
      FILE,
      {},
    );
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(
      parsed.config?.scorers.map((s) => s.name),
      ['strict', 'loose'],
    );
    assert.equal(parsed.config?.scorers[1]?.options['ignore_case'], true);
  });

  it('resolves the dataset path relative to the config', () => {
    const parsed = parseRunConfig('dataset: data/cases.jsonl\nscorers: {exact_match: {}}\n', FILE, {});
    assert.equal(parsed.config?.dataset?.path, '/work/evals/data/cases.jsonl');
  });

  it('fills option defaults from the schema', () => {
    const parsed = parseRunConfig('dataset: d.jsonl\nscorers: {exact_match: null}\n', FILE, {});
    assert.equal(parsed.config?.scorers[0]?.options['mode'], 'auto');
    assert.equal(parsed.config?.scorers[0]?.timeoutMs, 30000);
  });

  it('names the closest scorer keys for an unknown scorer, on its key', () => {
    const [p] = problems('dataset: d.jsonl\nscorers:\n  exact_matc: {}\n');
    assert.equal(p?.code, 'unknown-scorer');
    assert.equal(p?.at, '3:3');
    assert.match(p?.message ?? '', /unknown scorer "exact_matc"; did you mean "exact_match"\?/);
    assert.deepEqual(p?.suggestions, ['exact_match']);
  });

  it('flags an unknown scorer in the list form on its type value', () => {
    const [p] = problems('dataset: d.jsonl\nscorers:\n  - type: exact_mach\n');
    assert.equal(p?.code, 'unknown-scorer');
    assert.equal(p?.at, '3:11');
  });

  it('flags an unknown top-level key on the key, with a suggestion', () => {
    const found = problems('datset: d.jsonl\nscorers: {exact_match: {}}\n');
    assert.equal(found[0]?.code, 'unknown-key');
    assert.equal(found[0]?.at, '1:1');
    assert.match(found[0]?.message ?? '', /did you mean "dataset"/);
  });

  it('flags an unknown option on its key and a wrong enum value on its value', () => {
    const found = problems('dataset: d.jsonl\nscorers:\n  exact_match:\n    trimm: true\n    mode: jsn\n');
    const byCode = Object.fromEntries(found.map((p) => [p.at, p.message]));
    assert.match(byCode['4:5'] ?? '', /unknown key "trimm" in `scorers.exact_match`; did you mean "trim"/);
    assert.match(byCode['5:11'] ?? '', /must be one of "auto", "text", "json"; got "jsn"; did you mean "json"/);
  });

  it('says what type was expected and what was seen', () => {
    const [p] = problems('dataset: d.jsonl\nnum_trials: two\nscorers: {exact_match: {}}\n');
    assert.equal(p?.at, '2:13');
    assert.equal(p?.message, '`num_trials` must be an integer, not the string "two"');
  });

  it('says "needs one of" for options that are alternatives, once, on the scorer', () => {
    const [p] = problems('cases: []\nscorers:\n  numeric_tolerance: {}\n');
    assert.equal(p?.code, 'missing-required');
    assert.equal(p?.at, '3:3');
    assert.equal(p?.message, '`scorers.numeric_tolerance` needs "absolute" or "relative" (or both)');
    assert.deepEqual(p?.suggestions, ['absolute', 'relative']);
  });

  it('refuses two options of which a scorer takes one', () => {
    const found = problems('cases: []\nscorers:\n  regex: {pattern: a, patterns: [b]}\n');
    assert.deepEqual(
      found.map((p) => p.message),
      ['`scorers.regex` takes "pattern" or "patterns", not both'],
    );
  });

  it('refuses a pattern that can backtrack catastrophically when the config loads, naming the part', () => {
    const [p] = problems('cases: []\nscorers:\n  regex: {pattern: "^(a+)+$"}\n');
    assert.equal(p?.code, 'invalid-option');
    assert.equal(p?.at, '3:20');
    assert.match(p?.message ?? '', /backtrack catastrophically.*exponential.*"a" at character 3/);
  });

  it('expands ${VAR} and EvalBench !ENV values from the environment', () => {
    const parsed = parseRunConfig(
      'dataset: !ENV ${DATA_DIR}/cases.jsonl\nscorers: {exact_match: {value: "${ANSWER:-yes}"}}\n',
      FILE,
      { DATA_DIR: '/data' },
    );
    assert.deepEqual(parsed.problems, []);
    assert.equal(parsed.config?.dataset?.path, '/data/cases.jsonl');
    assert.equal(parsed.config?.scorers[0]?.options['value'], 'yes');
  });

  it('makes an unresolved ${VAR} a clear error on the placeholder', () => {
    const [p] = problems('dataset: data/${SPLIT}.jsonl\nscorers: {exact_match: {}}\n');
    assert.equal(p?.code, 'unresolved-variable');
    assert.equal(p?.at, '1:15');
    assert.match(p?.message ?? '', /SPLIT is not set/);
  });

  it('keeps $${VAR} as a literal', () => {
    const parsed = parseRunConfig('dataset: d.jsonl\nscorers: {exact_match: {value: "$${HOME}"}}\n', FILE, {});
    assert.equal(parsed.config?.scorers[0]?.options['value'], '${HOME}');
  });

  it('reports YAML syntax errors at their position and stops there', () => {
    const found = problems('dataset: d.jsonl\nscorers:\n  exact_match: {\n');
    assert.equal(found.length, 1);
    assert.equal(found[0]?.code, 'yaml-syntax');
  });

  it('requires scorers and some cases', () => {
    const codes = problems('description: nothing\n').map((p) => p.code);
    assert.ok(codes.includes('missing-required'));
    assert.ok(codes.includes('missing-dataset'));
  });

  it('refuses two scorers reporting under one name', () => {
    const found = problems('dataset: d.jsonl\nscorers:\n  - {type: exact_match}\n  - {type: exact_match}\n');
    assert.equal(found[0]?.code, 'duplicate-scorer-name');
    assert.equal(found[0]?.at, '4:12');
  });

  it('reports a missing dataset file on the path value', () => {
    const [p] = problems('dataset: missing.jsonl\nscorers: {exact_match: {}}\n', {}, () => false);
    assert.equal(p?.code, 'missing-file');
    assert.equal(p?.at, '1:10');
  });

  it('accepts EvalBench run configs as they are', () => {
    const yaml = [
      'dataset_config: datasets/bat/prompts.json',
      'num_trials: 2',
      'database_configs:',
      ' - datasets/bat/db_configs/sqlite.yaml',
      'dialects:',
      ' - sqlite',
      'query_types:',
      ' - dql',
      'model_config: datasets/model_configs/gemini_2.5_pro_model.yaml',
      "prompt_generator: 'SQLGenBasePromptGenerator'",
      'scorers:',
      '  exact_match: null',
      'reporting:',
      '  csv:',
      "    output_directory: 'results'",
      '',
    ].join('\n');
    const parsed = parseRunConfig(yaml, FILE, {});
    assert.deepEqual(
      parsed.problems.filter((p) => p.severity === 'error'),
      [],
    );
    // Keys EvalBench has that EvalLens does not run are accepted with a notice each, on the key.
    assert.deepEqual(
      parsed.problems.map((p) => [p.severity, p.code, p.range.start.line + 1]),
      [
        ['information', 'evalbench-key-not-run', 9],
        ['information', 'evalbench-key-not-run', 10],
      ],
    );
    assert.equal(parsed.config?.numTrials, 2);
    assert.equal(parsed.config?.dataset?.path, '/work/evals/datasets/bat/prompts.json');
  });

  it('reads inline cases with their ranges', () => {
    const parsed = parseRunConfig(
      'scorers: {exact_match: {}}\ncases:\n  - id: a\n    output: x\n  - output: y\n',
      FILE,
      {},
    );
    assert.equal(parsed.config?.inlineCases.length, 2);
    assert.equal(parsed.config?.inlineCases[1]?.range.start.line, 4);
  });

  it('reads pass_criteria.threshold, defaulting to 0.5', () => {
    assert.equal(parseRunConfig('dataset: d.jsonl\nscorers: {exact_match: {}}\n', FILE, {}).config?.jobThreshold, 0.5);
    assert.equal(
      parseRunConfig('dataset: d.jsonl\nscorers: {exact_match: {}}\npass_criteria: {threshold: 0.8}\n', FILE, {}).config
        ?.jobThreshold,
      0.8,
    );
  });
});

describe('run config bounds', () => {
  it('refuses concurrency past 256 and num_trials past 100 where they are written', () => {
    const found = problems(
      'dataset: d.jsonl\nconcurrency: 100000000\nnum_trials: 50000\nscorers: {exact_match: null}\n',
    );
    assert.ok(
      found.some((p) => p.at.startsWith('2:') && /256/.test(p.message)),
      JSON.stringify(found),
    );
    assert.ok(
      found.some((p) => p.at.startsWith('3:') && /100/.test(p.message)),
      JSON.stringify(found),
    );
    assert.deepEqual(
      problems('dataset: d.jsonl\nconcurrency: 256\nnum_trials: 100\nscorers: {exact_match: null}\n'),
      [],
    );
  });
});
