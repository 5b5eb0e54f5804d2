/**
 * A large config's first diagnostics come from its visible part (AnalysisCache.visibleDiagnostics,
 * core/config/visiblePart.ts), then the complete set. The rule: every diagnostic of the first publish
 * is among the complete set's, identical (range, message, code, severity, everything else). Checked in
 * process on every fixture config and on mutated large configs, cut at many lines; then the built
 * server over stdio: a large config publishes its part, then the complete set; a small one once.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { parse, stringify } from 'yaml';
import { HoverRequest, type Diagnostic } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { AnalysisCache } from '../../server/analysis/analysisCache';
import { configDiagnostics } from '../../server/features/diagnostics';
import { ensureServerBuilt, messageOf, ROOT, within, withServer } from '../support/lspClient';
import { seededRandom } from '../support/seededRandom';
import { mutateText } from '../support/mutateText';

const DIR = '/tmp/visible-part';
/** Files that exist for these checks (the others do not). */
const EXISTING = new Set([join(DIR, 'cases.jsonl')]);

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

/**
 * A list-form config with mistakes before and after the cut: unknown options, wrong types, an unknown
 * scorer, a scorer needing trials, names used twice (both within the part, and across the cut),
 * a missing dataset, and pass_criteria.
 */
function largeConfig(entries: number, random: () => number): string {
  const lines = [
    '# a large config',
    'description: many scorers',
    `dataset: ${random() < 0.5 ? 'cases.jsonl' : 'missing.jsonl'}`,
    random() < 0.5 ? 'num_trials: 1' : 'num_trials: 3',
    'pass_criteria:',
    `  threshold: ${random() < 0.8 ? '0.8' : '2'}`,
    '',
    'scorers:',
  ];
  for (let i = 0; i < entries; i++) {
    const name = random() < 0.05 ? `s${Math.floor(random() * entries)}` : `s${i}`;
    const kind = Math.floor(random() * 6);
    lines.push(`  # entry ${i}`);
    if (kind === 0)
      lines.push('  - type: contains', `    name: ${name}`, '    values:', '      - "refund"', '      - order');
    else if (kind === 1)
      lines.push('  - type: regex', `    name: ${name}`, '    pattern: "ORD-\\\\d{6}"', '    flags: i');
    else if (kind === 2) lines.push('  - type: exact_match', `    name: ${name}`, '    mode: text', '    wieght: 2');
    else if (kind === 3) lines.push('  - type: consistency', `    name: ${name}`);
    else if (kind === 4) lines.push('  - type: exact_mtach', `    name: ${name}`);
    else lines.push('  - type: numeric_tolerance', `    name: ${name}`, '    absolute: "wide"', '    threshold: 0.5');
  }
  return `${lines.join('\n')}\n`;
}

const SNIPPETS = [
  ' ',
  '-',
  '- ',
  ':',
  '#',
  '"',
  '&a ',
  '*a',
  '[',
  '{',
  '\n',
  '\n  ',
  '\n- ',
  '|',
  '${SET}',
  '!ENV ',
  '? ',
  '\t',
  'scorers:',
  'name: s1',
  'type: regex\n    pattern: "(a+)+$"',
];

const mutate = (text: string, random: () => number): string => mutateText(text, random, SNIPPETS);

/** One server's caches for every check here (as in a server, the entry cache and engine are shared). */
const cache = new AnalysisCache({ SET: 'value' }, (path) => EXISTING.has(path));
let version = 0;

/**
 * The part's diagnostics at each cut (`visibleLines`), then the complete set, as the server makes
 * them (parts first, then the whole analysis, with the same caches).
 */
function partsAndFull(
  text: string,
  cuts: readonly number[],
): { parts: (Diagnostic[] | undefined)[]; full: Diagnostic[] } {
  version += 1;
  const document = TextDocument.create(
    pathToFileURL(join(DIR, 'config.eval.yaml')).href,
    'evallens-yaml',
    version,
    text,
  );
  const parts = cuts.map((visibleLines) => cache.visibleDiagnostics(document, { minLines: 0, visibleLines }));
  return { parts, full: configDiagnostics(cache.analysis(document)) };
}

function bothOf(text: string, visibleLines: number): { part: Diagnostic[] | undefined; full: Diagnostic[] } {
  const { parts, full } = partsAndFull(text, [visibleLines]);
  return { part: parts[0], full };
}

/**
 * The fixture with its `scorers:` as a block list (each entry three times: names then clash), or
 * undefined when it is not a config with scorers. The fixtures' own texts have no part: their
 * scorers are mappings.
 */
