import type { Json } from '../../../case';
import type { ScorerVerdict } from '../../../result';
import schema from '../../../../schemas/scorers/regexp_matcher.schema.json';
import { prepareBoundedRegex, type BoundedMatch, type BoundedRegex } from '../../support/boundedRegex';
import { codePointLength } from '../../support/describe';
import { PY_WHITESPACE_CLASS, pyStrip } from '../../support/pythonEquality';
import { generatedSqlOf, percentVerdict, plural } from '../../support/sqlRows';
import {
  checked,
  defineScorer,
  type OptionIssue,
  type OptionsOf,
  prepared,
  refused,
  type ScorerContext,
} from '../../scorer';
import { translatePythonPattern } from './pythonRegex';

interface Outcome {
  readonly number: number;
  readonly result: BoundedMatch;
  /** The pattern counts as matching: found, and with match_whole_query its first match is the whole query. */
  readonly counted: boolean;
}

const RUNS_OF_SPACE = new RegExp(`[${PY_WHITESPACE_CLASS}]+`, 'gu');

/**
 * EvalBench's query cleaning before matching: backticks cut from both ends (before white space is
 * trimmed, so a leading space protects a backtick), every run of white space made one space, then
 * the ends trimmed.
 */
export function cleanQuery(query: string): string {
  let start = 0;
  let end = query.length;
  while (start < end && query.charAt(start) === '`') start++;
  while (end > start && query.charAt(end - 1) === '`') end--;
  return pyStrip(query.slice(start, end).replace(RUNS_OF_SPACE, ' '));
}

/**
 * EvalBench's `regexp_matcher`: Python regular expressions searched in the cleaned generated SQL.
 * Any match scores 100 (all of them with match_all_patterns); with match_whole_query a pattern
 * counts only when its first match is the whole cleaned query; invert_results gives 100 − score.
 */
export const regexpMatcher = defineScorer('regexp_matcher', {
  origin: 'EvalBench',
  scale: { kind: 'bounded', max: 100 },
  schema,
  check(options, context) {
    return checked(compilePatterns(options, context).issues);
  },
  create(options, context) {
    const { issues, compiled, translated } = compilePatterns(options, context);
    if (issues.length > 0) return refused(...issues);
    const total = compiled.length;
    const name = (n: number) => (total === 1 ? 'the pattern' : `pattern ${n} of ${total}`);

    return prepared({
      score(input) {
        const sql = generatedSqlOf(input);
        if (!sql.ok) return sql.verdict;
        const query = cleanQuery(sql.text);
        const length = codePointLength(query);
        const outcomes: Outcome[] = [];
        const details = (): { [key: string]: Json } => ({
          query_from: sql.from,
          cleaned_length: length,
          match_whole_query: options.match_whole_query,
          match_all_patterns: options.match_all_patterns,
          invert_results: options.invert_results,
          patterns: outcomes.map((o) => outcomeDetails(o, query)),
          not_run: total - outcomes.length,
          translations: translated,
        });
        const finish = (raw: 0 | 100, why: string): ScorerVerdict => {
          const score = options.invert_results ? 100 - raw : raw;
          const inverted = options.invert_results ? `; invert_results turns ${raw} into ${score}` : '';
          return percentVerdict(
            score,
            `${why} (${length === 1 ? '1 character' : `${length} characters`} after cleaning)${inverted}`,
            details(),
          );
        };

        if (total === 0) {
          return options.match_all_patterns
            ? finish(
                100,
                'regexp_string_list is empty: with match_all_patterns, 0 of 0 patterns matching scores 100, as in EvalBench',
              )
            : finish(0, 'regexp_string_list is empty, so no pattern matches');
        }
        for (const [i, regex] of compiled.entries()) {
          const result = regex.exec(query, options.match_timeout_ms);
          if (result.status === 'failed')
            return {
              status: 'error',
              reason: `${name(i + 1)} could not be run: ${result.message}`,
              details: details(),
            };
          const counted =
            result.status === 'matched' &&
            (!options.match_whole_query || (result.index === 0 && result.length === query.length));
          const outcome: Outcome = { number: i + 1, result, counted };
          outcomes.push(outcome);
          if (result.status === 'timeout') continue;
          if (options.match_all_patterns && !counted)
            return finish(
              0,
              `${describe(outcome, name(i + 1), query, options.match_whole_query)}; match_all_patterns needs every pattern`,
            );
          if (!options.match_all_patterns && counted)
            return finish(
              100,
              `${describe(outcome, name(i + 1), query, options.match_whole_query)}; one match suffices`,
            );
        }
        const stopped = outcomes.filter((o) => o.result.status === 'timeout');
        const first = stopped[0];
        if (first !== undefined) {
          const how = first.result.interrupted ? 'was stopped at' : 'took longer than';
          const others = stopped.length > 1 ? ` (${plural(stopped.length, 'pattern')} ran out of time)` : '';
          return {
            status: 'timeout',
            reason: `${name(first.number)} ${how} the match time limit of ${options.match_timeout_ms} ms (match_timeout_ms) on the cleaned query${others}`,
            details: details(),
          };
        }
        // Every pattern ran and none decided early: all counted (match_all_patterns) or none did.
        const only = outcomes[0];
        if (total === 1 && only !== undefined)
          return finish(
            options.match_all_patterns ? 100 : 0,
            describe(only, name(1), query, options.match_whole_query),
          );
        if (options.match_all_patterns)
          return finish(
            100,
            `all ${total} patterns ${options.match_whole_query ? 'match the whole cleaned query' : 'match the cleaned query'}`,
          );
        return finish(
          0,
          `none of the ${total} patterns ${options.match_whole_query ? 'matches the whole cleaned query' : 'matches the cleaned query'}`,
        );
      },
    });
  },
});

