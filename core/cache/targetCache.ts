import type { EvalCase, Json } from '../case';
import type { CasePreparer } from '../runner/casePreparer';
import type { TargetConfig } from '../target/targetConfig';
import { canonicalJson } from '../scorers/support/canonicalJson';
import { maskJson } from '../../shared/text/secretMask';
import { sha256 } from './cacheKey';
import { filesNamedBy } from './scorerFingerprint';

/** What a target gave a case: its output, and the trace it came with (with the call's latency). */
export interface TargetOutput {
  readonly output: Json;
  readonly trace?: Json;
}

/** Where target outputs are kept (the CLI's is cli/cacheStore.ts); never throws, as ResultStore. */
export interface TargetOutputStore {
  getOutput(key: string): TargetOutput | undefined;
  setOutput(key: string, value: TargetOutput): void;
}

/**
 * The config's target with its answers kept: a case the target would be called for gets the output
 * (and trace) an earlier run got for the same target settings, files its command names (by
 * content), case and trial, and the target is not called. Keyed by the whole case but its recorded
 * trials (the payload and an http body may use any field) and by the trial, so trials stay
 * independent. A call that fails is thrown as before and never kept; a case with a recorded output
 * is left to the target preparer (it calls nothing). Only the target is wrapped, never the NL2SQL
 * execution after it: a database may have changed.
 */
export function cachingTarget(
  preparer: CasePreparer,
  target: TargetConfig,
  store: TargetOutputStore,
  version: string,
  secrets: readonly string[] = [],
): CasePreparer {
  const settings = targetSettings(target);
  return {
    ...preparer,
    prepare: async (evalCase, signal, trial) => {
      if (preparer.reachesFor?.(evalCase) === false) return preparer.prepare(evalCase, signal, trial);
      const key = sha256(
        canonicalJson({ target: settings, version, case: caseWithoutTrials(evalCase), trial: trial ?? 1 }),
      );
      const kept = store.getOutput(key);
      if (kept !== undefined)
        return { ...evalCase, output: kept.output, ...(kept.trace === undefined ? {} : { trace: kept.trace }) };
      const prepared = await preparer.prepare(evalCase, signal, trial);
      if (prepared.output === undefined) return prepared;
      const answer: TargetOutput = {
        output: prepared.output,
        ...(prepared.trace === undefined ? {} : { trace: prepared.trace }),
      };
      // The cache holds no secret: an answer that shows one (a key, a credential, a flagged token) is
      // not kept. Masking it instead would score the masked text on the next run: a wrong result.
      const text = canonicalJson(answer as unknown as Json);
      if (canonicalJson(maskJson(answer as unknown as Json, secrets)) === text) store.setOutput(key, answer);
      return prepared;
    },
  };
}

/** The target's settings that decide its answer: all but where it was written, with a command's files by content. */
function targetSettings(target: TargetConfig): Json {
  if (target.kind === 'cmd') {
    const { range: _range, cwd, ...rest } = target;
    return { ...rest, files: filesNamedBy(target.cmd, cwd) } as unknown as Json;
  }
  const { range: _range, ...rest } = target;
  return rest as unknown as Json;
}

function caseWithoutTrials(evalCase: EvalCase): Json {
  const { trials: _trials, sql: _sql, ...rest } = evalCase;
  return rest as unknown as Json;
}
