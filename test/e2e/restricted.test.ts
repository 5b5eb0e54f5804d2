/**
 * The packaged extension in Restricted Mode: workspace trust stays on and the person answers the
 * trust dialog "No". Configs are still checked; evaluations that would run workspace code are not.
 * One code-server and one browser for the checks of this file, in the order written.
 * Needs `bash scripts/e2e-setup.sh` once; fails saying so otherwise. Screenshots: test/e2e/artifacts/.
 */
import { after, before, describe, it } from 'node:test';
import { unknownScorerIsMarked } from './checks/diagnostics';
import { restrictedModeDialog, subprocessScorerSkipped } from './checks/restrictedMode';
import { endSession, startSession, type Session } from './support/session';

let session: Session | undefined;
const current = (): Session => {
  if (session === undefined) throw new Error('the session did not start (see the failure of the "before" hook)');
  return session;
};

describe('EvalLens in VS Code, Restricted Mode', () => {
  before(async () => {
    session = await startSession('restricted');
  });
  after(() => endSession(session));

  it('answering the trust dialog "No" opens the workspace in Restricted Mode', () => restrictedModeDialog(current()));
  it('configs are still checked in Restricted Mode', () => unknownScorerIsMarked(current()));
  it('a subprocess scorer is skipped with the trust reason', () => subprocessScorerSkipped(current()));
});
