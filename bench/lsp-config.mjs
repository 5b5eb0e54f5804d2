// The language-server benchmark's run config: 500 list-form scorer entries of 10 lines each (5,010
// lines with the header), generated deterministically from a seed, with a known set of seeded mistakes
// so the benchmark can check which of them each server reports.
//
// Mistakes fall in two groups:
// - ones a generic JSON Schema validator can see in `schemas/run-config.schema.json` (a wrong type,
//   an option key that does not exist, a scorer key not in the enum) — both servers should report them;
// - ones only EvalLens's engine can see (a did-you-mean for the unknown key, a regex that backtracks
//   catastrophically, a consistency scorer without `num_trials` ≥ 2, a dataset file that does not exist,
//   two scorers reporting under one name).
import { makeRng } from './lib/random.mjs';

export const ENTRY_LINES = 10;

const WORDS = ['refund', '30 days', 'order', 'invoice', 'receipt', 'policy', 'sorry', 'ticket', 'shipping', 'warranty'];
const SAFE_PATTERNS = ['ORD-\\\\d{6}', '^CUS-\\\\d+$', '\\\\b(refund|return)s?\\\\b', '[A-Z]{3}-[0-9]{4}'];

/** Nine lines of one valid entry (2-space list indent, 4-space options), by template. */
const TEMPLATES = {
  contains: (name, rng) => [
    '  - type: contains',
    `    name: ${name}`,
    '    values:',
    `      - "${rng.pick(WORDS)}"`,
    `      - "${rng.pick(WORDS)}"`,
    `    match: ${rng.pick(['all', 'any'])}`,
    `    case_sensitive: ${rng.pick(['true', 'false'])}`,
    `    threshold: 0.${rng.int(1, 9)}`,
    `    weight: ${rng.int(1, 3)}`,
  ],
  not_contains: (name, rng) => [
    '  - type: not_contains',
    `    name: ${name}`,
    '    values:',
    `      - "${rng.pick(WORDS)}"`,
    '      - "as an AI"',
    `    case_sensitive: ${rng.pick(['true', 'false'])}`,
    '    threshold: 1',
    `    weight: ${rng.int(1, 3)}`,
    '    output_path: answer',
  ],
  regex: (name, rng) => [
    '  - type: regex',
    `    name: ${name}`,
    `    pattern: "${rng.pick(SAFE_PATTERNS)}"`,
    `    mode: ${rng.pick(['match', 'no_match'])}`,
    '    flags: i',
    `    match_timeout_ms: ${rng.int(50, 200)}`,
    '    max_input_chars: 100000',
    '    threshold: 1',
    `    weight: ${rng.int(1, 3)}`,
  ],
  edit_similarity: (name, rng) => [
    '  - type: edit_similarity',
    `    name: ${name}`,
    `    threshold: 0.${rng.int(5, 9)}`,
    `    weight: ${rng.int(1, 3)}`,
    '    lower_is_better: false',
    '    output_path: answer',
    '    expected_path: answer',
    `    timeout_ms: ${rng.int(500, 5000)}`,
    '    # compares the answer field only',
  ],
  exact_match: (name, rng) => [
    '  - type: exact_match',
    `    name: ${name}`,
    `    mode: ${rng.pick(['auto', 'text', 'json'])}`,
    `    trim: ${rng.pick(['true', 'false'])}`,
    '    collapse_whitespace: true',
    `    ignore_case: ${rng.pick(['true', 'false'])}`,
    '    unicode_nfc: true',
    '    threshold: 1',
    `    weight: ${rng.int(1, 3)}`,
  ],
  json_schema: (name, rng) => [
    '  - type: json_schema',
    `    name: ${name}`,
    '    parse_output: true',
    '    schema:',
    '      type: object',
    `      required: [${rng.pick(['answer', 'confidence'])}]`,
    '      properties:',
    '        answer: {type: string}',
    `    weight: ${rng.int(1, 3)}`,
  ],
  numeric_tolerance: (name, rng) => [
    '  - type: numeric_tolerance',
    `    name: ${name}`,
    `    absolute: ${rng.int(1, 9)}.5`,
    '    output_path: total',
    '    expected_path: total',
    `    threshold: 0.${rng.int(5, 9)}`,
    `    weight: ${rng.int(1, 3)}`,
    '    lower_is_better: false',
    `    timeout_ms: ${rng.int(500, 5000)}`,
  ],
};
const KINDS = Object.keys(TEMPLATES);

/**
 * The seeded mistakes: entry index → how the entry is broken, what kind of mistake it is, and whether
 * the generic schema can see it. `replace` rewrites one line of the entry's nine (index into them).
 */
