import { fail } from '../../result';
import { JsonLinesProcess } from '../support/processJsonLines';
import { ProcessPool } from '../support/processPool';
import type { RunLimit } from '../support/processRun';
import { stderrDetails } from '../support/processText';
import type { Scorer } from '../scorer';
import { answerVerdict, scorerError } from './subprocessAnswer';
import { payload } from './subprocessPayload';

const NOUN = 'the scorer process';

/**
 * `subprocess` with `mode: persistent`: a pool of `size` processes, each started once with
 * `sh -c <cmd>` from the config's folder and serving many cases over JSON lines. The request is the
 * per-case stdin object with `"id"` first (`{"id":7,"expected":…,"input":…,"output":…}`), one line;
 * the response is the per-case answer with the same id (`{"id":7,"score":1}`), one line. The pool
 * starts with the first case, never at config load, and `close` (called by the runner when the run
 * ends) ends every process.
 */
export function persistentScorer(cmd: string, configDir: string, size: number, limit: RunLimit): Scorer {
  const pool = new ProcessPool(() => new JsonLinesProcess({ shell: cmd }, configDir, NOUN), size);
  return {
    async score(input, signal) {
      if (input.output === undefined) return fail('the case has no output');
      const body = payload(input);
      const answer = await pool.send((id) => `{"id":${id},${body.slice(1)}`, limit, signal);
      if (!answer.ok) {
        const stderr = stderrDetails(answer.stderr);
        return scorerError(
          answer.reason,
          answer.details === undefined && stderr === undefined ? undefined : { ...answer.details, ...stderr },
        );
      }
      return answerVerdict(answer.answer, NOUN, stderrDetails(answer.stderr));
    },
    close: () => pool.close(),
  };
}
