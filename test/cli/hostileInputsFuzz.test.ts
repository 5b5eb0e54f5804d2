/**
 * Property (issue 13, "no stack trace, ever"): hostile run configs, model configs, database configs
 * and datasets (JSON, JSON Lines, YAML, CSV) from a seeded generator: deep nesting, aliases that name
 * nothing and alias bombs, huge strings, `${VAR}` amplification, binary bytes, BOMs, invalid UTF-8
 * and wrong types at every key. Every one goes through the loaders and the dataset readers
 * in-process (no exception but a DatasetError, which the CLI reports at its place), and a sample
 * through the built CLI (an exit code from the documented set 0, 1, 2, 3; no stack frame).
 *   EVALLENS_FUZZ_SEED=<n> node scripts/test.mjs test/cli/hostileInputsFuzz.test.ts   (another seed)
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseRunConfig } from '../../core/config/parseRunConfig';
import { DatasetError } from '../../core/dataset/datasetError';
import { openDataset } from '../../core/dataset/open';
import { parseModelConfig } from '../../core/judge/modelConfig';
import { parseDatabaseConfig } from '../../core/sql/databaseConfig';
import { ensureBuilt, runCli } from '../support/cli';
import { seededRandom as prng } from '../support/seededRandom';

const SEED = Number(process.env['EVALLENS_FUZZ_SEED'] ?? 1313);
const ROUNDS = 150;
const CLI_SAMPLE = 8;
const STACK = /\n\s+at (?:.*\.[cm]?js:\d+:\d+|node:internal)|internal error/;
const ENV = { BIG: 'x'.repeat(100_000), SMALL: 'v' };

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const laughs = (): string =>
  [
    'l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]',
    ...Array.from(
      { length: 8 },
      (_, n) => `l${n + 1}: &l${n + 1} [${Array.from({ length: 9 }, () => `*l${n}`).join(', ')}]`,
    ),
  ].join('\n');

/** A hostile YAML value for a key: wrong types, aliases, nesting, huge or binary text, placeholders. */
function yamlValue(random: Random): string {
  const depth = 1 + Math.floor(random() * 3000);
  return pick(random, [
    () => '*nope',
    () => `[${'['.repeat(depth)}${']'.repeat(depth)}]`,
    () => `{${'{a: '.repeat(Math.min(depth, 400))}1${'}'.repeat(Math.min(depth, 400))}}`,
    () => `"${'${BIG}'.repeat(1 + Math.floor(random() * 400))}"`,
    () => `"${'y'.repeat(Math.floor(random() * 300_000))}"`,
    () => '"\u0000\u0001\u001b[31m\u202e"',
    () => pick(random, ['123', '-1', '1e400', 'true', 'null', '[]', '{}', '~', '.nan', '!!binary AAAA']),
    () => '&x [*x]',
    () => '"${UNSET_VARIABLE_FOR_FUZZ}"',
  ])();
}

const RUN_KEYS = [
  'dataset',
  'scorers',
  'cases',
  'concurrency',
  'num_trials',
  'database_configs',
  'dataset_config',
  'model_config',
  'reporting',
  'target',
  'metadata',
  'threshold',
];
const MODEL_KEYS = [
  'provider',
  'model',
  'api_key_env',
  'base_url',
  'headers',
  'temperature',
  'max_tokens',
  'generator',
  'project',
  'timeout_ms',
];
const DB_KEYS = [
  'db_type',
  'dialect',
  'database_name',
  'database_path',
  'host',
  'port',
  'user_name',
  'password',
  'password_env',
  'setup_directory',
  'extension',
];

function yamlDocument(random: Random, keys: readonly string[], valid: string): string {
  const lines = valid.split('\n').filter((l) => l !== '');
  const key = pick(random, keys);
  lines.push(`${key}: ${yamlValue(random)}`);
  if (random() < 0.2) lines.push(laughs());
  let text = `${lines.join('\n')}\n`;
  if (random() < 0.2) text = `\ufeff${text}`;
  if (random() < 0.1) text = text.slice(0, Math.floor(random() * text.length));
  return text;
}