const MISTAKES = [
  {
    at: 37,
    kind: 'type error (threshold is text)',
    schemaCan: true,
    edit: (lines) => swap(lines, /^    threshold: .*/, '    threshold: high'),
  },
  {
    at: 74,
    kind: 'type error (weight is text)',
    schemaCan: true,
    edit: (lines) => swap(lines, /^    weight: .*/, '    weight: heavy'),
  },
  {
    at: 111,
    kind: 'type error (threshold is a list)',
    schemaCan: true,
    edit: (lines) => swap(lines, /^    threshold: .*/, '    threshold: [1]'),
  },
  {
    at: 148,
    kind: 'type error (timeout_ms is text)',
    schemaCan: true,
    edit: (lines) => swap(lines, /^    weight: .*/, '    timeout_ms: soon'),
  },
  {
    at: 185,
    kind: 'unknown option (did-you-mean)',
    schemaCan: true,
    edit: (lines) => swap(lines, /^    weight: .*/, '    wieght: 2'),
  },
  {
    at: 222,
    kind: 'unknown scorer (did-you-mean)',
    schemaCan: true,
    edit: (lines) => [`  - type: ${misspell(lines[0])}`, ...lines.slice(1)],
  },
  {
    at: 259,
    kind: 'unknown scorer (did-you-mean)',
    schemaCan: true,
    edit: (lines) => [`  - type: ${misspell(lines[0])}`, ...lines.slice(1)],
  },
  { at: 296, kind: 'catastrophic regex', schemaCan: false, edit: (_, name) => regexEntry(name, '(a+)+$') },
  { at: 333, kind: 'catastrophic regex', schemaCan: false, edit: (_, name) => regexEntry(name, '^(\\\\w+\\\\s?)*$') },
  {
    at: 370,
    kind: 'consistency scorer without num_trials',
    schemaCan: false,
    edit: (_, name) => consistencyEntry(name),
  },
  {
    at: 407,
    kind: 'duplicate scorer name',
    schemaCan: false,
    edit: (lines) => [lines[0], '    name: scorer_000', ...lines.slice(2)],
  },
];

function swap(lines, pattern, replacement) {
  const i = lines.findIndex((l) => pattern.test(l));
  const copy = [...lines];
  copy[i === -1 ? lines.length - 1 : i] = replacement;
  return copy;
}

/** The scorer key of a `  - type: <key>` line with two letters swapped. */
function misspell(typeLine) {
  const key = typeLine.replace('  - type: ', '');
  const i = Math.max(1, Math.floor(key.length / 2));
  return `${key.slice(0, i - 1)}${key[i]}${key[i - 1]}${key.slice(i + 1)}`;
}

const regexEntry = (name, pattern) => [
  '  - type: regex',
  `    name: ${name}`,
  `    pattern: "${pattern}"`,
  '    mode: match',
  '    flags: i',
  '    match_timeout_ms: 100',
  '    max_input_chars: 100000',
  '    threshold: 1',
  '    weight: 1',
];
const consistencyEntry = (name) => [
  '  - type: exact_match_consistency',
  `    name: ${name}`,
  '    threshold: 1',
  '    weight: 1',
  '    lower_is_better: false',
  '    timeout_ms: 1000',
  '    # every trial of a case must give the same output',
  '    # (needs num_trials: 2 or more)',
  '    # compared as canonical JSON',
];

/**
 * A run config with `entries` scorer entries. `schemaUri` (an absolute file:// URI) adds the
 * yaml-language-server modeline; `mistakes: false` leaves the seeded mistakes out.
 * Returns the text and where each seeded mistake is (0-based lines of its entry).
 */
export function generateLspConfig({
  seed = 6,
  entries = 500,
  dataset = 'cases-missing.jsonl',
  schemaUri,
  mistakes = true,
} = {}) {
  const rng = makeRng(seed);
  const header = [
    ...(schemaUri === undefined ? ['# (no schema modeline)'] : [`# yaml-language-server: $schema=${schemaUri}`]),
    '# Generated by bench/lsp-config.mjs for the language-server benchmark. Do not edit.',
    'description: Answers of the support bot, checked by many scorers',
    `dataset: ${dataset}`,
    'timeout_ms: 30000',
    'concurrency: 4',
    'pass_criteria:',
    '  threshold: 0.8',
    '',
    'scorers:',
  ];
  const lines = [...header];
  const seeded = [];
  const completionSites = [];
  const byIndex = new Map(mistakes ? MISTAKES.map((m) => [m.at, m]) : []);
  for (let i = 0; i < entries; i++) {
    const name = `scorer_${String(i).padStart(3, '0')}`;
    let body = TEMPLATES[KINDS[i % KINDS.length]](name, rng);
    const mistake = byIndex.get(i);
    if (mistake !== undefined) {
      body = mistake.edit(body, name);
      seeded.push({
        kind: mistake.kind,
        schemaCan: mistake.schemaCan,
        entry: i,
        firstLine: lines.length,
        lastLine: lines.length + ENTRY_LINES - 1,
      });
    }
    // Every 25th entry has a blank line of four spaces where its comment would be: a place where a
    // person is about to type an option key (a completion site).
    if (i % 25 === 12) {
      completionSites.push({ line: lines.length, character: 4, what: 'option key' });
      lines.push('    ');
    } else {
      lines.push(`  # ${KINDS[i % KINDS.length]} scorer ${i}`);
    }
    completionSites.push({ line: lines.length, character: '  - type: '.length, what: 'scorer key' });
    lines.push(...body);
  }
  if (mistakes) {
    seeded.push({
      kind: 'missing dataset file',
      schemaCan: false,
      entry: -1,
      firstLine: header.indexOf(`dataset: ${dataset}`),
      lastLine: header.indexOf(`dataset: ${dataset}`),
    });
  }
  return {
    text: `${lines.join('\n')}\n`,
    lineCount: lines.length,
    seeded,
    completionSites,
    descriptionLine: header.findIndex((l) => l.startsWith('description:')),
  };
}
