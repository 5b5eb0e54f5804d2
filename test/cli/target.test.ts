import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LoopbackServer } from '../core/target/loopbackServer';
import { ensureBuilt, ROOT, runCli } from '../support/cli';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'target');
const KEY = 'sk-cli-test-9c3e71d2a04b';

interface Report {
  readonly summary: {
    readonly passed: number;
    readonly failed: number;
    readonly errored: number;
    readonly skipped: number;
    readonly total: number;
  };
  readonly results: readonly {
    readonly caseId: string;
    readonly scorer: string;
    readonly status: string;
    readonly score?: number;
    readonly reason: string;
  }[];
}

let work = '';
let server: LoopbackServer;

before(async () => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'evallens-cli-target-'));
  cpSync(join(ROOT, 'examples', 'target'), join(work, 'examples', 'target'), { recursive: true });
  server = await LoopbackServer.start();
});

after(async () => {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
});

const env = () => ({ TARGET_NODE: process.execPath, TARGET_URL: server.url, TARGET_KEY: KEY });

/** Every file under a folder, as text: to show a secret is written nowhere. */
function allText(dir: string): string {
  return readdirSync(dir)
    .map((name) => join(dir, name))
    .map((path) => (statSync(path).isDirectory() ? allText(path) : readFileSync(path, 'utf8')))
    .join('\n');
}

describe('evallens run with a target', () => {
  it('runs the example: the agent produces every output and all three cases pass', async () => {
    const run = await runCli(
      [
        'run',
        'examples/target/agent.eval.yaml',
        '--runs-dir',
        'runs-example',
        '--reporter',
        'json',
        '--out',
        'example.json',
      ],
      { cwd: work },
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const report = JSON.parse(readFileSync(join(work, 'example.json'), 'utf8')) as Report;
    assert.deepEqual(report.summary, { passed: 3, failed: 0, errored: 0, skipped: 0, total: 3 });
    assert.deepEqual([...new Set(report.results.map((r) => `${r.scorer}:${r.status}`))].sort(), [
      'end_to_end_latency:measured',
      'exact_match:pass',
      'trajectory:pass',
    ]);
  });

  it('makes a crashing and a hanging command errors with their reasons, and passes the rest', async () => {
    const run = await runCli(
      ['run', join(FIXTURES, 'cmd.eval.yaml'), '--runs-dir', 'runs-cmd', '--reporter', 'json', '--out', 'cmd.json'],
      { cwd: work, env: env() },
    );
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const report = JSON.parse(readFileSync(join(work, 'cmd.json'), 'utf8')) as Report;
    assert.deepEqual(report.results.map((r) => [r.caseId, r.status, r.reason]).sort(), [
      ['crash', 'error', 'the target command exited with code 3; stderr: "boom: the model is unavailable"'],
      ['hang', 'error', 'the target did not answer within its time limit of 4000 ms and was stopped'],
      ['ok-text', 'pass', report.results.find((r) => r.caseId === 'ok-text')?.reason ?? ''],
    ]);
  });

  it('calls an HTTP target with the key from the environment, and writes the key nowhere', async () => {
    server.requests.length = 0;
    const run = await runCli(
      ['run', join(FIXTURES, 'http.eval.yaml'), '--runs-dir', 'runs-http', '--reporter', 'json', '--out', 'http.json'],
      { cwd: work, env: env() },
    );
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const report = JSON.parse(readFileSync(join(work, 'http.json'), 'utf8')) as Report;
    assert.deepEqual(report.results.map((r) => [r.caseId, r.status]).sort(), [
      ['upper', 'pass'],
      ['wrong', 'fail'],
    ]);
    const seen = server.requests.map((r) => ({
      authorization: r.headers['authorization'],
      body: JSON.parse(r.body) as { case: string },
    }));
    assert.deepEqual(
      seen.sort((a, b) => (a.body.case < b.body.case ? -1 : 1)),
      [
        { authorization: `Bearer ${KEY}`, body: { prompt: 'hello', case: 'upper' } },
        { authorization: `Bearer ${KEY}`, body: { prompt: 'bye', case: 'wrong' } },
      ],
    );
    for (const text of [
      run.stdout,
      run.stderr,
      readFileSync(join(work, 'http.json'), 'utf8'),
      allText(join(work, 'runs-http')),
    ])
      assert.equal(text.includes(KEY), false);
  });

  it('with --untrusted, starts no command and opens no connection: every case is skipped', async () => {
    const marker = join(work, 'untrusted-marker');
    const connections = server.connections;
    for (const config of ['cmd.eval.yaml']) {
      const run = await runCli(
        [
          'run',
          join(FIXTURES, config),
          '--untrusted',
          '--runs-dir',
          'runs-untrusted',
          '--reporter',
          'json',
          '--out',
          'untrusted.json',
        ],
        {
          cwd: work,
          env: { ...env(), TARGET_MARKER: marker },
        },
      );
      // Nothing scored is not a pass (exit 3), and the console says it is the trust.
      assert.equal(run.code, 3, run.stdout + run.stderr);
      assert.match(run.stdout, /^The workspace is not trusted/m);
      const report = JSON.parse(readFileSync(join(work, 'untrusted.json'), 'utf8')) as Report;
      assert.equal(report.summary.skipped, report.summary.total, config);
      for (const r of report.results) assert.deepEqual([r.status, r.reason], ['skipped', 'workspace is not trusted']);
    }
    // http.eval.yaml's url is `${TARGET_URL}/chat`: an untrusted run does not read it, and says so where it is.
    const http = await runCli(
      ['run', join(FIXTURES, 'http.eval.yaml'), '--untrusted', '--runs-dir', 'runs-untrusted'],
      { cwd: work, env: env() },
    );
    assert.equal(http.code, 2, http.stdout + http.stderr);
    assert.match(
      http.stderr,
      /http\.eval\.yaml:7:10: error: `\$\{TARGET_URL\}` was not read: the workspace is not trusted/,
    );
    assert.equal(existsSync(marker), false, 'the command target never ran');
    assert.equal(server.connections, connections, 'the HTTP target was never called');
  });
});
