/**
 * The rule for every diagnostic the server publishes: it marks the smallest span that names the
 * problem, never a whole block. A problem about the whole file (`missing-dataset`, no `scorers:`) sits
 * on the file's first top-level key; a problem about a mapping or list sits on its key; a dataset
 * case sits on its first line. Checked over every run config in examples/ and the test fixtures, as
 * they are and with each top-level key taken out in turn, over texts whose mistakes are whole blocks,
 * and over the dataset fixtures, all through the real server.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { parseDocument, isMap, isNode } from 'yaml';
import type { Diagnostic } from 'vscode-languageserver/node';
import { documentKind } from '../../server/analysis/documentKind';
import { ensureServerBuilt, messageOf, ROOT, textIn, withServer, type ServerHandle } from '../support/lspClient';

/** How many lines a diagnostic may cover: one. No problem the server reports is about a whole block by design. */
const MAX_LINES = 1;

/** The lines a range covers a character of (a block's range ends at the start of the line after it). */
function coveredLines(diagnostic: Diagnostic): number {
  const { start, end } = diagnostic.range;
  const last = end.character === 0 && end.line > start.line ? end.line - 1 : end.line;
  return last - start.line + 1;
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return yamlFiles(path);
      return /\.ya?ml$/.test(name) ? [path] : [];
    });
}

/** The text with one top-level key (and its value, and the lines they span) taken out. */
function withoutEachTopLevelKey(text: string): { key: string; text: string }[] {
  const doc = parseDocument(text);
  if (!isMap(doc.contents)) return [];
  return doc.contents.items.flatMap((pair) => {
    if (!isNode(pair.key) || pair.key.range === undefined || pair.key.range === null) return [];
    const start = text.lastIndexOf('\n', pair.key.range[0] - 1) + 1;
    const valueEnd = isNode(pair.value) && pair.value.range ? pair.value.range[1] : pair.key.range[1];
    const lineEnd = text.indexOf('\n', Math.max(start, valueEnd - 1));
    const end = lineEnd < 0 ? text.length : lineEnd + 1;
    return [{ key: String(pair.key), text: text.slice(0, start) + text.slice(end) }];
  });
}

/** Configs whose mistakes are whole blocks: each must still be marked on one line. */
const BLOCK_MISTAKES: {
  readonly name: string;
  readonly text: string;
  readonly code: string;
  readonly covers: string;
}[] = [
  {
    name: 'no dataset and no cases',
    text: '# a config\nscorers:\n  exact_match: {}\n  contains:\n    value: x\n',
    code: 'missing-dataset',
    covers: 'scorers',
  },
  {
    name: 'no scorers',
    text: 'dataset: cases.jsonl\nnum_trials: 1\ntimeout_ms: 1000\n',
    code: 'missing-required',
    covers: 'dataset',
  },
  {
    name: 'a list, not a mapping',
    text: '- dataset: cases.jsonl\n- scorers:\n    exact_match: {}\n',
    code: 'schema',
    covers: '- dataset: cases.jsonl',
  },
  {
    name: 'a scorer list item without type',
    text: 'dataset: cases.jsonl\nscorers:\n  - pattern: a\n    mode: full_match\n',
    code: 'missing-required',
    covers: 'pattern: a',
  },
  {
    name: 'scorer options as a list',
    text: 'dataset: cases.jsonl\nscorers:\n  exact_match:\n    - trim\n    - true\n',
    code: 'schema',
    covers: 'exact_match',
  },
  {
    name: 'a mapping where a number goes',
    text: 'dataset: cases.jsonl\nnum_trials:\n  a: 1\n  b: 2\nscorers:\n  exact_match: {}\n',
    code: 'schema',
    covers: 'num_trials',
  },
  {
    name: 'a list where a path goes',
    text: 'dataset:\n  - a.jsonl\n  - b.jsonl\nscorers:\n  exact_match: {}\n',
    code: 'schema',
    covers: 'dataset',
  },
  {
    name: 'scorers as a block of text',
    text: 'dataset: cases.jsonl\nscorers: |\n  exact_match\n  contains\n',
    code: 'schema',
    covers: 'scorers',
  },
  {
    name: 'an inline case that is a list',
    text: 'cases:\n  - - a\n    - b\nscorers:\n  exact_match: {}\n',
    code: 'schema',
    covers: '- a',
  },
  {
    name: 'an EvalBench config without a dataset',
    text: 'database_configs:\n  - db.yaml\nscorers:\n  set_match: {}\n',
    code: 'nothing-to-score',
    covers: 'database_configs',
  },
];

