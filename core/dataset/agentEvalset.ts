import type { Node } from 'jsonc-parser';
import type { LineIndex } from '../text/position';
import { DatasetError, displayPath } from './datasetError';
import { readSecretEnv } from '../../shared/text/secretMask';
import { isObject } from '../../shared/isObject';
import { displayLineAndColumn } from '../../shared/text/displayPosition';

/**
 * EvalBench agentic evalsets (`agent-format`, `gemini-cli-format`): a JSON object `{"scenarios": [...]}`.
 * The JSON reader recognizes one by that field (a `cases` field wins), expands `${VAR}` placeholders
 * and turns each scenario into a case with `caseOfScenario`.
 */
export function isEvalset(root: Node | undefined): boolean {
  if (root?.type !== 'object') return false;
  const keys = (root.children ?? []).map((property) => property.children?.[0]?.value as unknown);
  return keys.includes('scenarios') && !keys.includes('cases');
}

/** Where the expanded text came from: offsets in it map back to the file's own text. */
export interface ExpandedText {
  readonly text: string;
  /** The offset in the file of an offset in the expanded text (a substituted value maps to its placeholder). */
  originalOffset(offset: number): number;
  /** The variable whose value is at an offset of the expanded text, if any. */
  variableAt(offset: number): string | undefined;
}

interface Substitution {
  readonly name: string;
  /** Span of the placeholder in the file. */
  readonly start: number;
  readonly end: number;
  /** Span of the value in the expanded text. */
  readonly valueStart: number;
  readonly valueEnd: number;
}

/** Expanding the placeholder at `offset` (of the text given) would pass `limit` characters. */
export class ExpansionTooLong extends Error {
  constructor(
    readonly variable: string,
    readonly offset: number,
    readonly limit: number,
  ) {
    super(
      `expanding \${${variable}} here makes the text longer than ${limit} characters; expected at most ${limit} (a value repeated too often)`,
    );
  }
}

/** The longest an evalset element may be once its `${NAME}`s are expanded: the JSON reader's limit on one case (MAX_CASE_CHARS). */
const MAX_EXPANDED_ELEMENT_CHARS = 64 * 1024 * 1024;

/** `${NAME}`, NAME a shell-style variable name. Other `${…}` text is not a placeholder and stays. */
const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Expands every `${NAME}` of the file's text from `env`, anywhere in the file, before it is parsed (as
 * EvalBench does): values go in as they are, so `"max_turns": ${TURNS}` works, and a value that breaks
 * the JSON is a syntax error at its placeholder. There is no escape and no default syntax, and values
 * are not expanded again. A variable that is not set (an empty value is set) is a DatasetError naming
 * it and its line and column, and nothing of the file is read.
 */
export function expandEnvironment(
  text: string,
  file: string,
  lines: LineIndex,
  env: NodeJS.ProcessEnv = process.env,
  limit = MAX_EXPANDED_ELEMENT_CHARS,
): ExpandedText {
  const substitutions: Substitution[] = [];
  let expanded = '';
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? '';
    const start = match.index;
    const end = start + match[0].length;
    const value = readSecretEnv(env, name);
    if (value === undefined) {
      const range = lines.range(file, start, end);
      throw new DatasetError(
        file,
        `dataset ${displayPath(file)} uses \${${name}} at ${displayLineAndColumn(range.start)}, but ${name} is not set in the environment; set it, or remove the placeholder`,
        range,
      );
    }
    // Counted before the string is built: a value repeated many times would pass what a string can hold.
    if (expanded.length + (start - last) + value.length > limit) throw new ExpansionTooLong(name, start, limit);
    expanded += text.slice(last, start);
    substitutions.push({ name, start, end, valueStart: expanded.length, valueEnd: expanded.length + value.length });
    expanded += value;
    last = end;
  }
  expanded += text.slice(last);
  const before = (offset: number): Substitution | undefined => substitutions.findLast((s) => s.valueStart <= offset);
  return {
    text: expanded,
    originalOffset(offset) {
      const substitution = before(offset);
      if (substitution === undefined) return offset;
      if (offset < substitution.valueEnd) return substitution.start;
      return substitution.end + (offset - substitution.valueEnd);
    },
    variableAt(offset) {
      const substitution = before(offset);
      return substitution !== undefined && offset < substitution.valueEnd ? substitution.name : undefined;
    },
  };
}

/** Scenario fields that become case fields; every other field of a scenario goes into `metadata`. */
const MAPPED = new Set([
  'id',
  'starting_prompt',
  'expected_trajectory',
  'expected_skills',
  'conversation_history',
  'accumulated_tools',
  'accumulated_skills',
]);

/**
 * Scenario fields left out of the case: `env` holds the agent's environment for EvalBench's own
 * runs, expanded from `${VAR}`s that may be secrets. EvalLens scores recordings and never needs it,
 * and metadata can reach reports and views.
 */
const DROPPED = new Set(['env']);

/**
 * A scenario as a raw case, for `caseFromValue`: `id`; `input` = `starting_prompt`; `expected` =
 * `{trajectory: expected_trajectory, skills: expected_skills}` with only the fields the scenario has;
 * `trace` = `{conversation_history, accumulated_tools, accumulated_skills}` with only the fields it
 * has (a scenario with none has no trace). The other fields (`conversation_plan`, `binary_rubric`,
 * `max_turns`, `kind`, `work_dir`, …) stay, so `caseFromValue` puts them into `metadata`; `env` does not.
 * A value that is not an object is returned as it is, for `caseFromValue` to report.
 */
export function caseOfScenario(scenario: unknown): unknown {
  if (!isObject(scenario)) return scenario;
  const rest = Object.fromEntries(Object.entries(scenario).filter(([key]) => !MAPPED.has(key) && !DROPPED.has(key)));
  const expected = picked(scenario, { expected_trajectory: 'trajectory', expected_skills: 'skills' });
  const trace = picked(scenario, {
    conversation_history: 'conversation_history',
    accumulated_tools: 'accumulated_tools',
    accumulated_skills: 'accumulated_skills',
  });
  return {
    ...rest,
    ...picked(scenario, { id: 'id', starting_prompt: 'input' }),
    ...(expected === undefined ? {} : { expected }),
    ...(trace === undefined ? {} : { trace }),
  };
}

/** The scenario's fields named in `names`, renamed; undefined when it has none of them. */
function picked(
  scenario: { readonly [key: string]: unknown },
  names: { readonly [from: string]: string },
): { [key: string]: unknown } | undefined {
  const entries = Object.entries(names).flatMap(([from, to]) =>
    Object.hasOwn(scenario, from) && scenario[from] !== undefined ? [[to, scenario[from]] as const] : [],
  );
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
}
