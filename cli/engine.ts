import { createEngineContext } from '../core/engineContext';
import { preferPatternChecker, type VerdictCache } from '../core/scorers/support/boundedRegex';
import { cacheHome } from '../shared/cacheHome';

// EVALLENS_RECHECK_BACKEND=pure runs recheck's JavaScript checker even where its native one is
// installed (the benchmarks compare the two; bench/startup.mjs). The user's environment, not a workspace's.
if (process.env['EVALLENS_RECHECK_BACKEND'] === 'pure') preferPatternChecker('pure');

const verdictHome = cacheHome(process.env);

/**
 * The verdict store of `directory`, opened (its module, with `crypto`, loaded and its file read) when
 * the first pattern's verdict is looked up: a command or config that checks no pattern never opens it.
 */
function verdictStoreIn(directory: string): VerdictCache {
  let store: VerdictCache | undefined;
  const open = (): VerdictCache => (store ??= new (verdictStoreModule().VerdictStore)(directory));
  return {
    get: (key) => open().get(key),
    set: (key, value, durable) => open().set(key, value, durable),
  };
}

type VerdictStoreModule = typeof import('../shared/regexVerdicts/verdictStore');

function verdictStoreModule(): VerdictStoreModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('../shared/regexVerdicts/verdictStore') as VerdictStoreModule;
}

/**
 * The CLI's engine context: one per process, as a process runs one command (its compiled
 * validators, regex verdicts, judge rate limiters and sign-ins serve every config it loads and runs).
 * Regex verdicts are also kept on disk, in the user's cache folder, for every later process.
 */
export const cliEngine = createEngineContext(
  verdictHome === undefined ? {} : { regexVerdictStore: verdictStoreIn(verdictHome) },
);