/** A hostile dataset: bytes (it may not be UTF-8) and its extension. */
function dataset(random: Random): { bytes: Buffer; ext: string } {
  const depth = 200 + Math.floor(random() * 20_000);
  const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const ok = '{"id": "ok", "output": "x", "expected": "x"}';
  const body = pick(random, [
    () => ({ ext: 'json', text: `[${ok}, {"id": "d", "expected": ${deep}}, ${ok.replace('"ok"', '"ok2"')}]` }),
    () => ({ ext: 'json', text: `{"scenarios": [{"id": "s", "starting_prompt": "${'${BIG}'.repeat(800)}"}]}` }),
    () => ({ ext: 'jsonl', text: `${ok}\n{"id": "d", "output": ${deep}}\n"just a string"\n[1]\n{"id":\n` }),
    () => ({
      ext: 'yaml',
      text: pick(random, [
        '*nope\n',
        `- ${ok}\n- &a [*a]\n`,
        `cases: *x\n`,
        `- ${deep}\n`,
        `${laughs()}\ncases: [*l8]\n`,
      ]),
    }),
    () => ({
      ext: 'csv',
      text: `id,output,expected\n1,a,a\n2,say "hi,a\n3,"open,b\n4,"x"y,c\n5,"${'z'.repeat(Math.floor(random() * 1000))}\n`,
    }),
  ])();
  let bytes = Buffer.from(body.text, 'utf8');
  if (random() < 0.3) bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]);
  if (random() < 0.3) {
    const at = Math.floor(random() * bytes.length);
    bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from([0xff, 0xfe, 0xc3, 0x00, 0x80]), bytes.subarray(at)]);
  }
  return { bytes, ext: body.ext };
}

let work = '';
before(() => {
  work = mkdtempSync(join(tmpdir(), 'evallens-fuzz-hostile-'));
});
after(() => rmSync(work, { recursive: true, force: true }));

describe(`hostile inputs, seed ${SEED}`, () => {
  it(`${ROUNDS} rounds through the loaders and dataset readers: problems, never an exception`, async () => {
    const random = prng(SEED);
    for (let round = 0; round < ROUNDS; round++) {
      const run = yamlDocument(random, RUN_KEYS, 'dataset: data.jsonl\nscorers:\n  exact_match: null');
      const model = yamlDocument(random, MODEL_KEYS, 'provider: openai\nmodel: gpt-4o');
      const database = yamlDocument(random, DB_KEYS, 'db_type: sqlite\ndatabase_name: t');
      const what = `seed ${SEED}, round ${round}`;
      assert.doesNotThrow(() => parseRunConfig(run, join(work, 'run.eval.yaml'), ENV), `run config, ${what}`);
      assert.doesNotThrow(() => parseModelConfig(model, join(work, 'model.yaml'), ENV), `model config, ${what}`);
      assert.doesNotThrow(() => parseDatabaseConfig(database, join(work, 'db.yaml'), ENV), `database config, ${what}`);
      const data = dataset(random);
      const file = join(work, `data-${round}.${data.ext}`);
      writeFileSync(file, data.bytes);
      try {
        for await (const record of openDataset({ path: file })) assert.ok(record.ok || record.error.message.length > 0);
      } catch (error) {
        assert.ok(error instanceof DatasetError, `dataset ${file}, ${what}: ${String(error)}`);
        assert.ok(error.message.length > 0);
      }
    }
  });

  it(`a sample of ${CLI_SAMPLE} through the built CLI: a documented exit code, no stack frame`, async () => {
    ensureBuilt();
    const random = prng(SEED + 1);
    for (let n = 0; n < CLI_SAMPLE; n++) {
      const data = dataset(random);
      writeFileSync(join(work, `cli-${n}.${data.ext}`), data.bytes);
      writeFileSync(join(work, `model-${n}.yaml`), yamlDocument(random, MODEL_KEYS, 'provider: openai\nmodel: gpt-4o'));
      const scorer = n % 2 === 0 ? 'exact_match: null' : `llmrater: {model_config: model-${n}.yaml}`;
      writeFileSync(
        join(work, `cli-${n}.eval.yaml`),
        yamlDocument(random, ['metadata', 'description'], `dataset: cli-${n}.${data.ext}\nscorers:\n  ${scorer}`),
      );
      const result = await runCli(['run', `cli-${n}.eval.yaml`, '--runs-dir', 'runs'], {
        cwd: work,
        env: ENV,
        limitMs: 60_000,
      });
      const what = `seed ${SEED}, sample ${n}: ${result.stdout}${result.stderr}`;
      assert.ok([0, 1, 2, 3].includes(result.code ?? -1), what);
      assert.doesNotMatch(result.stdout + result.stderr, STACK, what);
    }
  });
});
