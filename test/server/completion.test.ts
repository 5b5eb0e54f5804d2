/**
 * Completion at marked cursor positions (`|`), over stdio, on complete and on incomplete YAML.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import {
  type CompletionItem,
  CompletionItemKind,
  CompletionRequest,
  InsertTextFormat,
  type MarkupContent,
  type TextEdit,
} from 'vscode-languageserver/node';
import {
  applyEdits,
  ensureServerBuilt,
  expandSnippet,
  type ServerHandle,
  withCursor,
  withServer,
} from '../support/lspClient';

describe('completion', () => {
  let dir = '';
  before(() => {
    ensureServerBuilt();
    dir = mkdtempSync(join(tmpdir(), 'evallens-completion-'));
    mkdirSync(join(dir, 'data'));
    writeFileSync(join(dir, 'data', 'cases.jsonl'), '');
    writeFileSync(join(dir, 'data', 'notes.txt'), '');
    mkdirSync(join(dir, 'scorers'));
    writeFileSync(join(dir, 'scorers', 'check.py'), '');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  let counter = 0;
  /** The completion items at the `|` of `marked`, in a fresh document. */
  async function itemsAt(server: ServerHandle, marked: string): Promise<{ items: CompletionItem[]; text: string }> {
    const { text, position } = withCursor(marked);
    const uri = pathToFileURL(join(dir, `c${counter++}.eval.yaml`)).href;
    await server.openAndWait(uri, text);
    const result = await server.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position });
    const items = Array.isArray(result) ? result : (result?.items ?? []);
    return { items, text };
  }
  const labels = (items: readonly CompletionItem[]) => items.map((i) => i.label);
  const apply = (text: string, item: CompletionItem | undefined) => {
    assert.ok(item?.textEdit !== undefined && 'range' in item.textEdit, `no text edit: ${JSON.stringify(item)}`);
    return applyEdits(text, [item.textEdit as TextEdit]);
  };

  it('offers the top-level keys not yet present', async () => {
    await withServer(async (server) => {
      const { items } = await itemsAt(server, 'dataset: data/cases.jsonl\n|\nscorers:\n  exact_match: {}\n');
      const offered = labels(items);
      for (const key of ['description', 'cases', 'num_trials', 'pass_criteria', 'dataset_config', 'baseline'])
        assert.ok(offered.includes(key), `missing ${key}: ${offered.join(', ')}`);
      assert.ok(
        !offered.includes('dataset') && !offered.includes('scorers'),
        'keys already present are not offered again',
      );
    });
  });

  it('offers scorer keys from the registry while one is typed, with a summary and a snippet of the required options', async () => {
    await withServer(async (server) => {
      const { items, text } = await itemsAt(server, 'dataset: data/cases.jsonl\nscorers:\n  exact_match: {}\n  reg|');
      const offered = labels(items);
      assert.ok(
        offered.includes('regex') && offered.includes('subprocess') && offered.includes('contains'),
        offered.join(', '),
      );
      assert.ok(!offered.includes('exact_match'), 'a scorer already in the mapping is not offered again');
      const regex = items.find((i) => i.label === 'regex');
      assert.match(String(regex?.detail), /regular expression/);
      assert.equal(regex?.insertTextFormat, InsertTextFormat.Snippet);
      assert.equal(
        expandSnippet(apply(text, regex)),
        'dataset: data/cases.jsonl\nscorers:\n  exact_match: {}\n  regex:\n    pattern: "^\\\\d{3}-\\\\d{4}$"',
      );
      const subprocess = items.find((i) => i.label === 'subprocess');
      assert.match(apply(text, subprocess), /  subprocess:\n    cmd: \$\{1:python3 scorers\/faithfulness.py\}$/);
    });
  });

  it('offers the options of the scorer being edited, on an empty line under its key, without those present', async () => {
    await withServer(async (server) => {
      const { items } = await itemsAt(server, 'dataset: data/cases.jsonl\nscorers:\n  regex:\n    pattern: a\n    |\n');
      const offered = labels(items);
      for (const key of ['mode', 'flags', 'match_all', 'threshold', 'weight', 'output_path'])
        assert.ok(offered.includes(key), `missing ${key}: ${offered.join(', ')}`);
      assert.ok(!offered.includes('pattern'));
      assert.ok(!offered.includes('cmd'), 'options of other scorers are not offered');
    });
  });

  it('offers the options of a list entry by its type, and `type` first in a new entry', async () => {
    await withServer(async (server) => {
      const listed = await itemsAt(
        server,
        'dataset: data/cases.jsonl\nscorers:\n  - type: skills_trajectory\n    enforce_order: true\n    al|\n',
      );
      assert.ok(labels(listed.items).includes('allow_extra_skills'));
      assert.ok(!labels(listed.items).includes('enforce_order'));
      const fresh = await itemsAt(server, 'dataset: data/cases.jsonl\nscorers:\n  - |\n');
      assert.deepEqual(labels(fresh.items), ['type']);
      const typed = await itemsAt(server, 'dataset: data/cases.jsonl\nscorers:\n  - type: sub|\n');
      const subprocess = typed.items.find((i) => i.label === 'subprocess');
      assert.match(apply(typed.text, subprocess), /  - type: subprocess\n    cmd: \$\{1:/);
    });
  });

  it('offers enum values and booleans for a value', async () => {
    await withServer(async (server) => {
      const mode = await itemsAt(
        server,
        'dataset: data/cases.jsonl\nscorers:\n  regex:\n    pattern: a\n    mode: |\n',
      );
      assert.deepEqual(labels(mode.items), ['match', 'full_match', 'no_match']);
      const flag = await itemsAt(
        server,
        'dataset: data/cases.jsonl\nscorers:\n  regex:\n    pattern: a\n    match_all: |\n',
      );
      assert.deepEqual(labels(flag.items), ['true', 'false']);
      const format = await itemsAt(
        server,
        'dataset:\n  path: data/cases.jsonl\n  format: |\nscorers:\n  exact_match: {}\n',
      );
      assert.deepEqual(labels(format.items), ['jsonl', 'json', 'yaml', 'csv', 'lm_eval_results', 'evalhub_results']);
    });
  });

  it('offers file paths relative to the config for path-valued keys and options', async () => {
    await withServer(async (server) => {
      const top = await itemsAt(server, 'dataset: |\nscorers:\n  exact_match: {}\n');
      assert.ok(labels(top.items).includes('data/'), labels(top.items).join(', '));
      const inside = await itemsAt(server, 'dataset: data/|\nscorers:\n  exact_match: {}\n');
      assert.deepEqual(labels(inside.items), ['cases.jsonl'], 'a dataset key offers dataset files only');
      assert.equal(apply(inside.text.replace('|', ''), inside.items[0]).split('\n')[0], 'dataset: data/cases.jsonl');
      const script = await itemsAt(
        server,
        'dataset: data/cases.jsonl\nscorers:\n  json_schema:\n    schema_path: scorers/|\n',
      );
      assert.deepEqual(labels(script.items), ['check.py']);
      const databases = await itemsAt(
        server,
        'dataset_config: data/cases.jsonl\ndatabase_configs:\n  - da|\nscorers:\n  set_match: {}\n',
      );
      assert.ok(labels(databases.items).includes('data/'), labels(databases.items).join(', '));
    });
  });

  it('gives each kind of thing its own item kind, the same wherever it is offered', async () => {
    await withServer(async (server) => {
      const kindsOf = (items: readonly CompletionItem[]) => new Set(items.map((i) => i.kind));
      const scorers = await itemsAt(server, 'dataset: data/cases.jsonl\nscorers:\n  exact_match: {}\n  reg|');
      assert.deepEqual(kindsOf(scorers.items), new Set([CompletionItemKind.Function]), 'scorer keys');
      const typed = await itemsAt(server, 'dataset: data/cases.jsonl\nscorers:\n  - type: reg|\n');
      assert.deepEqual(kindsOf(typed.items), new Set([CompletionItemKind.Function]), "a list entry's type");
      const top = await itemsAt(server, 'dataset: data/cases.jsonl\n|\nscorers:\n  exact_match: {}\n');
      assert.deepEqual(kindsOf(top.items), new Set([CompletionItemKind.Property]), 'run-config keys');
      const nested = await itemsAt(server, 'dataset:\n  path: data/cases.jsonl\n  |\nscorers:\n  exact_match: {}\n');
      assert.deepEqual(kindsOf(nested.items), new Set([CompletionItemKind.Property]), 'nested run-config keys');
      const options = await itemsAt(server, 'dataset: data/cases.jsonl\nscorers:\n  regex:\n    pattern: a\n    |\n');
      assert.deepEqual(kindsOf(options.items), new Set([CompletionItemKind.Field]), 'scorer options');
      const fresh = await itemsAt(server, 'dataset: data/cases.jsonl\nscorers:\n  - |\n');
      assert.deepEqual(kindsOf(fresh.items), new Set([CompletionItemKind.Field]), 'the type key of a list entry');
      const mode = await itemsAt(
        server,
        'dataset: data/cases.jsonl\nscorers:\n  regex:\n    pattern: a\n    mode: |\n',
      );
      assert.deepEqual(kindsOf(mode.items), new Set([CompletionItemKind.EnumMember]), 'enum values');
      const flag = await itemsAt(
        server,
        'dataset: data/cases.jsonl\nscorers:\n  regex:\n    pattern: a\n    match_all: |\n',
      );
      assert.deepEqual(kindsOf(flag.items), new Set([CompletionItemKind.Keyword]), 'true and false');
      const paths = await itemsAt(server, 'dataset: |\nscorers:\n  exact_match: {}\n');
      assert.equal(paths.items.find((i) => i.label === 'data/')?.kind, CompletionItemKind.Folder, 'a folder');
      const files = await itemsAt(server, 'dataset: data/|\nscorers:\n  exact_match: {}\n');
      assert.deepEqual(kindsOf(files.items), new Set([CompletionItemKind.File]), 'a file');
    });
  });

  it("offers the `not-` negation of each boolean-verdict scorer after the scorers, with the negated scorer's documentation", async () => {
    await withServer(async (server) => {
      const { items, text } = await itemsAt(server, 'dataset: data/cases.jsonl\nscorers:\n  reg|');
      const offered = labels(items);
      for (const key of ['not-regex', 'not-contains', 'not-exact_match', 'not-json_schema'])
        assert.ok(offered.includes(key), `missing ${key}: ${offered.join(', ')}`);
      // Negations only of scorers with a yes/no verdict, and none of a scorer that is a negation already.
      for (const key of [
        'not-exact_match_consistency',
        'not-edit_similarity',
        'not-skills_trajectory',
        'not-not_contains',
      ])
        assert.ok(!offered.includes(key), `${key} offered`);
      const regex = items.find((i) => i.label === 'regex');
      const notRegex = items.find((i) => i.label === 'not-regex');
      assert.ok(regex !== undefined && notRegex !== undefined);
      assert.ok(String(regex.sortText) < String(notRegex.sortText), 'the scorer sorts before its negation');
      assert.match(String(notRegex.detail), /^Negation of regex/);
      const documentation = (notRegex.documentation as MarkupContent).value;
      assert.match(
        documentation,
        /^\*\*not-regex\*\* — score 0–1 · EvalBook · negation of `regex`\n\nPasses when `regex` fails and fails when it passes/,
      );
      assert.match(documentation, /\| `mode` \| `match`, `full_match`, `no_match` \| `match` \|/);
      assert.equal(
        expandSnippet(apply(text, notRegex)),
        'dataset: data/cases.jsonl\nscorers:\n  not-regex:\n    pattern: "^\\\\d{3}-\\\\d{4}$"',
      );
    });
  });
});
