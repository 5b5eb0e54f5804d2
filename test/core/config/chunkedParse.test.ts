/**
 * The piece-wise parse (chunkedParse.ts) and the entry cache (entryCache.ts) must give exactly what a
 * whole parse and a fresh check give: same syntax problems, same data, same nodes at the same offsets,
 * same problems with the same ranges. Compared on every YAML fixture, on a large generated config and
 * on thousands of mutations of them (seeded, so a failure replays).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isMap, isScalar, isSeq, visit } from 'yaml';
import { YamlChunkCache } from '../../../core/config/chunkedParse';
import { ScorerEntryCache } from '../../../core/config/entryCache';
import { parseRunConfig } from '../../../core/config/parseRunConfig';
import { YamlSource } from '../../../core/config/yamlSource';
import { mutateText } from '../../support/mutateText';

const ROOT = join(__dirname, '..', '..', '..');
const FILE = '/tmp/chunked/config.eval.yaml';
const ENV = { SET: 'value' };

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

/** A list-form config of `entries` scorers, a few with `${VAR}`s and comments between entries. */
function generated(entries: number): string {
  const lines = [
    '# a generated config',
    'description: many scorers',
    'dataset: cases.jsonl',
    'timeout_ms: 30000',
    '',
    'scorers:',
  ];
  for (let i = 0; i < entries; i++) {
    lines.push(`  # entry ${i}`);
    if (i % 3 === 0)
      lines.push(
        '  - type: contains',
        `    name: c${i}`,
        '    values:',
        '      - "refund"',
        `      - ${i % 7 === 0 ? '"${SET}"' : "'order'"}`,
        `    threshold: 0.${(i % 9) + 1}`,
      );
    else if (i % 3 === 1)
      lines.push(
        '  - type: regex',
        `    name: r${i}`,
        '    pattern: "ORD-\\\\d{6}"',
        '    flags: i',
        `    weight: ${(i % 3) + 1}`,
      );
    else
      lines.push(
        '  - type: exact_match',
        `    name: e${i}`,
        '    mode: text',
        '    trim: true',
        i % 11 === 0 ? '    wieght: 2' : '    weight: 1',
      );
  }
  return `${lines.join('\n')}\n`;
}

/** Everything of a parse that checks read: problems, data, and every node's kind, offsets and value. */
function observe(source: YamlSource): string {
  const nodes: string[] = [];
  visit(source.doc, {
    Node: (_key, node) => {
      const kind = isMap(node) ? 'map' : isSeq(node) ? 'seq' : isScalar(node) ? 'scalar' : 'alias';
      nodes.push(
        `${kind}${JSON.stringify(node.range?.slice(0, 2))}${isScalar(node) ? JSON.stringify(node.value) : ''}`,
      );
    },
  });
  const syntax = source.syntaxProblems();
  const expanded = source.expandEnvironment(ENV);
  return JSON.stringify({ syntax, nodes, expanded, data: source.toData() });
}

function makeRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

const SNIPPETS = [
  ' ',
  '  ',
  '-',
  '- ',
  ':',
  '#',
  '"',
  "'",
  '&a ',
  '*a',
  '[',
  ']',
  '{',
  '}',
  ',',
  '\n',
  '\n  ',
  '\n- ',
  '|',
  '>',
  '${SET}',
  '${UNSET}',
  '!ENV ',
  '? ',
  '---\n',
  'scorers:',
  '\n  - type: contains\n',
  '\t',
  '\r\n',
  'dataset: again\n',
];

const mutate = (text: string, random: () => number): string =>
  mutateText(text, random, SNIPPETS, { insert: 0.45, insertOrDelete: 0.75 });

/** A warm cache: the text's pieces parsed (as the language server does when idle after a first check). */
function warmed(cache: YamlChunkCache, text: string): void {
  void new YamlSource(text, FILE, cache);
  while (cache.warm(1000));
}

describe('piece-wise YAML parse', () => {
  const fixtures = [...yamlFiles(join(ROOT, 'test', 'fixtures')), ...yamlFiles(join(ROOT, 'examples'))].map((f) =>
    readFileSync(f, 'utf8'),
  );
  const big = generated(300);

  it('reads every fixture as a whole parse does', () => {
    const cache = new YamlChunkCache();
    for (const text of fixtures)
      assert.equal(observe(new YamlSource(text, FILE, cache)), observe(new YamlSource(text, FILE)));
  });

  it('parses a large config whole the first time, then re-parses only the piece an edit touched', () => {
    const cache = new YamlChunkCache();
    warmed(cache, big);
    const pieces = cache.size;
    assert.ok(pieces > 250, `expected the entries to be kept as pieces, got ${pieces}`);
    const edited = big.replace('    weight: 2\n', '    weight: 9.5\n');
    assert.notEqual(edited, big);
    assert.equal(observe(new YamlSource(edited, FILE, cache)), observe(new YamlSource(edited, FILE)));
    assert.equal(cache.size, pieces + 1);
  });

  it('reads 3,000 mutated configs as a whole parse does', () => {
    const cache = new YamlChunkCache();
    warmed(cache, big);
    const random = makeRandom(6);
    const corpus = [...fixtures.filter((t) => t.includes('scorers')), big];
    for (let i = 0; i < 3000; i++) {
      const text = mutate(corpus[Math.floor(random() * corpus.length)] ?? '', random);
      assert.equal(
        observe(new YamlSource(text, FILE, cache)),
        observe(new YamlSource(text, FILE)),
        `mutation ${i}: ${JSON.stringify(text.slice(0, 200))}`,
      );
    }
  });
});

describe('scorer entry cache', () => {
  it('gives the problems and ranges of a fresh check, edit after edit', () => {
    const chunks = new YamlChunkCache();
    const entries = new ScorerEntryCache();
    const random = makeRandom(11);
    const base = generated(120);
    warmed(chunks, base);
    for (let i = 0; i < 300; i++) {
      // Every other check is a clean one-line edit (the cache is used), the others a mutation.
      const text = i % 2 === 0 ? base.replace(`name: e${(i % 40) * 3 + 2}\n`, `name: e${i}x\n`) : mutate(base, random);
      const cached = parseRunConfig(text, FILE, ENV, {
        source: new YamlSource(text, FILE, chunks),
        entryCache: entries,
        fileExists: () => true,
      });
      const fresh = parseRunConfig(text, FILE, ENV, { fileExists: () => true });
      assert.deepEqual(cached.problems, fresh.problems, `edit ${i}`);
    }
    assert.ok(entries.size > 0);
  });
});
