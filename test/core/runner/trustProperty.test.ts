/**
 * The TRUST rule as a property (issue 13): an untrusted run opens no socket and starts no process the
 * workspace chose, reads no environment variable the workspace names, and writes nothing a config
 * chooses outside the workspace. Run configs are generated from a seeded PRNG, each combining reaching
 * things — PostgreSQL/MySQL database configs aimed at a counting loopback listener (with
 * `password_env`, `!ENV`, `${VAR}` in host, user and database name), LLM judges whose model configs
 * name keys and point at the listener, cmd and HTTP targets, subprocess and Python scorers that would
 * create marker files, evalsets with `${VAR}`, CSV folders inside and outside the workspace — and run
 * untrusted through the core (load, preparers, runner), with `process.env` itself recording reads
 * while they run; a sample goes through the built CLI with --untrusted, a preload recording reads.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openPreparers } from '../../../cli/preparers';
import { loadRunConfig } from '../../../core/config/loadRunConfig';
import { untrustedEnv } from '../../../core/config/untrustedEnv';
import { caseRecords } from '../../../core/runner/records';
import { runEval } from '../../../core/runner/run';
import { CLI, ensureBuilt } from '../../support/cli';
import { seededRandom as prng } from '../../support/seededRandom';
import { countingListenerForFile } from '../../support/countingListener';

const CONFIGS = 150;
const CLI_SAMPLE = 4;
const SECRET = 'trust-property-Secret-42';
const PLANTED = [
  'TP_PASSWORD',
  'TP_USER',
  'TP_DB',
  'TP_HOST',
  'TP_KEY',
  'TP_HEADER',
  'TP_PATH',
  'TP_MODE',
  'TP_DATASET',
  'TP_PORT',
];

let root = '';
let outside = '';
const listener = countingListenerForFile();
let port = 0;

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'evallens-trust-property-'));
  outside = mkdtempSync(join(tmpdir(), 'evallens-trust-outside-'));
  port = await listener.start();
});
after(async () => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

interface Generated {
  readonly dir: string;
  readonly config: string;
  readonly markers: readonly string[];
  readonly features: readonly string[];
}

/** One workspace folder with a generated run config and the files it names. */
function generate(index: number, random: () => number): Generated {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const chance = (p: number) => random() < p;
  const dir = join(root, `ws-${index}`);
  mkdirSync(dir, { recursive: true });
  const markers: string[] = [];
  const features: string[] = [];
  const marker = (name: string) => {
    const path = join(dir, `${name}.marker`);
    markers.push(path);
    return path;
  };
  /** A value the workspace may put behind a `${VAR}` (with or without a fallback) or write plainly. */
  const maybeVar = (plain: string, name: string) => pick([plain, `\${${name}}`, `\${${name}:-${plain}}`]);
  const judge = () => {
    writeFileSync(
      join(dir, 'model.yaml'),
      `provider: openai\nmodel: ${maybeVar('gpt-x', 'TP_MODE')}\nbase_url: http://127.0.0.1:${port}/v1\napi_key_env: TP_KEY\n`,
    );
    features.push('judge');
  };
  const lines: string[] = [];
  const scorers: string[] = [];
  const evalbench = chance(0.5);
  if (evalbench) {
    const engine = pick(['postgres', 'mysql']);
    const password = pick(['password_env: TP_PASSWORD', 'password: !ENV ${TP_PASSWORD}']);
    writeFileSync(
      join(dir, 'db.yaml'),
      `db_type: ${engine}\ndialect: ${engine}\ndatabase_name: ${maybeVar('shop', 'TP_DB')}\nhost: ${maybeVar('127.0.0.1', 'TP_HOST')}\nport: ${chance(0.8) ? port : `\${TP_PORT:-${port}}`}\nuser_name: ${maybeVar('evaluator', 'TP_USER')}\n${password}\n`,
    );
    features.push(`${engine} database`);
    writeFileSync(
      join(dir, 'prompts.json'),
      JSON.stringify(
        [1, 2].map((id) => ({
          id,
          nl_prompt: 'q',
          query_type: 'DQL',
          database: 'shop',
          dialects: [engine],
          golden_sql: { [engine]: ['SELECT 1'] },
          generated_sql: 'SELECT 1',
        })),
      ),
    );
    lines.push(`dataset_config: ${maybeVar('prompts.json', 'TP_PATH')}`, 'database_configs:', '  - db.yaml');
    scorers.push('  exact_match: null', '  executable_sql: null');
    if (chance(0.5)) {
      judge();
      scorers.push('  llmrater:', '    model_config: model.yaml');
    }
  } else {
    const evalset = chance(0.3);
    if (evalset) {
      writeFileSync(
        join(dir, 'set.json'),
        `{"scenarios": [{"id": "s1", "prompt": "${chance(0.5) ? '${TP_DATASET}' : 'plain'}", "output": "x", "expected": "x"}]}`,
      );
      lines.push('dataset: set.json');
      features.push('evalset');
    } else {
      writeFileSync(
        join(dir, 'cases.jsonl'),
        '{"id": "a", "input": "q", "output": "x", "expected": "x"}\n{"id": "b", "input": "q", "expected": "y"}\n',
      );
      lines.push(`dataset: ${maybeVar('cases.jsonl', 'TP_PATH')}`);
    }
    const target = pick(['none', 'cmd', 'http']);
    if (target === 'cmd') {
      lines.push('target:', `  cmd: ${JSON.stringify(`touch ${marker('target')}; echo out`)}`);
      features.push('cmd target');
    } else if (target === 'http') {
      lines.push(
        'target:',
        '  http:',
        `    url: http://${maybeVar('127.0.0.1', 'TP_HOST')}:${port}/chat`,
        '    headers: {Authorization: "Bearer {{env.TP_HEADER}}"}',
      );
      features.push('http target');
    }
    scorers.push(`  exact_match: {mode: ${JSON.stringify(maybeVar('text', 'TP_MODE'))}}`);
    if (chance(0.6)) {
      scorers.push('  subprocess:', `    cmd: ${JSON.stringify(`touch ${marker('subprocess')}; echo '{"score": 1}'`)}`);
      features.push('subprocess scorer');
    }
    if (chance(0.4)) {
      writeFileSync(
        join(dir, 'score.py'),
        `open(${JSON.stringify(marker('python'))}, 'w').write('ran')\nprint('{"score": 1}')\n`,
      );
      scorers.push('  python_scorer:', '    script_path: score.py');
      features.push('python scorer');
    }
    if (chance(0.5)) {
      judge();
      scorers.push('  goal_completion:', '    model_config: model.yaml');
    }
  }
  if (chance(0.4)) {
    const where = pick([outside, join(outside, 'nested'), '../escape', 'results']);
    lines.push('reporting:', '  csv:', `    output_directory: ${where}`);
    features.push(`csv to ${where === 'results' ? 'inside' : 'outside'}`);
  }
  lines.push('scorers:', ...scorers, '');
  const config = join(dir, 'run.yaml');
  writeFileSync(config, lines.join('\n'));
  return { dir, config, markers, features };
}

