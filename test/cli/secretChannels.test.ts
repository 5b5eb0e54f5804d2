/**
 * Property test of the rule NO SECRET IN ANY CHANNEL (issue 13, item 4), through the built CLI and the
 * language server. A seeded generator plants secrets — API keys in many vendors' shapes, passwords,
 * tokens, and plain values of environment variables the run reads — at random positions, many of
 * them straddling a cut (the judge's 200 characters, the HTTP status text's 100, a quoted reason's
 * 500 from the start, a stderr quote's 500 from the end), in: judge error bodies and answers (the
 * loopback double fakeOpenAiServer), an HTTP target's status texts and bodies, a database config's
 * password and `${VAR}`s, a model config's base_url user-info and query, a subprocess scorer's stdout
 * and stderr, dataset outputs secret_scan flags, and `${VAR}`s of the run config. Then it collects
 * every channel — stdout and stderr of `run`, `validate`, `plan` and `plan --json`, the JSON, JSONL,
 * JUnit and CSV reports, every file of the run folder, and the server's diagnostics for the same
 * configs — and asserts that no planted secret shows.
 *
 * What counts as showing (the rule, also in README's Security model): any 8 consecutive characters
 * of a secret's random part. A vendor's public prefix (`sk-`, `AKIA`, `ghp_`, `xoxb-`, `eyJ…` of a
 * JWT's header) identifies nothing and is not checked; 8 characters of the random part would narrow
 * a key down to one.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { ensureBuilt, runCli } from '../support/cli';
import {
  startFakeLlmServer,
  type FakeLlmServer,
  type RecordedRequest,
  type ScriptedAnswer,
} from '../support/fakeOpenAiServer';
import { ensureServerBuilt, messageOf, withServer } from '../support/lspClient';
import { seededRandom as prng } from '../support/seededRandom';

/** A planted secret: the whole text, and the part that identifies it. */
interface Planted {
  readonly text: string;
  readonly random: string;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

class Generator {
  private readonly next: () => number;
  readonly planted: Planted[] = [];
  constructor(seed: number) {
    this.next = prng(seed);
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)] as T;
  }
  chars(alphabet: string, length: number): string {
    let s = '';
    for (let i = 0; i < length; i++) s += alphabet[this.int(0, alphabet.length - 1)];
    // Random keys hold a digit (secret_scan's OpenAI detector asks for one); so do these.
    return s.replace(/.$/, String(this.int(0, 9)));
  }
  private plant(prefix: string, random: string, suffix = ''): string {
    this.planted.push({ text: `${prefix}${random}${suffix}`, random });
    return `${prefix}${random}${suffix}`;
  }
  /** An API key in one of the shapes secret_scan knows. */
  vendorKey(): string {
    const shape = this.int(0, 8);
    switch (shape) {
      case 0:
        return this.plant('sk-', this.chars(ALNUM, this.int(20, 48)));
      case 1:
        return this.plant('sk-proj-', this.chars(ALNUM, this.int(24, 60)));
      case 2:
        return this.plant('sk-ant-api03-', this.chars(ALNUM, this.int(24, 60)));
      case 3:
        return this.plant(this.pick(['AKIA', 'ASIA']), this.chars(UPPER_DIGITS, 16));
      case 4:
        return this.plant(this.pick(['ghp_', 'gho_', 'ghs_']), this.chars(ALNUM, 36));
      case 5:
        return this.plant(this.pick(['xoxb-', 'xoxp-']), `${this.chars('0123456789', 12)}-${this.chars(ALNUM, 24)}`);
      case 6:
        return this.plant('AIza', this.chars(ALNUM, 35));
      case 7:
        return this.plant(this.pick(['sk_live_', 'rk_test_']), this.chars(ALNUM, this.int(16, 32)));
      default:
        return this.plant(
          'eyJhbGciOiJIUzI1NiJ9.eyJ',
          `${this.chars(ALNUM, this.int(12, 30))}.${this.chars(ALNUM, this.int(16, 43))}`,
        );
    }
  }
  /** A value no detector knows (a password, a token of a private service): only the run's mask list can hide it. */
  plain(): string {
    return this.plant('', `${this.chars('abcdefghijklmnopqrstuvwxyz', 4)}-${this.chars(ALNUM, this.int(10, 24))}`);
  }
  /** `filler` characters, then `secret`, so that a cut at `cut` falls `into` characters inside it (0: just before). */
  straddle(secret: string, cut: number, word = 'x'): string {
    const into = this.int(0, secret.length);
    const fill = Math.max(0, cut - into - 1);
    return `${word.repeat(fill)} ${secret} tail`;
  }
}

