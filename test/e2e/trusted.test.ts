/**
 * The packaged extension in a real VS Code (code-server) on a trusted workspace, driven through
 * headless Chromium as a person would. One code-server and one browser serve every check in this
 * file, in the order written, and some checks read what an earlier one did: the CodeLens check runs
 * one case (nothing has run before it), which the results view then shows as the last run; the
 * malformed-dataset check runs its config first of all, so the states it sees are its own run's, and
 * the results view shows that run's markup; "Run All Tests" comes last.
 * Needs `bash scripts/e2e-setup.sh` once; fails saying so otherwise. Screenshots: test/e2e/artifacts/.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { quickFixCorrectsUnknownScorer, unknownScorerIsMarked } from './checks/diagnostics';
import { completionOffersScorers, hoverShowsScorerDocs } from './checks/languageFeatures';
import { malformedLineIsReported } from './checks/malformedDataset';
import { resultsViewShowsFailure, resultsViewShowsMarkupAsText } from './checks/resultsView';
import { showFailuresOpensThePeek } from './checks/showFailures';
import { codeLensRunsOneCase, explorerListsCases, runAllMarksCases } from './checks/testExplorer';
import { missingRuntimeModules } from './support/runtimeModules';
import { endSession, startSession, type Session } from './support/session';

let session: Session | undefined;
const current = (): Session => {
  if (session === undefined) throw new Error('the session did not start (see the failure of the "before" hook)');
  return session;
};

describe('EvalLens in VS Code, trusted workspace', () => {
  before(async () => {
    session = await startSession('trusted');
  });
  after(() => endSession(session));

  it('the .vsix ships every module its bundles load at run time', () => {
    const missing = missingRuntimeModules(current().server.extensionFolder);
    assert.deepEqual(
      missing,
      [],
      `modules the bundles require but the .vsix lacks: ${missing.map((m) => `${m.module} (${m.bundle})`).join(', ')}`,
    );
  });

  it('an unknown scorer shows a squiggle and a Problems entry with "did you mean"', () =>
    unknownScorerIsMarked(current()));
  it('the quick fix replaces an unknown scorer and the squiggle goes', () => quickFixCorrectsUnknownScorer(current()));
  it('completion under scorers: lists scorer keys and inserts the accepted one', () =>
    completionOffersScorers(current()));
  it('hovering a scorer key shows its documentation', () => hoverShowsScorerDocs(current()));

  it("the Test Explorer lists the example's cases", () => explorerListsCases(current()));
  it('the "Run case" CodeLens runs that case alone', () => codeLensRunsOneCase(current()));
  it('the results view shows the failing case with its reason', () => resultsViewShowsFailure(current()));
  it('a malformed JSONL line is reported at its line and the other cases still run', () =>
    malformedLineIsReported(current()));
  it('the results view shows an output containing HTML as text', () => resultsViewShowsMarkupAsText(current()));
  it('"Run All Tests" marks passing and failing cases; the failure shows its reason and a diff', () =>
    runAllMarksCases(current()));
  it('"EvalLens: Show Failures" opens the first failing case and its peek', () => showFailuresOpensThePeek(current()));
});
