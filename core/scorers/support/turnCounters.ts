import type { Json } from '../../case';
import { error, measured, unsupported } from '../../result';
import type { Trace, TurnFigures } from '../../trace/trace';
import { traceOf } from '../../trace/traceOf';
import type { ScorerOptionsBySchema } from '../options.generated';
import { defineScorer, prepared, type OptionsOf } from '../scorer';

/** The unit of an EvalBench counter's score. */
export type CounterUnit = 'turns' | 'steps' | 'ms' | 'tokens' | 'weighted tokens';

/** What one counter sums over the turns of a trace. */
export interface TurnFold {
  /**
   * What one turn adds, or `undefined` when the turn does not record the figure at all. Such a turn
   * adds 0, as in EvalBench, and the reason says how many there were. `index` is the turn's 0-based
   * place in `trace.turns`, for counters that also read the turn's steps. A recording EvalBench cannot
   * score (its scorer raises) throws a `CounterError`, and the verdict is `error`.
   */
  readonly add: (turn: TurnFigures, index: number, trace: Trace) => number | undefined;
  /** Named parts summed over the turns into `details.parts` (e.g. model and tool latency). */
  readonly parts?: (turn: TurnFigures) => { readonly [part: string]: number };
  /** Extra fixed details (e.g. the weights in use). */
  readonly details?: { readonly [key: string]: Json };
}

export interface TurnCounterSpec<S extends keyof ScorerOptionsBySchema> {
  /** The counter's schema name, which is also its key. */
  readonly key: S;
  readonly unit: CounterUnit;
  readonly schema: { readonly [key: string]: unknown };
  /** What a turn records for this counter, for reasons: "tool call counts", "token counts". */
  readonly figure: string;
  /** How the total reads in a reason: "3 tool calls", "1200 ms". */
  readonly describe: (total: number) => string;
  /** The fold, from the validated options. */
  readonly fold: (options: OptionsOf<S>) => TurnFold;
}

/** Thrown by a fold for a turn EvalBench's scorer would fail on; its message is the reason. */
export class CounterError extends Error {}

/**
 * An EvalBench counter scorer: the sum of one figure over the turns of the case's trace. The verdict
 * is `measured` (no pass or fail of its own; a configured threshold decides it in the runner). A case
 * without a trace, or whose trace records no turns, is `unsupported`; an empty list of turns sums to 0.
 */
export function turnCounter<S extends keyof ScorerOptionsBySchema>(spec: TurnCounterSpec<S>) {
  return defineScorer(spec.key, {
    origin: 'EvalBench',
    scale: { kind: 'count', unit: spec.unit },
    schema: spec.schema,
    create(options) {
      const fold = spec.fold(options);
      return prepared({
        score({ case: evalCase }) {
          const lookup = traceOf(evalCase);
          if (!lookup.ok) return unsupported(lookup.reason);
          const { turns, hasTurns } = lookup.trace;
          if (!hasTurns)
            return unsupported(`the trace records no conversation turns, so ${spec.key} has nothing to sum`);
          let total = 0;
          let silent = 0;
          const perTurn: number[] = [];
          const parts: { [part: string]: number } = {};
          for (const [index, turn] of turns.entries()) {
            let value: number | undefined;
            try {
              value = fold.add(turn, index, lookup.trace);
            } catch (thrown) {
              if (thrown instanceof CounterError) return error(thrown.message);
              throw thrown;
            }
            if (value === undefined) silent++;
            else total += value;
            perTurn.push(value ?? 0);
            if (fold.parts !== undefined) {
              for (const [name, amount] of Object.entries(fold.parts(turn))) parts[name] = (parts[name] ?? 0) + amount;
            }
          }
          const details: { [key: string]: Json } = { turns: turns.length, per_turn: perTurn };
          if (fold.parts !== undefined) details['parts'] = parts;
          if (silent > 0) details['turns_without_figure'] = silent;
          if (fold.details !== undefined) Object.assign(details, fold.details);
          // A count of turns needs no "over N turns".
          let reason =
            turns.length === 0
              ? `${spec.describe(total)}: the conversation has no turns`
              : spec.unit === 'turns'
                ? spec.describe(total)
                : `${spec.describe(total)} over ${countOf(turns.length, 'turn')}`;
          // Turns the importer could not read (EvalBench skips them) have no figures: say so apart.
          const skipped = lookup.trace.skippedTurns ?? 0;
          if (skipped > 0) {
            details['skipped_turns'] = skipped;
            reason += `; ${skipped} of them could not be read (${spec.unit === 'turns' ? 'counted all the same' : 'adding 0'}, as in EvalBench)`;
          }
          const quiet = Math.max(0, silent - skipped);
          if (quiet > 0) {
            const who =
              quiet < turns.length
                ? `${quiet} of them record${quiet === 1 ? 's' : ''} no`
                : turns.length === 1
                  ? 'the turn records no'
                  : 'no turn records any';
            reason += `; ${who} ${spec.figure} (counted as 0, as in EvalBench)`;
          }
          return measured(reason, total, details);
        },
      });
    },
  });
}

/** "1 turn", "3 turns". */
export function countOf(n: number, noun: string): string {
  return `${formatFigure(n)} ${noun}${n === 1 ? '' : 's'}`;
}

/** A figure as reasons show it: at most two decimals. */
export function formatFigure(n: number): string {
  return String(Math.round(n * 100) / 100);
}
