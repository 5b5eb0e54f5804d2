import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { EvalCase, Json } from '../../../core/case';
import type { ScorerVerdict } from '../../../core/result';
import { parseRunConfig } from '../../../core/config/parseRunConfig';
import { isGone } from '../../support/processes';
import { ScorerRegistry } from '../../../core/scorers/registry';
import { caseRecords } from '../../../core/runner/records';
import { runEval } from '../../../core/runner/run';
import type { RunEvent } from '../../../core/runner/events';
import { subprocess } from '../../../core/scorers/builtin/subprocess';
import { OptionsValidators } from '../../../core/scorers/optionsValidator';
import { schemaErrors, score } from '../../support/scoring';
import { waitFor } from '../../support/waitFor';
import { createEngineContext } from '../../../core/engineContext';

const validators = new OptionsValidators();
const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'evallens-subprocess-'));
  dirs.push(dir);
  return dir;
}

/** Builds the scorer for `configDir` and scores one case with the given signal. */
async function run(
  options: { [key: string]: Json },
  testCase: Omit<EvalCase, 'id'>,
  configDir = process.cwd(),
  signal = new AbortController().signal,
): Promise<ScorerVerdict> {
  const copy = structuredClone(options);
  assert.deepEqual(validators.validate(subprocess, copy), []);
  const made = subprocess.create(copy, {
    engine: createEngineContext(),
    configDir,
    timeoutMs: typeof copy['timeout_ms'] === 'number' ? copy['timeout_ms'] : 30_000,
    env: {},
  });
  if (!made.ok) assert.fail('refused');
  const evalCase: EvalCase = { id: 'c', ...testCase };
  return made.scorer.score({ case: evalCase, output: evalCase.output, expected: evalCase.expected }, signal);
}

/** A node one-liner that prints the given JS expression (evaluated with `d` = the parsed stdin) as JSON. */
function nodeCmd(expression: string): string {
  return `node -e 'const d=JSON.parse(require("fs").readFileSync(0,"utf8")); process.stdout.write(JSON.stringify(${expression}))'`;
}