describe('diagnostics mark one line at most', () => {
  let dir = '';
  before(() => {
    ensureServerBuilt();
    dir = mkdtempSync(join(tmpdir(), 'evallens-spans-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const offenders = (name: string, text: string, diagnostics: readonly Diagnostic[]) =>
    diagnostics
      .filter((d) => coveredLines(d) > MAX_LINES)
      .map(
        (d) =>
          `${name}: ${String(d.code)} covers ${coveredLines(d)} lines (${d.range.start.line}–${d.range.end.line}) "${textIn(text, d.range).slice(0, 60)}…": ${messageOf(d).slice(0, 100)}`,
      );

  it('over every config of examples/ and the fixtures, as is and with each top-level key taken out', async () => {
    const configs = [...yamlFiles(join(ROOT, 'examples')), ...yamlFiles(join(ROOT, 'test', 'fixtures'))].filter(
      (file) => documentKind(pathToFileURL(file).href, 'yaml', readFileSync(file, 'utf8'), false) === 'config',
    );
    assert.ok(
      configs.length >= 30,
      `expected the examples and fixtures to hold at least 30 configs, found ${configs.length}`,
    );
    const found: string[] = [];
    let checked = 0;
    const codes = new Set<string>();
    await withServer(async (server: ServerHandle) => {
      for (const file of configs) {
        const uri = pathToFileURL(file).href;
        const text = readFileSync(file, 'utf8');
        const name = relative(ROOT, file);
        const first = await server.openAndWait(uri, text, 'yaml');
        found.push(...offenders(name, text, first.diagnostics));
        // A plain YAML file that loses the key that made it a config is no longer the server's to check.
        for (const variant of withoutEachTopLevelKey(text).filter(
          (v) => documentKind(uri, 'yaml', v.text, false) === 'config',
        )) {
          const { diagnostics } = await server.changeAndWait(uri, variant.text);
          for (const d of diagnostics) codes.add(String(d.code));
          found.push(...offenders(`${name} without ${variant.key}`, variant.text, diagnostics));
          checked++;
        }
      }
    });
    assert.ok(checked > 100, `expected more than 100 variants, checked ${checked}`);
    // The variants reach the file-level problems this rule is about.
    for (const code of ['missing-dataset', 'missing-required', 'nothing-to-score', 'no-scorer-runs'])
      assert.ok(codes.has(code), `no variant gave ${code}: ${[...codes].join(', ')}`);
    assert.deepEqual(found, []);
  });

  it('over mistakes that are whole blocks, each marked on the key or line that names it', async () => {
    await withServer(async (server) => {
      for (const [i, mistake] of BLOCK_MISTAKES.entries()) {
        const { diagnostics } = await server.openAndWait(
          pathToFileURL(join(dir, `block-${i}.eval.yaml`)).href,
          mistake.text,
        );
        assert.deepEqual(offenders(mistake.name, mistake.text, diagnostics), []);
        const found = diagnostics.find((d) => d.code === mistake.code);
        assert.ok(found, `${mistake.name}: expected a ${mistake.code} diagnostic, got ${JSON.stringify(diagnostics)}`);
        assert.equal(
          textIn(mistake.text, found.range),
          mistake.covers,
          `${mistake.name}: what the ${mistake.code} diagnostic marks`,
        );
      }
    });
  });

  it('over the dataset fixtures, each case marked on its first line', async () => {
    const datasets = join(ROOT, 'test', 'fixtures', 'datasets');
    const found: string[] = [];
    let marked = 0;
    await withServer(async (server) => {
      for (const [i, name] of readdirSync(datasets).sort().entries()) {
        const path = join(datasets, name);
        if (!/\.(jsonl|json|ya?ml|csv)$/.test(name)) continue;
        await server.openAndWait(
          pathToFileURL(join(dir, `dataset-${i}.eval.yaml`)).href,
          `dataset: ${JSON.stringify(path)}\nscorers:\n  exact_match: {}\n`,
        );
        const text = readFileSync(path, 'utf8');
        const { diagnostics } = await server.openAndWait(
          pathToFileURL(path).href,
          text,
          name.endsWith('.csv') ? 'csv' : name.endsWith('.jsonl') ? 'jsonl' : 'plaintext',
        );
        marked += diagnostics.length;
        found.push(...offenders(name, text, diagnostics));
      }
    });
    assert.ok(marked > 10, `expected the bad dataset fixtures to give diagnostics, got ${marked}`);
    assert.deepEqual(found, []);
  });
});
