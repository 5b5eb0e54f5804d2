import { BUILTIN_SCORER_INDEX } from './builtinIndex';
import type { ScorerDefinition } from './scorer';

/**
 * Every built-in scorer, loaded: what lists them all (docs, the build's precompiled validators, tests).
 * A process that reads configs gets them one at a time through builtinIndex.ts instead; this list is
 * made from that index, so a scorer is registered in one place.
 */
export const BUILTIN_SCORERS: readonly ScorerDefinition[] = BUILTIN_SCORER_INDEX.map((entry) => entry.load());
