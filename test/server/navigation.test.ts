/** Hover, document symbols and go to definition, over stdio. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import {
  DefinitionRequest,
  type DocumentSymbol,
  DocumentSymbolRequest,
  HoverRequest,
  type Location,
  type MarkupContent,
} from 'vscode-languageserver/node';
import { ScorerRegistry } from '../../core/scorers/registry';
import { scorerSetFor } from '../../core/config/evalbenchCompat';
import { ensureServerBuilt, textIn, withCursor, withServer, type ServerHandle } from '../support/lspClient';

describe('hover, outline and navigation', () => {
  let dir = '';
  before(() => {
    ensureServerBuilt();
    dir = mkdtempSync(join(tmpdir(), 'evallens-navigation-'));
    writeFileSync(join(dir, 'cases.jsonl'), '{"id":"a","output":"x","expected":"x"}\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  let counter = 0;

  async function hoverAt(server: ServerHandle, marked: string): Promise<{ value: string; covers: string } | null> {
    const { text, position } = withCursor(marked);
    const uri = pathToFileURL(join(dir, `h${counter++}.eval.yaml`)).href;
    await server.openAndWait(uri, text);
    const hover = await server.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
    if (hover === null) return null;
    return {
      value: (hover.contents as MarkupContent).value,
      covers: hover.range === undefined ? '' : textIn(text, hover.range),
    };
  }

  it('hovers a scorer key with a summary, then its options as a table, then the rest and an example', async () => {
    await withServer(async (server) => {
      const hover = await hoverAt(server, 'dataset: cases.jsonl\nscorers:\n  reg|ex:\n    pattern: a\n');
      assert.ok(hover !== null);
      assert.equal(hover.covers, 'regex');
      // The header, the summary, then the table.
      assert.match(
        hover.value,
        /^\*\*regex\*\* — score 0–1 · EvalBook\n\nPasses when the output matches a regular expression: found anywhere, matching the whole output, or not found\.\n\n\| Option \|/,
      );
      assert.match(hover.value, /\n\| Option \| Type \| Default \| Description \|\n\| --- \| --- \| --- \| --- \|\n/);
      assert.match(
        hover.value,
        /\n\| `pattern` \| string \| required \| The regular expression \(ECMAScript syntax, without slashes; compiled with the `u` flag\)\. \|\n/,
      );
      assert.match(
        hover.value,
        /\n\| `mode` \| `match`, `full_match`, `no_match` \| `match` \| `match`: the pattern is found anywhere in the output; `full_match`: it matches the whole output; `no_match`: it is found nowhere\. \|\n/,
      );
      // The long description comes after the table, not before it.
      const table = hover.value.indexOf('| Option |');
      assert.ok(
        hover.value.indexOf('Passes when the output text satisfies the pattern') > table,
        'the rest follows the table',
      );
      assert.ok(hover.value.indexOf('Every scorer also takes `name`, `threshold`') > table);
      assert.match(
        hover.value,
        /\*\*Example\*\*\n\n```yaml\nscorers:\n  regex:\n    pattern: "\^order #\\\\d\+ confirmed"\n    flags: i\n```/,
      );
      const listed = await hoverAt(server, 'dataset: cases.jsonl\nscorers:\n  - type: skills_traj|ectory\n');
      assert.match(listed?.value ?? '', /^\*\*skills_trajectory\*\* — score 0–100 · EvalBench/);
    });
  });

  it("hovers a `not-` key as the negation of its scorer, with that scorer's options, in both forms", async () => {
    await withServer(async (server) => {
      const hover = await hoverAt(server, 'dataset: cases.jsonl\nscorers:\n  not-con|tains:\n    value: refund\n');
      assert.equal(hover?.covers, 'not-contains');
      assert.match(
        hover?.value ?? '',
        /^\*\*not-contains\*\* — score 0–1 · EvalBook · negation of `contains`\n\nPasses when `contains` fails and fails when it passes/,
      );
      assert.match(hover?.value ?? '', /\n\| `value` \|/);
      const listed = await hoverAt(server, 'dataset: cases.jsonl\nscorers:\n  - type: not-re|gex\n    pattern: a\n');
      assert.match(listed?.value ?? '', /^\*\*not-regex\*\* — .* · negation of `regex`/);
      // A scorer of its own whose key starts with not_ is not described as a negation.
      const own = await hoverAt(server, 'dataset: cases.jsonl\nscorers:\n  not_con|tains:\n    value: refund\n');
      assert.doesNotMatch(own?.value ?? '', /negation of/);
    });
  });

  it("keeps every scorer's options table one row per option, whatever its text holds (pipes, line breaks, backticks)", async () => {
    const cells = (row: string) => row.split(/(?<!\\)\|/).length - 2;
    await withServer(async (server) => {
      for (const [family, head] of [
        ['native', 'dataset: cases.jsonl'],
        ['evalbench', 'dataset_config: cases.jsonl'],
      ] as const) {
        const registry = family === 'native' ? new ScorerRegistry() : scorerSetFor('evalbench').registry;
        for (const key of registry.keys()) {
          const hover = await hoverAt(server, `${head}\nscorers:\n  |${key}: {}\n`);
          assert.ok(hover !== null, `${family} ${key}: no hover`);
          const options = Object.keys((registry.get(key)?.schema['properties'] as object | undefined) ?? {}).length;
          // The options table: from its header to the first line that is no row (a description may hold tables of its own).
          const lines = hover.value.split('\n');
          const start = lines.findIndex((line) => line.startsWith('| Option |'));
          const end = lines.findIndex((line, i) => i > start && !line.startsWith('|'));
          const rows = start < 0 ? [] : lines.slice(start, end < 0 ? lines.length : end);
          // A header, a rule and one row per option of its own; every row whole, with its four cells.
          assert.equal(rows.length, options === 0 ? 0 : options + 2, `${family} ${key}: ${rows.join('\n')}`);
          for (const row of rows) {
            assert.equal(cells(row), 4, `${family} ${key}: ${row}`);
            assert.ok(row.endsWith(' |'), `${family} ${key}: ${row}`);
          }
        }
      }
    });
  });

  it('hovers an option and a top-level key with its description and default', async () => {
    await withServer(async (server) => {
      const option = await hoverAt(
        server,
        'dataset: cases.jsonl\nscorers:\n  regex:\n    pattern: a\n    match_time|out_ms: 10\n',
      );
      assert.equal(option?.covers, 'match_timeout_ms');
      assert.match(
        option?.value ?? '',
        /^\*\*match_timeout_ms\*\* \(integer\), default `100`\n\nTime limit for matching one pattern/,
      );
      const common = await hoverAt(
        server,
        'dataset: cases.jsonl\nscorers:\n  regex:\n    pattern: a\n    wei|ght: 2\n',
      );
      assert.match(common?.value ?? '', /\*\*weight\*\* \(number\), default `1`/);
      const top = await hoverAt(server, 'num_tri|als: 2\ndataset: cases.jsonl\nscorers:\n  exact_match: {}\n');
      assert.match(top?.value ?? '', /How many times each case is scored/);
    });
  });

  it('lists scorers and inline cases as document symbols', async () => {
    await withServer(async (server) => {
      const uri = pathToFileURL(join(dir, 'symbols.eval.yaml')).href;
      await server.openAndWait(
        uri,
        'cases:\n  - id: first\n    output: x\n  - output: y\nscorers:\n  - type: regex\n    name: strict\n    pattern: a\n  - type: exact_match\n',
      );
      const symbols = (await server.connection.sendRequest(DocumentSymbolRequest.type, {
        textDocument: { uri },
      })) as DocumentSymbol[];
      assert.deepEqual(
        symbols.map((s) => s.name),
        ['cases', 'scorers'],
      );
      assert.deepEqual(
        symbols[0]?.children?.map((s) => s.name),
        ['first', 'case 2'],
      );
      assert.deepEqual(
        symbols[1]?.children?.map((s) => [s.name, s.detail]),
        [
          ['regex', 'strict'],
          ['exact_match', ''],
        ],
      );
      assert.deepEqual(symbols[1]?.children?.[0]?.selectionRange.start, { line: 5, character: 10 });
    });
  });

  it('goes from a dataset path to the file', async () => {
    await withServer(async (server) => {
      const { text, position } = withCursor('dataset: cas|es.jsonl\nscorers:\n  exact_match: {}\n');
      const uri = pathToFileURL(join(dir, 'definition.eval.yaml')).href;
      await server.openAndWait(uri, text);
      const location = (await server.connection.sendRequest(DefinitionRequest.type, {
        textDocument: { uri },
        position,
      })) as Location | null;
      assert.equal(location?.uri, pathToFileURL(join(dir, 'cases.jsonl')).href);
      const none = await server.connection.sendRequest(DefinitionRequest.type, {
        textDocument: { uri },
        position: { line: 2, character: 4 },
      });
      assert.equal(none, null);
    });
  });
});
