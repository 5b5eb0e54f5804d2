import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { firstErrorLine, forkCli, MAX_STDERR_CHARS } from '../../extension/runner/forkCli';
import { fetchPlan } from '../../extension/runner/plan';
import { discoverCases } from '../../extension/testing/caseDiscovery';

// Stand-ins for the CLI bundle: small scripts that misbehave the ways a CLI's output could.
let work = '';
const script = (name: string, body: string): string => {
  const path = join(work, name);
  writeFileSync(path, body);
  return path;
};

before(() => {
  work = mkdtempSync(join(tmpdir(), 'evallens-fork-cli-'));
});
after(() => rmSync(work, { recursive: true, force: true }));

describe('forkCli: every CLI call of the extension is bounded', () => {
  it('reads stdout and stderr and the exit code of a CLI that behaves', async () => {
    const cli = script(
      'ok.js',
      "process.stdout.write('{\"a\":1}\\n'); process.stderr.write('evallens: a note\\n'); process.exitCode = 1;",
    );
    const exit = await forkCli(cli, [], { cwd: work, timeoutMs: 30_000, maxStdoutBytes: 1024 });
    assert.equal(exit.code, 1);
    assert.equal(exit.stdout.toString('utf8'), '{"a":1}\n');
    assert.equal(exit.stdoutCut, false);
    assert.equal(firstErrorLine(exit.stderr), 'a note');
  });

  it('kills a CLI whose stdout passes the limit, and says so', async () => {
    const cli = script(
      'flood.js',
      "const line = 'x'.repeat(1024) + '\\n'; (function out() { while (process.stdout.write(line)); process.stdout.once('drain', out); })();",
    );
    const exit = await forkCli(cli, [], { cwd: work, timeoutMs: 60_000, maxStdoutBytes: 256 * 1024 });
    assert.equal(exit.stdoutCut, true);
    assert.ok(exit.stdout.length <= 256 * 1024);
    assert.equal(exit.signal, 'SIGKILL');
  });

  it('keeps only the start of a flood on stderr', async () => {
    const cli = script(
      'noisy.js',
      "for (let i = 0; i < 20000; i++) process.stderr.write('evallens: line ' + i + '\\n');",
    );
    const exit = await forkCli(cli, [], { cwd: work, timeoutMs: 60_000, maxStdoutBytes: 0 });
    assert.equal(exit.code, 0);
    assert.equal(exit.stderr.length, MAX_STDERR_CHARS);
    assert.equal(firstErrorLine(exit.stderr), 'line 0');
  });

  it('stops a CLI that runs past its time limit', async () => {
    const cli = script('stuck.js', 'setInterval(() => {}, 1000);');
    const exit = await forkCli(cli, [], { cwd: work, timeoutMs: 300, maxStdoutBytes: 1024 });
    assert.equal(exit.code, null);
    assert.notEqual(exit.signal, null);
  });

  it('says why a CLI could not be started', async () => {
    const exit = await forkCli(join(work, 'missing.js'), [], {
      cwd: join(work, 'no-such-folder'),
      timeoutMs: 30_000,
      maxStdoutBytes: 1024,
    });
    assert.equal(exit.code, null);
    assert.match(exit.startError ?? '', /could not be started/);
  });

  it('the plan and the case lists are read bounded too (they were read whole, however long)', async () => {
    const flood = script(
      'flood-lines.js',
      "const line = '{' + ' '.repeat(4096) + '\\n'; (function out() { while (process.stdout.write(line)); process.stdout.once('drain', out); })();",
    );
    const plan = await fetchPlan(flood, { configFile: join(work, 'a.eval.yaml'), caseIds: [] }, work, 120_000);
    assert.deepEqual(plan, { ok: false, reason: `the plan is longer than ${16 * 1024 * 1024} bytes` });
    const [listed] = await discoverCases(flood, [join(work, 'a.eval.yaml')], work, 120_000);
    assert.equal(listed?.cases.length, 0);
    assert.equal(listed?.problem, 'the list of cases is longer than 256 MB');
  });
});
