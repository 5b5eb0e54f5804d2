import type { Json } from '../../case';
import { error, fail, pass } from '../../result';
import schema from '../../../schemas/scorers/regex.schema.json';
import { codePointLength, textOutput } from '../support/describe';
import { prepareBoundedRegex, type BoundedMatch, type BoundedRegex, type RegexGuard } from '../support/boundedRegex';
import { describeText } from '../support/textNeedles';
import {
  checked,
  defineScorer,
  type OptionIssue,
  type OptionsOf,
  prepared,
  refused,
  type ScorerContext,
} from '../scorer';

type Mode = 'match' | 'full_match' | 'no_match';

interface Outcome {
  readonly number: number;
  readonly result: BoundedMatch;
  readonly guard: RegexGuard;
}

/** Passes when the output matches the pattern(s): found anywhere, matching all of it, or not found. */
export const regex = defineScorer('regex', {
  origin: 'EvalBook',
  scale: { kind: 'bounded', max: 1 },
  schema,
  check(options, context) {
    return checked(compilePatterns(options, context).issues);
  },
  create(options, context) {
    const { issues, compiled } = compilePatterns(options, context);
    if (issues.length > 0) return refused(...issues);
    const total = compiled.length;
    const name = (n: number) => (total === 1 ? 'the pattern' : `pattern ${n} of ${total}`);

    return prepared({
      score({ output: given }) {
        const text = textOutput(given);
        if (!text.ok) return text.verdict;
        const output = text.text;
        const length = codePointLength(output);
        if (length > options.max_input_chars) {
          return error(
            `the output is a string of ${length} characters, longer than max_input_chars (${options.max_input_chars}); it is neither matched nor truncated`,
          );
        }
        const seen = describeText(output);
        const satisfied = (r: BoundedMatch) =>
          options.mode === 'no_match' ? r.status === 'not_matched' : r.status === 'matched';
        const outcomes: Outcome[] = [];
        const details = () => detailsOf(options.mode, output, outcomes, total);
        const describe = (o: Outcome) => describeOutcome(o.result, options.mode, name(o.number), seen, output);

        for (const [i, compiledRegex] of compiled.entries()) {
          const outcome: Outcome = {
            number: i + 1,
            result: compiledRegex.exec(output, options.match_timeout_ms),
            guard: compiledRegex.guard,
          };
          outcomes.push(outcome);
          const r = outcome.result;
          if (r.status === 'failed') return error(`${name(outcome.number)} could not be run: ${r.message}`, details());
          if (r.status === 'timeout') continue;
          // Short-circuit only once the answer is decided: the first unsatisfied pattern fails `all`,
          // the first satisfied one passes `any`.
          if (options.match_all && !satisfied(r)) return fail(describe(outcome), 0, details());
          if (!options.match_all && satisfied(r)) return pass(describe(outcome), 1, details());
        }

        const stopped = outcomes.filter((o) => o.result.status === 'timeout');
        const firstStopped = stopped[0];
        if (firstStopped !== undefined) {
          const how = firstStopped.result.interrupted ? 'was stopped at' : 'took longer than';
          const others = stopped.length > 1 ? ` (${stopped.length} patterns ran out of time)` : '';
          return {
            status: 'timeout',
            reason: `${name(firstStopped.number)} ${how} the match time limit of ${options.match_timeout_ms} ms (match_timeout_ms) on the output (${seen})${others}`,
            details: details(),
          };
        }
        const only = outcomes[0];
        if (total === 1 && only !== undefined)
          return satisfied(only.result) ? pass(describe(only), 1, details()) : fail(describe(only), 0, details());
        if (options.match_all) return pass(allSatisfied(options.mode, total, seen), 1, details());
        return fail(noneSatisfied(options.mode, total, seen), 0, details());
      },
    });
  },
});

/** The patterns compiled, or why one cannot run (it does not compile, or can backtrack catastrophically). */
function compilePatterns(
  options: OptionsOf<'regex'>,
  context: ScorerContext,
): { issues: OptionIssue[]; compiled: BoundedRegex[] } {
  const single = options.pattern !== undefined;
  const sources = options.patterns ?? (options.pattern === undefined ? [] : [options.pattern]);
  const issues: OptionIssue[] = [];
  const compiled: BoundedRegex[] = [];
  sources.forEach((source, i) => {
    const made = prepareBoundedRegex(source, options.flags, {
      fullMatch: options.mode === 'full_match',
      verdicts: context.engine.regexVerdicts,
    });
    if (made.ok) compiled.push(made.regex);
    else
      issues.push({
        path: single ? ['pattern'] : ['patterns', i],
        message: `${single ? 'the pattern' : `pattern ${i + 1}`} ${made.message}`,
      });
  });
  return { issues, compiled };
}

function describeOutcome(result: BoundedMatch, mode: Mode, name: string, seen: string, output: string): string {
  if (result.status === 'matched') {
    if (mode === 'full_match') return `${name} matches the whole output (${seen})`;
    const at = codePointLength(output.slice(0, result.index)) + 1;
    return mode === 'no_match'
      ? `${name} matches the output (${seen}) at character ${at}, and mode is no_match`
      : `${name} matches the output (${seen}) at character ${at}`;
  }
  if (mode === 'full_match') return `${name} does not match the whole output (${seen})`;
  return `${name} matches nowhere in the output (${seen})`;
}

function allSatisfied(mode: Mode, total: number, seen: string): string {
  if (mode === 'no_match') return `none of the ${total} patterns matches the output (${seen})`;
  return `all ${total} patterns match ${mode === 'full_match' ? 'the whole output' : 'the output'} (${seen})`;
}

function noneSatisfied(mode: Mode, total: number, seen: string): string {
  if (mode === 'no_match')
    return `all ${total} patterns match the output (${seen}); mode no_match with match_all false needs one that does not`;
  return `none of the ${total} patterns matches ${mode === 'full_match' ? 'the whole output' : 'the output'} (${seen})`;
}

function detailsOf(mode: Mode, output: string, outcomes: readonly Outcome[], total: number): { [key: string]: Json } {
  return {
    mode,
    patterns: outcomes.map((o): Json => {
      const r = o.result;
      const base = {
        pattern: o.number,
        result: r.status,
        guard: o.guard,
        elapsed_ms: Math.round(r.elapsedMs * 1000) / 1000,
      };
      if (r.status === 'matched') {
        return {
          ...base,
          at: codePointLength(output.slice(0, r.index)) + 1,
          length: codePointLength(output.slice(r.index, r.index + r.length)),
        };
      }
      if (r.status === 'timeout') return { ...base, interrupted: r.interrupted };
      return base;
    }),
    not_run: total - outcomes.length,
  };
}