/** Every file under `folder` (recursively), as text. */
function allFiles(folder: string): string {
  return readdirSync(folder)
    .map((name) => {
      const path = join(folder, name);
      return statSync(path).isDirectory() ? allFiles(path) : readFileSync(path, 'utf8');
    })
    .join('\n');
}

/** The planted secrets that show in `text`, by the 8-character rule. */
function leaks(text: string, planted: readonly Planted[]): string[] {
  const found: string[] = [];
  for (const p of planted) {
    for (let i = 0; i + 8 <= p.random.length; i++) {
      const piece = p.random.slice(i, i + 8);
      if (text.includes(piece)) {
        const at = text.indexOf(piece);
        found.push(`${p.text} ("${piece}" in …${text.slice(Math.max(0, at - 80), at + 40)}…)`);
        break;
      }
    }
  }
  return found;
}

function assertNoLeak(channel: string, text: string, planted: readonly Planted[]): void {
  const found = leaks(text, planted);
  assert.deepEqual(found, [], `${channel}: ${found.length} planted secret(s) show:\n${found.join('\n')}`);
}

let work = '';
let judge: FakeLlmServer;
let target: Server;
let targetUrl = '';
/** Per case id: what the HTTP target answers. */
const targetAnswers = new Map<string, { status: number; statusText: string; body: string }>();
/** Per case marker: what the judge answers. */
const judgeAnswers = new Map<string, ScriptedAnswer>();

