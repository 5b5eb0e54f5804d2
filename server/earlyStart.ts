/**
 * Imported first by server/main.ts, so that it runs before the rest of the bundle is evaluated: starts
 * the ReDoS checker's worker thread, which then loads recheck (~3 MB of JavaScript, 200–350 ms cold)
 * and starts its checker in parallel with this thread loading the server and parsing the first config.
 * Nothing else here: the worker is all the first check needs that another thread can do.
 */
import { startPatternChecker } from '../core/scorers/support/boundedRegex';

startPatternChecker();
