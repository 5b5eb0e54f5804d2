import type { ScorerVerdict } from '../result';
import type { ScorerDefinition } from './scorer';

/**
 * `not-<key>` (promptfoo's spelling) or `not_<key>` (EvalLens' snake case) selects the negation of a
 * boolean-verdict scorer: its pass is a fail and its fail a pass, with score max − score. What cannot
 * decide stays as it is (an `error`, `unsupported`, `timeout`, `skipped` or `inconclusive` is never
 * turned into a pass). A scorer registered under the full key wins: `not_contains` is its own scorer.
 */
const NEGATION = /^not[-_](.+)$/;

/**
 * Whether a scorer's verdict is a yes or no on a 0–1 score that a negation can mirror: its own pass
 * decision (no default threshold), one result per case (not per trial or per item).
 */
export function isBooleanVerdict(definition: ScorerDefinition): boolean {
  return (
    definition.scale.kind === 'bounded' &&
    definition.scale.max === 1 &&
    definition.defaultThreshold === undefined &&
    definition.acrossTrials === undefined &&
    definition.itemized === undefined
  );
}

/** The key a `not-` / `not_` key negates (`regex` for `not-regex`), whatever it names; undefined for other keys. */
export function negatedKey(key: string): string | undefined {
  return NEGATION.exec(key)?.[1];
}

/** The scorer a `not-` / `not_` key names, when its base key is a boolean-verdict scorer. */
export function negationOf(
  key: string,
  base: (key: string) => ScorerDefinition | undefined,
): ScorerDefinition | undefined {
  const match = NEGATION.exec(key);
  const definition = match?.[1] === undefined ? undefined : base(match[1]);
  if (definition === undefined || !isBooleanVerdict(definition)) return undefined;
  return negated(key, definition);
}

/** `definition` with every verdict turned round; its options and checks are the base scorer's. */
function negated(key: string, definition: ScorerDefinition): ScorerDefinition {
  const { reportsAs: _reportsAs, ...rest } = definition;
  return {
    ...rest,
    key,
    ...(definition.check === undefined
      ? {}
      : { check: (options, context) => definition.check?.(options, context) ?? { ok: true } }),
    create(options, context) {
      const made = definition.create(options, context);
      if (!made.ok) return made;
      const { scorer } = made;
      return {
        ...made,
        scorer: {
          score: async (input, signal) => negateVerdict(await scorer.score(input, signal), definition.key),
          ...(scorer.close === undefined ? {} : { close: () => scorer.close?.() ?? Promise.resolve() }),
        },
      };
    },
  };
}

export function negateVerdict(verdict: ScorerVerdict, baseKey: string): ScorerVerdict {
  if (verdict.status !== 'pass' && verdict.status !== 'fail') return verdict;
  const status = verdict.status === 'pass' ? 'fail' : 'pass';
  const score = verdict.score === undefined ? undefined : 1 - verdict.score;
  const reason = `${verdict.status === 'pass' ? `${baseKey} passed, so its negation fails` : `${baseKey} failed, so its negation passes`}: ${verdict.reason}`;
  return { ...verdict, status, reason, ...(score === undefined ? {} : { score }) };
}