describe('subprocess', () => {
  it('sends compact JSON with alphabetical keys on stdin: expected, input, output', async () => {
    const dir = tempDir();
    const file = join(dir, 'stdin.json');
    const v = await run(
      { cmd: `cat > stdin.json; echo '{"score": 1}'` },
      { input: 'q', output: 'Refunds within 30 days', expected: { b: 1, a: [true, null] } },
      dir,
    );
    assert.equal(v.status, 'pass');
    assert.equal(
      readFileSync(file, 'utf8'),
      '{"expected":{"a":[true,null],"b":1},"input":"q","output":"Refunds within 30 days"}',
    );
  });

  it('sends expected as null when the case has none, and context only when the case has one', async () => {
    const dir = tempDir();
    await run({ cmd: `cat > a.json; echo '{"score": 1}'` }, { input: 'q', output: 'o' }, dir);
    assert.equal(readFileSync(join(dir, 'a.json'), 'utf8'), '{"expected":null,"input":"q","output":"o"}');
    await run(
      { cmd: `cat > b.json; echo '{"score": 1}'` },
      { input: 'q', output: 'o', expected: 'e', context: ['doc one', 'doc two'] },
      dir,
    );
    assert.equal(
      readFileSync(join(dir, 'b.json'), 'utf8'),
      '{"context":["doc one","doc two"],"expected":"e","input":"q","output":"o"}',
    );
  });

  it('sends a non-string input or output as its compact JSON text with sorted keys', async () => {
    const dir = tempDir();
    await run(
      { cmd: `cat > c.json; echo '{"score": 1}'` },
      { input: { z: 1, a: 'x' }, output: [1, { y: 2, b: 3 }] },
      dir,
    );
    assert.equal(
      readFileSync(join(dir, 'c.json'), 'utf8'),
      '{"expected":null,"input":"{\\"a\\":\\"x\\",\\"z\\":1}","output":"[1,{\\"b\\":3,\\"y\\":2}]"}',
    );
  });

  it('echoes the stdin back through a node scorer (the protocol end to end)', async () => {
    const v = await run(
      { cmd: nodeCmd('{score: 1, reason: JSON.stringify(d)}') },
      { input: 'q', output: 'o', expected: 'e' },
    );
    assert.equal(v.reason, '{"expected":"e","input":"q","output":"o"}');
  });

  it('passes by default when score >= 0.5, and fails below', async () => {
    const high = await run({ cmd: `echo '{"score": 0.5}'` }, { output: 'o' });
    assert.equal(high.status, 'pass');
    assert.equal(high.score, 0.5);
    const low = await run({ cmd: `echo '{"score": 0.49}'` }, { output: 'o' });
    assert.equal(low.status, 'fail');
    assert.equal(low.score, 0.49);
  });

  it('lets an explicit passed override the default, both ways', async () => {
    const v1 = await run({ cmd: `echo '{"score": 0.2, "passed": true}'` }, { output: 'o' });
    assert.equal(v1.status, 'pass');
    assert.equal(v1.score, 0.2);
    const v2 = await run({ cmd: `echo '{"score": 0.9, "passed": false}'` }, { output: 'o' });
    assert.equal(v2.status, 'fail');
    assert.equal(v2.score, 0.9);
  });

  it("shows the script's reason verbatim, truncated at 500 characters, and ignores unknown keys", async () => {
    const v = await run(
      { cmd: `echo '{"score": 0, "reason": "0/4 expected keywords grounded", "extra": [1]}'` },
      { output: 'o' },
    );
    assert.equal(v.status, 'fail');
    assert.equal(v.reason, '0/4 expected keywords grounded');
    const long = await run({ cmd: nodeCmd('{score: 1, reason: "r".repeat(800)}') }, { output: 'o' });
    assert.ok(long.reason.startsWith('r'.repeat(500) + '…'));
    assert.match(long.reason, /300 more characters/);
  });

  it('reads the first python example of the docs (python3 from the config folder)', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'scorers'));
    writeFileSync(
      join(dir, 'scorers', 'x.py'),
      'import sys, json\nd = json.load(sys.stdin)\nok = d["expected"].lower() in d["output"].lower()\nprint(json.dumps({"score": 1.0 if ok else 0.0, "reason": "checked"}))\n',
    );
    const v = await run(
      { cmd: 'python3 scorers/x.py' },
      { input: 'q', output: 'Refunds within 30 days', expected: 'refunds within 30 days' },
      dir,
    );
    assert.equal(v.status, 'pass');
    assert.equal(v.score, 1);
  });

  it("runs the command from the config's folder", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'scorers'));
    writeFileSync(
      join(dir, 'scorers', 'here.sh'),
      'cat >/dev/null; printf \'{"score": 1, "reason": "%s"}\' "$(pwd)"\n',
    );
    const v = await run({ cmd: 'sh scorers/here.sh' }, { output: 'o' }, dir);
    assert.equal(v.status, 'pass');
    assert.equal(v.reason, dir);
  });

  it('fails a score above 1 (no clamping)', async () => {
    const v = await run({ cmd: `echo '{"score": 1.5}'` }, { output: 'o' });
    assert.deepEqual([v.status, v.score], ['fail', 0]);
    assert.match(v.reason, /^scorer error: .*1\.5 is outside \[0, 1\]/);
  });

  it('fails a negative score', async () => {
    const v = await run({ cmd: `echo '{"score": -0.1, "passed": true}'` }, { output: 'o' });
    assert.deepEqual([v.status, v.score], ['fail', 0]);
    assert.match(v.reason, /^scorer error: /);
  });

  it('fails malformed JSON', async () => {
    const v = await run({ cmd: `echo 'score: 1'` }, { output: 'o' });
    assert.deepEqual([v.status, v.score], ['fail', 0]);
    assert.match(v.reason, /^scorer error: the command's stdout is not valid JSON/);
  });

  it('fails empty stdout', async () => {
    const v = await run({ cmd: 'true' }, { output: 'o' });
    assert.deepEqual([v.status, v.score], ['fail', 0]);
    assert.match(v.reason, /^scorer error: the command printed nothing/);
  });

  it('fails JSON that is not an object', async () => {
    const v = await run({ cmd: 'echo 1' }, { output: 'o' });
    assert.match(v.reason, /^scorer error: .*not an object/);
  });

  it('fails a missing score', async () => {
    const v = await run({ cmd: `echo '{"passed": true}'` }, { output: 'o' });
    assert.deepEqual([v.status, v.score], ['fail', 0]);
    assert.match(v.reason, /^scorer error: the command's JSON has no "score"/);
  });

  it('fails a non-numeric score', async () => {
    const v = await run({ cmd: `echo '{"score": "1"}'` }, { output: 'o' });
    assert.match(v.reason, /^scorer error: the command's "score" is string, not a number/);
  });

  it('fails a passed that is not a boolean', async () => {
    const v = await run({ cmd: `echo '{"score": 1, "passed": "yes"}'` }, { output: 'o' });
    assert.deepEqual([v.status, v.score], ['fail', 0]);
    assert.match(v.reason, /^scorer error: the command's "passed" is string, not a boolean/);
  });

  it('fails a non-zero exit, quoting stderr', async () => {
    const v = await run({ cmd: `echo '{"score": 1}'; echo 'Traceback: boom' >&2; exit 3` }, { output: 'o' });
    assert.deepEqual([v.status, v.score], ['fail', 0]);
    assert.equal(v.reason, 'scorer error: the command exited with code 3; stderr: "Traceback: boom"');
    assert.deepEqual(v.details, { stderr: 'Traceback: boom' });
  });

  it('truncates quoted stderr at 500 characters and keeps its tail in details', async () => {
    const v = await run(
      { cmd: `node -e 'process.stderr.write("a".repeat(700) + "END"); process.exit(1)'` },
      { output: 'o' },
    );
    assert.ok(
      v.reason.startsWith(
        `scorer error: the command exited with code 1; stderr: "${'a'.repeat(500)}… (203 more characters)"`,
      ),
    );
    assert.equal(v.details?.['stderr'], `…${'a'.repeat(497)}END`);
  });

  it('fails a crash: a command that cannot be found', async () => {
    const v = await run({ cmd: 'definitely-not-a-command-evallens' }, { output: 'o' });
    assert.deepEqual([v.status, v.score], ['fail', 0]);
    assert.match(v.reason, /^scorer error: the command exited with code 127; stderr: ".*not found/);
  });

  it('fails a spawn error (the config folder does not exist)', async () => {
    const v = await run({ cmd: `echo '{"score": 1}'` }, { output: 'o' }, join(tempDir(), 'missing'));
    assert.deepEqual([v.status, v.score], ['fail', 0]);
    assert.match(v.reason, /^scorer error: the command could not be started/);
  });

  it('fails a command killed by a signal', async () => {
    const v = await run({ cmd: 'kill -9 $$' }, { output: 'o' });
    assert.match(v.reason, /^scorer error: the command was killed by SIGKILL/);
  });

  it('fails a command that writes more than 1 MiB to stdout', async () => {
    const v = await run({ cmd: `node -e 'process.stdout.write("x".repeat(2 * 1024 * 1024))'` }, { output: 'o' });
    assert.match(v.reason, /^scorer error: the command wrote more than 1048576 bytes to stdout/);
  });

  it('does not mind a command that never reads its stdin', async () => {
    const v = await run({ cmd: `echo '{"score": 1}'` }, { output: 'x'.repeat(300_000) });
    assert.equal(v.status, 'pass');
  });

  it('fails a command that hangs past cmd_timeout_ms', async () => {
    const v = await run({ cmd: 'sleep 60', cmd_timeout_ms: 200 }, { output: 'o' });
    assert.deepEqual([v.status, v.score], ['fail', 0]);
    assert.equal(v.reason, 'scorer error: the command did not finish within 200 ms (cmd_timeout_ms) and was stopped');
  });

  it('ends a hanging command on the abort signal, with the child of sh -c', async () => {
    const dir = tempDir();
    const controller = new AbortController();
    const pending = run({ cmd: 'sleep 60 & echo $! > child.pid; wait' }, { output: 'o' }, dir, controller.signal);
    const pidFile = join(dir, 'child.pid');
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', 'the child pid', 10_000);
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    assert.equal(isGone(pid), false);
    controller.abort();
    const v = await pending;
    assert.deepEqual([v.status, v.score], ['fail', 0]);
    assert.match(v.reason, /^scorer error: the run stopped the command/);
    await waitFor(() => isGone(pid), 'the child to die', 10_000);
  });

  it('ends the children a command leaves behind when it exits', async () => {
    const dir = tempDir();
    const v = await run(
      { cmd: `sleep 60 >/dev/null 2>&1 & echo $! > left.pid; echo '{"score": 1}'` },
      { output: 'o' },
      dir,
    );
    assert.equal(v.status, 'pass');
    const pid = Number(readFileSync(join(dir, 'left.pid'), 'utf8').trim());
    await waitFor(() => isGone(pid), 'the left-behind child to die', 10_000);
  });

  it('answers at once when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const v = await run({ cmd: 'sleep 60' }, { output: 'o' }, process.cwd(), controller.signal);
    assert.match(v.reason, /^scorer error: /);
  });

  it('works through the shared scoring helper (schema defaults filled in)', async () => {
    const v = await score(subprocess, { cmd: `echo '{"score": 0.75, "reason": "ok"}'` }, { output: 'o' });
    assert.deepEqual([v.status, v.score, v.reason], ['pass', 0.75, 'ok']);
  });

  it('requires a non-blank cmd and a positive integer cmd_timeout_ms', () => {
    assert.notDeepEqual(schemaErrors(subprocess, {}), []);
    assert.notDeepEqual(schemaErrors(subprocess, { cmd: '' }), []);
    assert.notDeepEqual(schemaErrors(subprocess, { cmd: '   ' }), []);
    assert.notDeepEqual(schemaErrors(subprocess, { cmd: 'x', cmd_timeout_ms: 0 }), []);
    assert.deepEqual(schemaErrors(subprocess, { cmd: 'x', cmd_timeout_ms: 5000, timeout_ms: 10000 }), []);
  });
});

describe('subprocess in a run', () => {
  it("fails a hanging command by default, just before the runner would answer timeout (EvalCore's rule)", async () => {
    const parsed = parseRunConfig(
      'scorers:\n  subprocess: {cmd: "sleep 60", timeout_ms: 400}\ncases:\n  - {id: a, output: "o"}\n',
      join(process.cwd(), 'x.eval.yaml'),
      {},
      { registry: new ScorerRegistry([subprocess]) },
    );
    assert.deepEqual(parsed.problems, []);
    assert.ok(parsed.config);
    const events: RunEvent[] = [];
    await runEval(parsed.config, caseRecords(parsed.config), { runId: 'r', onEvent: (e) => events.push(e) });
    const result = events.flatMap((e) => (e.type === 'result' ? [e.result] : []))[0];
    assert.equal(result?.status, 'fail');
    assert.equal(result?.score, 0);
    assert.match(
      result?.reason ?? '',
      /^scorer error: the command did not finish within 360 ms \(just under the scorer's time limit\)/,
    );
  });
});
