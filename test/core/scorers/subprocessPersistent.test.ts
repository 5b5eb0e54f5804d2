import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import type { ScorerResult } from '../../../core/result';
import {
  casesYaml,
  isDead,
  load,
  pidIn,
  removeTempDirs,
  runInTemp,
  SCRIPTS,
  tempDir,
} from '../../fixtures/scorers/runInTemp';
import { waitFor } from '../../support/waitFor';

after(removeTempDirs);

/** Each misbehaviour between two passing cases, so the case after it shows whether the process was replaced. */
const BEHAVIOURS = [
  'ok',
  'crash',
  'ok',
  'exit-unread',
  'ok',
  'hang',
  'ok',
  'garbage',
  'ok',
  'huge',
  'ok',
  'wrong-id',
  'ok',
  'score3',
  'ok',
];

const LANGUAGES = [
  { language: 'Python', server: `python3 ${SCRIPTS}/evalcore_server.py`, quits: `python3 ${SCRIPTS}/no_stdin.py` },
  { language: 'Node', server: `node ${SCRIPTS}/evalcore_server.mjs`, quits: `node ${SCRIPTS}/no_stdin.mjs` },
];

const RESTARTS = 'it was stopped and a new one takes the next case';

describe('subprocess, mode: persistent, with scripts that misbehave on purpose (in a run)', () => {
  for (const { language, server, quits } of LANGUAGES) {
    it(`${language}: each misbehaviour fails its own case with its reason, the process is replaced, the other cases pass`, async () => {
      const { results } = await runInTemp(
        `scorers:\n  subprocess: {cmd: "${server}", mode: persistent, processes: 1, cmd_timeout_ms: 6000}\n${casesYaml(BEHAVIOURS)}`,
      );
      assert.equal(results.length, BEHAVIOURS.length);
      const ordered = BEHAVIOURS.map((_, i) => results.find((r) => r.caseId.endsWith(`-${i}`)));
      const pids: number[] = [];
      for (const [i, result] of ordered.entries()) {
        if (BEHAVIOURS[i] !== 'ok') continue;
        assert.deepEqual(
          [result?.status, result?.score],
          ['pass', 1],
          `${String(result?.caseId)}: ${String(result?.reason)}`,
        );
        pids.push(pidIn(result?.reason));
      }
      const reasonOf = (i: number) => {
        const result: ScorerResult | undefined = ordered[i];
        assert.deepEqual(
          [result?.status, result?.score],
          ['fail', 0],
          `${BEHAVIOURS[i] ?? ''}: ${String(result?.reason)}`,
        );
        return result?.reason ?? '';
      };
      assert.match(
        reasonOf(1),
        /^scorer error: the scorer process exited with code 1 while scoring this case; stderr: "[^]*boom on purpose[^]*"; a new one takes the next case$/u,
      );
      assert.equal(
        reasonOf(3),
        'scorer error: the scorer process exited with code 0 while scoring this case and wrote nothing to stderr; a new one takes the next case',
      );
      assert.equal(
        reasonOf(5),
        `scorer error: the scorer process did not answer within 6000 ms (cmd_timeout_ms); ${RESTARTS}`,
      );
      assert.equal(
        reasonOf(7),
        `scorer error: the scorer process printed a line on stdout that is not JSON (16 characters; stdout carries only responses, one JSON object per line; write logs to stderr); ${RESTARTS}`,
      );
      assert.equal(ordered[7]?.details?.['stdout_line'], 'this is not json');
      assert.equal(
        reasonOf(9),
        `scorer error: the scorer process printed a line longer than 1048576 bytes on stdout; ${RESTARTS}`,
      );
      assert.match(
        reasonOf(11),
        new RegExp(
          `^scorer error: the scorer process answered id \\d+, but the case in flight has id \\d+; ${RESTARTS}$`,
          'u',
        ),
      );
      assert.equal(reasonOf(13), "scorer error: the scorer process's score 3 is outside [0, 1]");
      // A new process after each of the six misbehaviours that end one; the same one after a bad score.
      const [first, ...rest] = pids;
      assert.equal(new Set(pids.slice(0, 7)).size, 7, `a new process after each failure: ${pids.join(', ')}`);
      assert.equal(rest[5], rest[6], 'a bad score is an answer: the process goes on');
      assert.ok(first !== undefined);
      // The run ended every process it started.
      for (const pid of pids) await waitFor(() => isDead(pid), `process ${pid} to end with the run`, 10_000);
    });

    it(`${language}: a process that exits at once without reading its stdin fails every case it is given, beside a scorer that passes`, async () => {
      const yaml = `scorers:\n  - {type: subprocess, name: main, cmd: "${server}", mode: persistent, processes: 1}\n  - {type: subprocess, name: quits, cmd: "${quits}", mode: persistent, processes: 1}\n${casesYaml(['ok', 'ok'])}`;
      const { results } = await runInTemp(yaml);
      assert.equal(results.length, 4);
      for (const result of results) {
        if (result.scorer === 'main') assert.equal(result.status, 'pass', `${result.caseId}: ${result.reason}`);
        else
          assert.deepEqual(
            [result.status, result.reason],
            [
              'fail',
              'scorer error: the scorer process exited with code 0 while scoring this case and wrote nothing to stderr; a new one takes the next case',
            ],
          );
      }
    });
  }

  it('serves many cases from a pool of at most `processes` processes, shared by the workers', async () => {
    const inputs = Array.from({ length: 40 }, () => 'ok');
    const { results } = await runInTemp(
      `scorers:\n  subprocess: {cmd: "python3 ${SCRIPTS}/evalcore_server.py", mode: persistent, processes: 2}\n${casesYaml(inputs)}`,
      { concurrency: 4 },
    );
    assert.equal(results.length, 40);
    assert.ok(results.every((r) => r.status === 'pass'));
    const pids = new Set(results.map((r) => pidIn(r.reason)));
    assert.ok(pids.size >= 1 && pids.size <= 2, `pids: ${[...pids].join(', ')}`);
    for (const pid of pids) await waitFor(() => isDead(pid), `process ${pid} to end with the run`, 10_000);
  });

  it('starts nothing when the config loads; the first case starts the pool', async () => {
    const dir = tempDir();
    const yaml = `scorers:\n  subprocess: {cmd: "touch started.$$; exec python3 ${SCRIPTS}/evalcore_server.py", mode: persistent, processes: 1}\n${casesYaml(['ok', 'ok', 'ok'])}`;
    const { problems } = load(yaml, dir);
    assert.deepEqual(problems, []);
    const started = () => readdirSync(dir).filter((name) => name.startsWith('started.'));
    assert.deepEqual(started(), []);
    const { results } = await runInTemp(yaml, { dir });
    assert.ok(results.every((r) => r.status === 'pass'));
    assert.equal(started().length, 1, 'one process served the three cases');
  });

  it("answers `timeout` when the runner's limit comes first, and the next case gets a new process", async () => {
    const { results } = await runInTemp(
      `scorers:\n  subprocess: {cmd: "python3 ${SCRIPTS}/evalcore_server.py", mode: persistent, processes: 1, cmd_timeout_ms: 60000, timeout_ms: 3000}\n${casesYaml(['ok', 'hang', 'ok'])}`,
    );
    const [before, hang, afterHang] = ['ok-0', 'hang-1', 'ok-2'].map((id) => results.find((r) => r.caseId === id));
    assert.equal(hang?.status, 'timeout');
    assert.equal(before?.status, 'pass');
    assert.equal(afterHang?.status, 'pass');
    assert.notEqual(pidIn(before?.reason), pidIn(afterHang?.reason));
  });

  it('refuses `processes` without `mode: persistent`, on the option', () => {
    const { problems } = load(`scorers:\n  subprocess: {cmd: "true", processes: 2}\ncases:\n  - {id: a, output: o}\n`);
    assert.equal(problems.length, 1);
    assert.equal(problems[0]?.code, 'invalid-option');
    assert.match(problems[0]?.message ?? '', /`processes` sizes the pool of `mode: persistent`/u);
  });
});
