import { createEngineContext } from '../core/engineContext';
import { preferPatternChecker } from '../core/scorers/support/boundedRegex';
import { cacheHome } from '../shared/cacheHome';
import { VerdictStore } from '../shared/regexVerdicts/verdictStore';

// EVALLENS_RECHECK_BACKEND=pure runs recheck's JavaScript checker even where its native one is
// installed (the benchmarks compare the two; bench/startup.mjs). The user's environment, not a workspace's.
if (process.env['EVALLENS_RECHECK_BACKEND'] === 'pure') preferPatternChecker('pure');

const verdictHome = cacheHome(process.env);

/**
 * The CLI's engine context: one per process, as a process runs one command (its compiled
 * validators, regex verdicts, judge rate limiters and sign-ins serve every config it loads and runs).
 * Regex verdicts are also kept on disk, in the user's cache folder, for every later process.
 */
export const cliEngine = createEngineContext(
  verdictHome === undefined ? {} : { regexVerdictStore: new VerdictStore(verdictHome) },
);