before(async () => {
  ensureBuilt();
  ensureServerBuilt();
  work = mkdtempSync(join(tmpdir(), 'evallens-secret-channels-'));
  judge = await startFakeLlmServer((request: RecordedRequest) => {
    const marker = /case-marker-(\d+)-(\d+)/.exec(JSON.stringify(request.body))?.[0];
    return (
      (marker === undefined ? undefined : judgeAnswers.get(marker)) ?? {
        status: 400,
        body: '{"error":{"message":"no answer"}}',
      }
    );
  });
  target = createServer((req, res) => {
    const id = decodeURIComponent((req.url ?? '').split('/').pop() ?? '');
    const answer = targetAnswers.get(id) ?? { status: 500, statusText: 'unknown case', body: '' };
    req.resume();
    res.writeHead(answer.status, answer.statusText, { 'content-type': 'text/plain' });
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/t`;
});

after(async () => {
  await judge.close();
  await new Promise((resolve) => target.close(resolve));
  rmSync(work, { recursive: true, force: true });
});

/** A closed port on loopback: the database the config names refuses the connection. */
const CLOSED_PORT = 9;

/** One generated scenario: its folder, its environment, and what it planted. */
function scenario(seed: number): {
  dir: string;
  env: NodeJS.ProcessEnv;
  planted: readonly Planted[];
  badConfig: string;
  goodConfig: string;
} {
  const g = new Generator(seed);
  const dir = join(work, `seed-${seed}`);
  mkdirSync(dir, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    JUDGE_KEY: g.vendorKey(),
    TARGET_TOKEN: g.plain(),
    CONTAINS_VALUE: g.plain(),
    DB_PASSWORD: g.plain(),
    DB_USER: g.plain(),
    BAD_TIMEOUT: g.plain(),
    BAD_MODE: g.vendorKey(),
    // Read by no config: the subprocess scorer prints it; masked because its name says credential.
    SUBPROCESS_SERVICE_TOKEN: g.plain(),
    NO_COLOR: '1',
  };
  const urlUser = g.plain();
  const urlPassword = g.plain();
  const urlQuery = g.vendorKey();
  writeFileSync(
    join(dir, 'judge.yaml'),
    `provider: openai\nbase_url: ${judge.openAiBaseUrl}\nmodel: m\napi_key_env: JUDGE_KEY\ntimeout_ms: 20000\n`,
  );
  // user-info and a query in base_url: said nowhere.
  writeFileSync(
    join(dir, 'judge-url.yaml'),
    `provider: openai\nbase_url: "http://${urlUser}:${urlPassword}@127.0.0.1:${CLOSED_PORT}/v1?key=${urlQuery}"\nmodel: m\ntimeout_ms: 2000\nmax_attempts: 1\n`,
  );
  writeFileSync(
    join(dir, 'db.yaml'),
    `db_type: postgres\nhost: 127.0.0.1\nport: ${CLOSED_PORT}\nuser_name: "\${DB_USER}"\ndatabase_name: evallens_secret\npassword_env: DB_PASSWORD\n`,
  );
  // The subprocess scorer: stderr past the 500-character quote with a key across its start, stdout
  // that is not JSON or whose reason carries a key across the 500-character cut.
  const stderrKey = g.vendorKey();
  const stdoutKey = g.vendorKey();
  const reasonKey = g.vendorKey();
  const stderrText = `${g.straddle(stderrKey, 520, 'e')}${' z'.repeat(250)}`;
  writeFileSync(
    join(dir, 'scorer.mjs'),
    [
      "let input = '';",
      "process.stdin.on('data', (c) => (input += c));",
      "process.stdin.on('end', () => {",
      '  const id = JSON.parse(input).id;',
      `  process.stderr.write(${JSON.stringify(stderrText)} + ' ' + process.env.SUBPROCESS_SERVICE_TOKEN + '\\n');`,
      `  if (id.endsWith('0')) process.stdout.write(${JSON.stringify(`not json ${stdoutKey} `)} + process.env.SUBPROCESS_SERVICE_TOKEN);`,
      `  else process.stdout.write(JSON.stringify({ score: 0.2, reason: ${JSON.stringify(g.straddle(reasonKey, 500, 'r'))} }));`,
      '});',
      '',
    ].join('\n'),
  );
  const cases: object[] = [];
  for (let i = 0; i < 8; i++) {
    const id = `c${i}`;
    const marker = `case-marker-${seed}-${i}`;
    // Judge: an error body with a secret across the 200-character cut, or an answer echoing one: a
    // key of a known shape, the judge's own key, or a value the run read at load (a plain value the
    // run has not read could be anything: no rule can know it).
    const judgeSecret = g.pick([
      () => g.vendorKey(),
      () => env['JUDGE_KEY'] ?? '',
      () => env['CONTAINS_VALUE'] ?? '',
    ])();
    const message = g.straddle(judgeSecret, 200, 'j');
    judgeAnswers.set(
      marker,
      g.int(0, 2) === 0
        ? { text: `{"verdict": "PASS", "reasoning": "you sent ${env['JUDGE_KEY'] ?? ''} and ${judgeSecret}"}` }
        : { status: 400, body: JSON.stringify({ error: { message } }) },
    );
    // Outputs secret_scan flags, across the cuts of exact_match's and edit_similarity's details.
    const outputKey = g.vendorKey();
    const output = g.straddle(outputKey, g.pick([200, 500, 1000]), 'o');
    if (i % 3 === 2) {
      // No recorded output: the HTTP target is called; its status text or body carries a secret.
      const statusSecret = g.pick([() => g.vendorKey(), () => env['TARGET_TOKEN'] ?? ''])();
      targetAnswers.set(
        id,
        g.int(0, 1) === 0
          ? {
              status: 502,
              statusText: `Bad ${g.straddle(statusSecret, 100, 's').replace(/[^\x20-\x7e]/g, '')}`.slice(0, 400),
              body: '',
            }
          : { status: 200, statusText: 'OK', body: `answer ${statusSecret} ${g.vendorKey()}` },
      );
      cases.push({ id, input: `question ${marker}`, expected: 'nothing' });
    } else if (i === 7) {
      // A case on the database: the connection is refused; the password and user stay unsaid.
      cases.push({
        id,
        input: `question ${marker}`,
        output: 'SELECT 1',
        expected: { golden_sql: 'SELECT 1', database: 'evallens_secret', dialect: 'postgres' },
      });
    } else {
      cases.push({ id, input: `question ${marker}`, output, expected: 'nothing' });
    }
  }
  writeFileSync(join(dir, 'cases.jsonl'), `${cases.map((c) => JSON.stringify(c)).join('\n')}\n`);
  const goodConfig = [
    'dataset: cases.jsonl',
    'concurrency: 4',
    'database_configs: [db.yaml]',
    'target:',
    '  http:',
    `    url: "${targetUrl}/{{id}}"`,
    '    headers:',
    '      Authorization: "Bearer {{env.TARGET_TOKEN}}"',
    'scorers:',
    '  exact_match: {}',
    '  edit_similarity: {threshold: 0.9}',
    '  secret_scan: {}',
    '  contains: {value: "${CONTAINS_VALUE}"}',
    '  goal_completion: {model_config: judge.yaml}',
    '  behavioral_metrics: {model_config: judge-url.yaml}',
    '  subprocess:',
    `    cmd: "\\"${process.execPath}\\" scorer.mjs"`,
    '',
  ].join('\n');
  writeFileSync(join(dir, 'good.eval.yaml'), goodConfig);
  // Schema problems on values `${VAR}` brought in: the diagnostics must not quote them.
  const badConfig = [
    'cases: [{id: a, output: x, expected: x}]',
    'timeout_ms: "${BAD_TIMEOUT}"',
    'database_configs: [db-bad.yaml]',
    'scorers:',
    '  exact_match: {mode: "${BAD_MODE}"}',
    '',
  ].join('\n');
  writeFileSync(join(dir, 'bad.eval.yaml'), badConfig);
  writeFileSync(
    join(dir, 'db-bad.yaml'),
    'db_type: postgres\nhost: 127.0.0.1\nport: "${DB_PASSWORD}"\nuser_name: "${DB_USER}"\ndatabase_name: d\n',
  );
  return { dir, env, planted: g.planted, badConfig, goodConfig };
}

const SEEDS = [13, 4242, 90001];

describe('no planted secret in any channel (seeded property test through the built CLI and the language server)', () => {
  for (const seed of SEEDS) {
    it(`seed ${seed}: run, validate, plan and the server's diagnostics`, async () => {
      const { dir, env, planted, badConfig, goodConfig } = scenario(seed);
      const reports = join(dir, 'reports');
      const args = ['run', 'good.eval.yaml', '--reporter', 'console'];
      for (const format of ['json', 'jsonl', 'junit', 'csv'])
        args.push('--reporter', format, '--out', join(reports, `report.${format}`));
      const run = await runCli(args, { cwd: dir, env });
      assert.ok(run.code === 1 || run.code === 0, `run exited ${String(run.code)}: ${run.stderr}`);
      const written = allFiles(reports);
      // The scenario did reach each channel (a test that planted nothing would pass).
      assert.match(written, /HTTP 502|the judge answered HTTP 400|cannot reach the judge/);
      assert.match(written, /secret_scan/);
      assertNoLeak('run stdout', run.stdout, planted);
      assertNoLeak('run stderr', run.stderr, planted);
      assertNoLeak('reports', written, planted);
      assertNoLeak('run folder', allFiles(join(dir, '.evallens')), planted);

      for (const command of [
        ['validate', 'good.eval.yaml'],
        ['validate', 'bad.eval.yaml'],
        ['plan', 'good.eval.yaml'],
        ['plan', 'good.eval.yaml', '--json'],
        ['validate', '--cases', 'good.eval.yaml'],
      ]) {
        const result = await runCli(command, { cwd: dir, env });
        assertNoLeak(command.join(' '), result.stdout + result.stderr, planted);
      }
      const bad = await runCli(['validate', 'bad.eval.yaml'], { cwd: dir, env });
      assert.match(bad.stderr, /timeout_ms/, 'the bad config has its diagnostics');

      const saved = { ...process.env };
      Object.assign(process.env, env);
      try {
        await withServer(async (server) => {
          const badDiagnostics = await server.openAndWait(pathToFileURL(join(dir, 'bad.eval.yaml')).href, badConfig);
          assert.ok(badDiagnostics.diagnostics.length >= 2);
          const goodDiagnostics = await server.openAndWait(pathToFileURL(join(dir, 'good.eval.yaml')).href, goodConfig);
          const text = [...badDiagnostics.diagnostics, ...goodDiagnostics.diagnostics]
            .map((d) => `${messageOf(d)} ${JSON.stringify(d)}`)
            .join('\n');
          assertNoLeak('language server diagnostics', text, planted);
        });
      } finally {
        for (const key of Object.keys(env)) if (saved[key] === undefined) delete process.env[key];
      }
    });
  }
});