/** Replaces process.env, for the duration of `body`, with one that records reads of the planted names. */
async function recordingProcessEnv<T>(body: () => Promise<T>): Promise<{ value: T; reads: string[] }> {
  const real = process.env;
  const reads: string[] = [];
  const planted = new Set(PLANTED);
  const values: Record<string, string> = Object.fromEntries(
    PLANTED.map((name) => [name, name === 'TP_HOST' ? '127.0.0.1' : SECRET]),
  );
  process.env = new Proxy(
    { ...real, ...values },
    {
      get(target, key) {
        if (typeof key === 'string' && planted.has(key)) reads.push(key);
        return Reflect.get(target, key);
      },
    },
  );
  try {
    return { value: await body(), reads };
  } finally {
    process.env = real;
  }
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true }).map(String);
}

describe('the TRUST rule over generated run configs', () => {
  it(`${CONFIGS} generated configs run untrusted through the core: no connection, no process, no variable read, nothing written outside`, async () => {
    const random = prng(0x7e57);
    const generated = Array.from({ length: CONFIGS }, (_, i) => generate(i, random));
    const seen = new Set(generated.flatMap((g) => g.features));
    for (const feature of [
      'postgres database',
      'mysql database',
      'judge',
      'cmd target',
      'http target',
      'subprocess scorer',
      'python scorer',
      'evalset',
      'csv to outside',
    ]) {
      assert.ok(seen.has(feature), `the generator never made: ${feature}`);
    }
    let ran = 0;
    let skippedReaching = 0;
    for (const g of generated) {
      listener.connections = 0;
      // Every read goes through here: what the workspace's files name is only ever asked of this env.
      const given = new Proxy({} as Record<string, string | undefined>, {
        get: (_t, key) => {
          throw new Error(`the run read ${String(key)} from the environment it was given`);
        },
      });
      const { value: results, reads } = await recordingProcessEnv(async () => {
        const parsed = loadRunConfig(g.config, untrustedEnv(), { workspace: g.dir });
        const config = parsed.config;
        if (config === undefined) return parsed.problems.map((p) => p.message);
        const opened = await openPreparers(config, given, new AbortController().signal, { trusted: false });
        const statuses: string[] = [];
        try {
          await runEval(config, caseRecords(config), {
            runId: `trust-${ran}`,
            trusted: false,
            concurrency: 2,
            ...(opened.preparer === undefined ? {} : { preparer: opened.preparer }),
            onEvent: (event) => {
              if (event.type === 'case/end') statuses.push(...event.results.map((r) => `${r.scorer}:${r.status}`));
            },
          });
        } catch (e) {
          // A dataset refused (an evalset's unread ${VAR}) ends the run before any case: that is allowed.
          statuses.push(`refused: ${e instanceof Error ? e.message : String(e)}`);
        } finally {
          await opened.preparer?.close();
        }
        ran++;
        return statuses;
      });
      const what = `${g.config} (${g.features.join(', ')}): ${results.join('; ')}`;
      assert.equal(listener.connections, 0, `a connection was opened: ${what}`);
      assert.deepEqual(reads, [], `variables were read: ${what}`);
      assert.deepEqual(
        g.markers.filter((m) => existsSync(m)),
        [],
        `a workspace process ran: ${what}`,
      );
      assert.ok(!results.join('\n').includes(SECRET), what);
      // A CSV folder outside the workspace refuses the run before any case.
      if (g.features.includes('csv to outside'))
        assert.ok(!results.some((r) => /^[\w-]+:(pass|fail|error|skipped|timeout)$/.test(r)), what);
      if (results.some((r) => /^(subprocess|python_scorer|goal_completion|llmrater|executable_sql):skipped/.test(r)))
        skippedReaching++;
      // A case that reaches is skipped, never scored by what it reaches.
      for (const status of results)
        assert.doesNotMatch(
          status,
          /^(subprocess|python_scorer|goal_completion|llmrater|executable_sql):(pass|fail|error)/,
          what,
        );
    }
    assert.ok(ran > CONFIGS / 4, `only ${ran} configs loaded: the generator makes too many that are refused`);
    assert.ok(skippedReaching > CONFIGS / 4, `only ${skippedReaching} configs had something reaching skipped`);
    assert.deepEqual(filesUnder(outside), []);
    assert.equal(existsSync(join(root, 'escape')), false);
  });

  it(`a sample of ${CLI_SAMPLE} runs through the built CLI with --untrusted: the same, with every report format`, async () => {
    ensureBuilt();
    const random = prng(0xc11);
    const preload = join(root, 'record-env.cjs');
    writeFileSync(
      preload,
      [
        "const { appendFileSync } = require('node:fs');",
        `const planted = new Set(${JSON.stringify(PLANTED)});`,
        'const out = process.env.EVALLENS_TEST_READS;',
        'process.env = new Proxy(process.env, { get(t, k) { if (typeof k === "string" && planted.has(k)) appendFileSync(out, k + "\\n"); return Reflect.get(t, k); } });',
        '',
      ].join('\n'),
    );
    // Past the core test's configs, so a CLI sample is a config the core did not see.
    const samples = Array.from({ length: CLI_SAMPLE }, (_, i) => generate(CONFIGS + i, random));
    for (const g of samples) {
      listener.connections = 0;
      const reads = join(g.dir, '..', `reads-${CONFIGS}-${Math.random().toString(36).slice(2)}.txt`);
      writeFileSync(reads, '');
      const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', EVALLENS_TEST_READS: reads };
      for (const name of PLANTED) env[name] = name === 'TP_HOST' ? '127.0.0.1' : SECRET;
      const args = [
        '-r',
        preload,
        CLI,
        'run',
        'run.yaml',
        '--untrusted',
        '--reporter',
        'console',
        '--reporter',
        'json',
        '--out',
        'out/report.json',
        '--reporter',
        'junit',
        '--out',
        'out/junit.xml',
      ];
      const child = spawn(process.execPath, args, { cwd: g.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
      child.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
      const what = `${g.config} (${g.features.join(', ')}), exit ${String(code)}:\n${out}`;
      assert.ok(code === 0 || code === 1 || code === 2 || code === 3, what);
      assert.equal(listener.connections, 0, what);
      assert.deepEqual(readFileSync(reads, 'utf8'), '', what);
      assert.deepEqual(
        g.markers.filter((m) => existsSync(m)),
        [],
        what,
      );
      assert.ok(!out.includes(SECRET), what);
    }
    assert.deepEqual(filesUnder(outside), []);
    assert.equal(existsSync(join(root, 'escape')), false);
  });
});
