import { createEngineContext } from '../core/engineContext';

/**
 * The CLI's engine context: one per process, as a process runs one command (its compiled
 * validators, regex verdicts, judge rate limiters and sign-ins serve every config it loads and runs).
 */
export const cliEngine = createEngineContext();
