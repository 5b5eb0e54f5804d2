/**
 * The visible part of a large config (core/config/visiblePart.ts): which texts have one, where it
 * ends, and that the line check of the entries it leaves out never passes an entry that YAML would
 * refuse (a YAML error there makes the whole analysis report only that, so the part's problems
 * would not be among the whole's). test/server/visiblePart.test.ts checks the rule end to end.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDocument, visit, isAlias } from 'yaml';
import { isPlainItem, VISIBLE_LINES, visiblePartOf } from '../../../core/config/visiblePart';
import { seededRandom } from '../../support/seededRandom';
import { mutateText } from '../../support/mutateText';

/** A list-form config of `entries` scorers of 8 lines each after a 6-line header. */
function largeConfig(entries: number, entry = plainEntry): string {
  const lines = [
    '# a large config',
    'description: many scorers',
    'dataset: cases.jsonl',
    'timeout_ms: 30000',
    '',
    'scorers:',
  ];
  for (let i = 0; i < entries; i++) lines.push(...entry(i));
  return `${lines.join('\n')}\n`;
}

function plainEntry(i: number): string[] {
  return [
    `  # entry ${i}`,
    '  - type: json_schema',
    `    name: s${i}`,
    '    schema:',
    '      type: object',
    '      required: [answer, "total"]',
    "      properties: {answer: string, total: 'number'}",
    `    weight: ${(i % 3) + 1}`,
  ];
}

const SNIPPETS = [
  ' ',
  '  ',
  '-',
  '- ',
  ':',
  ': ',
  '#',
  ' #',
  '"',
  "'",
  '\\',
  '&a ',
  '*a',
  '[',
  ']',
  '{',
  '}',
  ',',
  '\n',
  '\n  ',
  '\n      ',
  '\n- ',
  '|',
  '>',
  '!ENV ',
  '? ',
  '---',
  '...',
  '%',
  '@',
  '`',
  'true',
  'True',
  'name',
  'name: x\n    ',
  '\u00e9',
  'x'.repeat(1100),
];

const mutate = (text: string, random: () => number): string => mutateText(text, random, SNIPPETS);

function cleanYaml(text: string): boolean {
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false, logLevel: 'error' });
  let alias = false;
  visit(doc, {
    Node: (_key, node) => {
      if (isAlias(node) || node.anchor !== undefined) alias = true;
    },
  });
  return doc.errors.length === 0 && doc.warnings.length === 0 && !alias;
}

describe('visible part of a large config', () => {
  it('has none for a small config, a text with ${VAR}, or a config whose scorers are a mapping', () => {
    assert.equal(visiblePartOf(largeConfig(20)), undefined);
    assert.equal(visiblePartOf(largeConfig(200).replace('cases.jsonl', '${DATA}/cases.jsonl')), undefined);
    const mapping = `dataset: c.jsonl\nscorers:\n${Array.from({ length: 500 }, (_, i) => `  s${i}: {}`).join('\n')}\n`;
    assert.equal(visiblePartOf(mapping), undefined);
  });

  it('ends at the first scorer entry that starts past the visible lines', () => {
    const text = largeConfig(200);
    const part = visiblePartOf(text);
    assert.ok(part !== undefined);
    const line = text.slice(0, part.end).split('\n').length - 1;
    // Entries are 8 lines from line 6: the last kept starts before VISIBLE_LINES, the next at or after it.
    assert.ok(line >= VISIBLE_LINES && line < VISIBLE_LINES + 8, `cut at line ${line}`);
    // A comment line goes with the entry above it.
    assert.match(text.slice(part.end), /^ {2}- type: json_schema\n {4}name: s18\n/);
  });

  it('has none when an entry it would leave out is not plain YAML', () => {
    const text = largeConfig(200);
    const edits: [string, string][] = [
      ['    name: s150\n', '    name: "s150\n'],
      ['    name: s150\n', '    name: s150\n    name: again\n'],
      ['    name: s150\n', '    name: &a s150\n'],
      ['    name: s150\n', '    name: s150\n      more: 2\n'],
      ['    name: s150\n', '    name: s150 |\n'],
    ];
    for (const [from, to] of edits) {
      const edited = text.replace(from, to);
      assert.notEqual(edited, text);
      assert.equal(visiblePartOf(edited), undefined, to);
    }
  });

  it('passes only entries that YAML parses with no error, warning or alias (5,000 mutated entries)', () => {
    const random = seededRandom(18);
    let passed = 0;
    for (let i = 0; i < 5000; i++) {
      const entry = `${plainEntry(i).slice(1).join('\n')}\n  # after\n`;
      const text = mutate(entry, random);
      if (!text.startsWith('  - ')) continue;
      if (isPlainItem({ start: 0, text }, 2)) {
        passed += 1;
        assert.ok(cleanYaml(text), `mutation ${i} passed the check but YAML refuses it: ${JSON.stringify(text)}`);
      }
    }
    assert.ok(passed > 500, `only ${passed} mutations passed: the check refuses too much to be tested`);
  });
});
