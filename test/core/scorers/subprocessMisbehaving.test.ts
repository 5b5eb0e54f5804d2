import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { ScorerResult } from '../../../core/result';
import { casesYaml, removeTempDirs, runInTemp, SCRIPTS } from '../../fixtures/scorers/runInTemp';

after(removeTempDirs);

/** One case per misbehaviour, with passing cases between them. */
const BEHAVIOURS = ['ok', 'crash', 'ok', 'hang', 'ok', 'garbage', 'ok', 'huge', 'ok', 'score3', 'ok'];

const LANGUAGES = [
  { language: 'Python', run: (script: string) => `python3 ${SCRIPTS}/${script}.py` },
  { language: 'Node', run: (script: string) => `node ${SCRIPTS}/${script}.mjs` },
];

function text(result: ScorerResult | undefined): string {
  return `${result?.reason ?? ''} ${String(result?.details?.['stderr'] ?? '')}`;
}

describe('subprocess, one process per case, with scripts that misbehave on purpose (in a run)', () => {
  for (const { language, run } of LANGUAGES) {
    it(`${language}: each misbehaviour fails its own case with its reason; the other cases pass`, async () => {
      const { results, byCase } = await runInTemp(
        `scorers:\n  subprocess: {cmd: "${run('evalcore_case')}", cmd_timeout_ms: 6000}\n${casesYaml(BEHAVIOURS)}`,
        { concurrency: 2 },
      );
      assert.equal(results.length, BEHAVIOURS.length);
      for (const result of results.filter((r) => r.caseId.startsWith('ok-'))) {
        assert.deepEqual([result.status, result.score], ['pass', 1], `${result.caseId}: ${result.reason}`);
        assert.match(result.reason, /^ok from pid \d+$/u);
      }
      const failed = (id: string) => {
        const result = byCase.get(id);
        assert.deepEqual([result?.status, result?.score], ['fail', 0], `${id}: ${String(result?.reason)}`);
        return result;
      };
      const crash = failed('crash-1');
      assert.match(crash?.reason ?? '', /^scorer error: the command exited with code 1; stderr: "/u);
      assert.match(text(crash), /boom on purpose/u);
      assert.equal(
        failed('hang-3')?.reason,
        'scorer error: the command did not finish within 6000 ms (cmd_timeout_ms) and was stopped',
      );
      assert.match(failed('garbage-5')?.reason ?? '', /^scorer error: the command's stdout is not valid JSON/u);
      assert.equal(failed('huge-7')?.reason, 'scorer error: the command wrote more than 1048576 bytes to stdout');
      assert.equal(failed('score3-9')?.reason, "scorer error: the command's score 3 is outside [0, 1]");
    });

    it(`${language}: a command that exits without reading its stdin fails with its reason, beside a scorer that passes`, async () => {
      const big = 'x'.repeat(200_000);
      const yaml =
        `scorers:\n  - {type: subprocess, name: main, cmd: "${run('evalcore_case')}"}\n  - {type: subprocess, name: quits, cmd: "${run('no_stdin')}"}\n` +
        `cases:\n  - {id: small, input: ok, output: "o"}\n  - {id: big, input: ok, output: "${big}"}\n`;
      const { results } = await runInTemp(yaml);
      assert.equal(results.length, 4);
      for (const result of results) {
        if (result.scorer === 'main') assert.equal(result.status, 'pass', `${result.caseId}: ${result.reason}`);
        else
          assert.deepEqual(
            [result.status, result.score, result.reason],
            ['fail', 0, 'scorer error: the command printed nothing on stdout; it must print {"score": <0..1>}'],
          );
      }
    });
  }
});