function asLongList(text: string): string | undefined {
  let data: unknown;
  try {
    data = parse(text, { logLevel: 'silent' });
  } catch {
    return undefined;
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return undefined;
  const config = data as Record<string, unknown>;
  const scorers = config['scorers'];
  const list = Array.isArray(scorers)
    ? scorers
    : scorers !== null && typeof scorers === 'object'
      ? Object.entries(scorers).map(([type, options]) => ({ type, ...(options ?? {}) }))
      : undefined;
  if (list === undefined || list.length === 0) return undefined;
  return stringify({ ...config, scorers: [...list, ...list, ...list] }, { aliasDuplicateObjects: false });
}

function assertSubset(part: Diagnostic[], full: Diagnostic[], what: string): void {
  const complete = new Set(full.map((d) => JSON.stringify(d)));
  for (const d of part)
    assert.ok(complete.has(JSON.stringify(d)), `${what}: ${JSON.stringify(d)} is not in the complete set`);
}

describe('visible part first: every diagnostic of the part is in the complete set', () => {
  it('on every fixture config, its scorers as a list repeated 3 times, cut at every line', () => {
    const fixtures = [...yamlFiles(join(ROOT, 'test', 'fixtures')), ...yamlFiles(join(ROOT, 'examples'))];
    let parts = 0;
    for (const file of fixtures) {
      const text = asLongList(readFileSync(file, 'utf8'));
      if (text === undefined) continue;
      const cuts = Array.from({ length: text.split('\n').length }, (_, i) => i + 1);
      const both = partsAndFull(text, cuts);
      both.parts.forEach((part, i) => {
        if (part === undefined) return;
        parts += 1;
        assertSubset(part, both.full, `${file} cut at ${cuts[i]}`);
      });
    }
    assert.ok(parts > 100, `only ${parts} fixture cuts had a part`);
  });

  it('on 400 generated and mutated large configs, cut at many lines', () => {
    const random = seededRandom(6);
    let parts = 0;
    let shown = 0;
    let withheld = 0;
    for (let i = 0; i < 400; i++) {
      const base = largeConfig(40, random);
      const text = i % 4 === 0 ? base : mutate(base, random);
      const cut = 8 + Math.floor(random() * 150);
      const { part, full } = bothOf(text, cut);
      if (part === undefined) continue;
      parts += 1;
      shown += part.length;
      withheld += full.length - part.length;
      assertSubset(part, full, `config ${i} cut at ${cut}: ${JSON.stringify(text.slice(0, 300))}`);
    }
    assert.ok(parts > 150 && shown > 150 && withheld > 150, `parts ${parts}, shown ${shown}, withheld ${withheld}`);
  });

  it('shows nothing of the part when an entry past it has a YAML error or the duplicate is across the cut', () => {
    const text = largeConfig(40, seededRandom(1));
    const broken = `${text}  - type: contains\n    name: "late\n`;
    assert.equal(bothOf(broken, 30).part, undefined);
    // A name used again past the cut: reported at the later entry, past the part.
    const early = '  - type: contains\n    name: early\n    values: [a]\n';
    const clash = `${text.replace('scorers:\n', `scorers:\n${early}`)}${early}`;
    const { part, full } = bothOf(clash, 30);
    assert.ok(part !== undefined);
    assert.ok(full.some((d) => d.code === 'duplicate-scorer-name' && d.range.start.line > 30));
    assert.ok(!part.some((d) => d.code === 'duplicate-scorer-name' && messageOf(d).includes('"early"')));
  });
});

describe('language server: a large config publishes its visible part, then the complete set', () => {
  let dir = '';
  before(() => {
    ensureServerBuilt();
    dir = mkdtempSync(join(tmpdir(), 'evallens-visible-'));
    writeFileSync(join(dir, 'cases.jsonl'), '{"id":"a","output":"x","expected":"x"}\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Every publish for `text` opened in a fresh server, until a hover (which needs the full analysis) has answered twice. */
  async function publishesOf(name: string, text: string): Promise<Diagnostic[][]> {
    const uri = pathToFileURL(join(dir, name)).href;
    let publishes: Diagnostic[][] = [];
    await withServer(
      async (server) => {
        await server.openAndWait(uri, text);
        const hover = { textDocument: { uri }, position: { line: 0, character: 0 } };
        await within(server.connection.sendRequest(HoverRequest.type, hover), 'hover');
        await within(server.connection.sendRequest(HoverRequest.type, hover), 'hover');
        publishes = server.published.filter((p) => p.uri === uri).map((p) => p.diagnostics);
      },
      {},
      { ...process.env, EVALLENS_ANALYSIS_CACHE: 'off' },
    );
    return publishes;
  }

  it('publishes a part of the complete set first, then the complete set', async () => {
    const text = largeConfig(100, seededRandom(3));
    assert.ok(text.split('\n').length > 400);
    const publishes = await publishesOf('large.eval.yaml', text);
    assert.equal(publishes.length, 2, JSON.stringify(publishes.map((p) => p.length)));
    const [part = [], full = []] = publishes;
    assertSubset(part, full, 'first publish');
    assert.ok(part.length > 0 && part.length < full.length, `${part.length} of ${full.length}`);
    assert.ok(part.every((d) => d.range.start.line < 150));
  });

  it('publishes a small config once, as before', async () => {
    const text = largeConfig(10, seededRandom(3));
    const publishes = await publishesOf('small.eval.yaml', text);
    assert.equal(publishes.length, 1);
    assert.ok((publishes[0] ?? []).length > 0);
  });
});
