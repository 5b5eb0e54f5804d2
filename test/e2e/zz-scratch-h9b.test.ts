import { it } from 'node:test';
import { copyFileSync } from 'node:fs';
import { endSession, startSession } from './support/session';
import { quickFixCorrectsUnknownScorer, unknownScorerIsMarked } from './checks/diagnostics';
import { completionOffersScorers } from './checks/languageFeatures';

it('explore', async () => {
  for (let round = 0; round < 3; round++) {
    const s = await startSession('trusted');
    try {
      await unknownScorerIsMarked(s);
      await quickFixCorrectsUnknownScorer(s);
      for (let i = 0; i < 3; i++) {
        try { await completionOffersScorers(s); console.log('OK', round, i); } catch (e) {
          console.log('FAIL', round, i, String(e).split('\n')[0]);
          copyFileSync('test/e2e/artifacts/trusted-completion-offers-scorer-keys-failed.png', `/tmp/h9b-fail-${round}-${i}.png`);
        }
      }
    } finally { await endSession(s); }
  }
});