function describe(outcome: Outcome, name: string, query: string, whole: boolean): string {
  const r = outcome.result;
  if (r.status !== 'matched') return `${name} matches nowhere in the cleaned query`;
  const at = codePointLength(query.slice(0, r.index)) + 1;
  const size = codePointLength(query.slice(r.index, r.index + r.length));
  if (!whole) return `${name} matches the cleaned query at character ${at}`;
  if (outcome.counted) return `${name}'s first match is the whole cleaned query`;
  return `${name}'s first match (at character ${at}, ${size === 1 ? '1 character' : `${size} characters`}) is not the whole cleaned query (match_whole_query compares the first match, it does not anchor the pattern)`;
}

function outcomeDetails(o: Outcome, query: string): Json {
  const r = o.result;
  const base = {
    pattern: o.number,
    result: r.status,
    counted: o.counted,
    elapsed_ms: Math.round(r.elapsedMs * 1000) / 1000,
  };
  if (r.status === 'matched')
    return {
      ...base,
      at: codePointLength(query.slice(0, r.index)) + 1,
      length: codePointLength(query.slice(r.index, r.index + r.length)),
    };
  if (r.status === 'timeout') return { ...base, interrupted: r.interrupted };
  return base;
}

/** The Python patterns translated and compiled, or why one cannot run. */
function compilePatterns(
  options: OptionsOf<'regexp_matcher'>,
  context: ScorerContext,
): { issues: OptionIssue[]; compiled: BoundedRegex[]; translated: Json[] } {
  const issues: OptionIssue[] = [];
  const compiled: BoundedRegex[] = [];
  const translated: Json[] = [];
  options.regexp_string_list.forEach((pattern, i) => {
    const path = ['regexp_string_list', i];
    const translation = translatePythonPattern(pattern);
    if (!translation.ok) {
      issues.push({ path, message: `pattern ${i + 1} cannot be run: ${translation.message}` });
      return;
    }
    const made = prepareBoundedRegex(translation.source, translation.flags, { verdicts: context.engine.regexVerdicts });
    if (!made.ok) {
      issues.push({
        path,
        message: `pattern ${i + 1} (run as the ECMAScript pattern /${translation.source}/${translation.flags}u) ${made.message}`,
      });
      return;
    }
    compiled.push(made.regex);
    translated.push({
      pattern: i + 1,
      ecmascript: translation.source,
      flags: made.regex.flags,
      guard: made.regex.guard,
    });
  });
  return { issues, compiled, translated };
}
