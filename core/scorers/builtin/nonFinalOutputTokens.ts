import type { Json } from '../../case';
import schema from '../../../schemas/scorers/non_final_output_tokens.schema.json';
import type { Trace } from '../../trace/trace';
import { codePointLength, pythonRound } from '../support/pythonRound';
import { CounterError, countOf, turnCounter } from '../support/turnCounters';

/** EvalBench's estimate of how many characters make one token (the same as mcp_tool_metrics). */
const CHARS_PER_TOKEN = 4;

/**
 * EvalBench's `non_final_output_tokens` (scorers/nonfinaloutputtokens.py): per turn, the output
 * tokens (`candidates`, summed over the models) less an estimate of the turn's reply text,
 * round(len(response) / 4) with Python's rounding, never below 0; summed over the turns.
 */
export const nonFinalOutputTokens = turnCounter({
  key: 'non_final_output_tokens',
  unit: 'tokens',
  schema,
  figure: 'token counts',
  describe: (total) => countOf(total, 'non-final output token'),
  fold: () => ({
    add: (turn, index, trace) => {
      const candidates = turn.tokens?.candidates;
      const estimate = pythonRound(replyLength(trace, index) / CHARS_PER_TOKEN);
      if (turn.tokens === undefined) return undefined;
      return Math.max(0, (candidates ?? 0) - estimate);
    },
  }),
});

/**
 * The length EvalBench takes of a turn's reply: `len(response or "")` in Python. A string counts its
 * code points, a list its items, an object its keys; a missing, empty or false reply is 0. A reply
 * that is `true` or a non-zero number has no length in Python, so EvalBench's scorer raises on it.
 * A trace that is not an EvalBench conversation may record several assistant messages in one turn:
 * their lengths add up.
 */
function replyLength(trace: Trace, turn: number): number {
  let total = 0;
  for (const content of repliesOf(trace).get(turn) ?? []) {
    if (typeof content === 'string') total += codePointLength(content);
    else if (Array.isArray(content)) total += content.length;
    else if (content !== null && typeof content === 'object') total += Object.keys(content).length;
    else if (content === true || (typeof content === 'number' && content !== 0)) {
      throw new CounterError(
        `turn ${turn + 1} records a reply that is ${JSON.stringify(content)}, not text; EvalBench's non_final_output_tokens cannot take its length and fails on it`,
      );
    }
  }
  return total;
}

/** Assistant messages of a trace by turn, read once per trace. */
const repliesByTrace = new WeakMap<Trace, Map<number, Json[]>>();

function repliesOf(trace: Trace): Map<number, Json[]> {
  let byTurn = repliesByTrace.get(trace);
  if (byTurn === undefined) {
    byTurn = new Map();
    for (const step of trace.steps) {
      if (step.kind !== 'message' || step.role !== 'assistant' || step.turn === undefined) continue;
      const list = byTurn.get(step.turn) ?? [];
      list.push(step.content ?? null);
      byTurn.set(step.turn, list);
    }
    repliesByTrace.set(trace, byTurn);
  }
  return byTurn;
}
