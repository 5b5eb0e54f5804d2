/**
 * Code actions over stdio: each fix is applied to the text as an editor applies its WorkspaceEdit, and
 * the result is checked again by the server.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { type CodeAction, CodeActionKind, CodeActionRequest, type Diagnostic } from 'vscode-languageserver/node';
import { applyWorkspaceEdit, ensureServerBuilt, withServer, type ServerHandle } from '../support/lspClient';

describe('code actions', () => {
  let dir = '';
  before(() => {
    ensureServerBuilt();
    dir = mkdtempSync(join(tmpdir(), 'evallens-actions-'));
    writeFileSync(join(dir, 'cases.jsonl'), '{"id":"a","output":"x","expected":"x"}\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  let counter = 0;

  /** Opens `text`, asks for the actions of the diagnostic with `code`, applies the one titled `title`, and returns the new text and its diagnostics. */
  async function fix(
    server: ServerHandle,
    text: string,
    code: string,
    title: string,
  ): Promise<{ text: string; diagnostics: Diagnostic[] }> {
    const uri = pathToFileURL(join(dir, `a${counter++}.eval.yaml`)).href;
    const { diagnostics } = await server.openAndWait(uri, text);
    const diagnostic = diagnostics.find((d) => d.code === code);
    assert.ok(diagnostic, `no ${code} diagnostic in ${JSON.stringify(diagnostics)}`);
    const actions = (await server.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: diagnostic.range,
      context: { diagnostics: [diagnostic] },
    })) as CodeAction[];
    const chosen = actions.find((a) => a.title === title);
    assert.ok(chosen, `no action "${title}" among ${JSON.stringify(actions.map((a) => a.title))}`);
    const fixed = applyWorkspaceEdit(text, uri, chosen.edit);
    const after = await server.changeAndWait(uri, fixed);
    return { text: fixed, diagnostics: after.diagnostics };
  }

  it('replaces an unknown scorer, key or value with the suggestion', async () => {
    await withServer(async (server) => {
      const scorer = await fix(
        server,
        'dataset: cases.jsonl\nscorers:\n  exact_mach: {}\n',
        'unknown-scorer',
        'Change to "exact_match"',
      );
      assert.equal(scorer.text, 'dataset: cases.jsonl\nscorers:\n  exact_match: {}\n');
      assert.deepEqual(scorer.diagnostics, []);
      const key = await fix(
        server,
        'datset: cases.jsonl\nscorers:\n  exact_match: {}\n',
        'unknown-key',
        'Change to "dataset"',
      );
      assert.deepEqual(key.diagnostics, []);
      const value = await fix(
        server,
        'dataset: cases.jsonl\nscorers:\n  regex:\n    pattern: a\n    mode: fullmatch\n',
        'schema',
        'Change to "full_match"',
      );
      assert.equal(value.text, 'dataset: cases.jsonl\nscorers:\n  regex:\n    pattern: a\n    mode: full_match\n');
      assert.deepEqual(value.diagnostics, []);
    });
  });

  it('suggests the `not-` key a typo of one meant, and fixes it', async () => {
    await withServer(async (server) => {
      const mapping = await fix(
        server,
        'dataset: cases.jsonl\nscorers:\n  not-regx:\n    pattern: a\n',
        'unknown-scorer',
        'Change to "not-regex"',
      );
      assert.equal(mapping.text, 'dataset: cases.jsonl\nscorers:\n  not-regex:\n    pattern: a\n');
      assert.deepEqual(mapping.diagnostics, []);
      const listed = await fix(
        server,
        'dataset: cases.jsonl\nscorers:\n  - type: not_contain\n    value: x\n',
        'unknown-scorer',
        'Change to "not_contains"',
      );
      assert.deepEqual(listed.diagnostics, []);
      const underscore = await fix(
        server,
        'dataset: cases.jsonl\nscorers:\n  not_exact_mach: {}\n',
        'unknown-scorer',
        'Change to "not-exact_match"',
      );
      assert.deepEqual(underscore.diagnostics, []);
    });
  });

  it('answers only the kinds an editor asks for (`only`), as VS Code asks for quick fixes alone', async () => {
    await withServer(async (server) => {
      const uri = pathToFileURL(join(dir, `only${counter++}.eval.yaml`)).href;
      const { diagnostics } = await server.openAndWait(uri, 'dataset: cases.jsonl\nscorers:\n  exact_mach: {}\n');
      const diagnostic = diagnostics.find((d) => d.code === 'unknown-scorer');
      assert.ok(diagnostic);
      const ask = async (only?: string[]) =>
        (await server.connection.sendRequest(CodeActionRequest.type, {
          textDocument: { uri },
          range: diagnostic.range,
          context: { diagnostics: [diagnostic], ...(only === undefined ? {} : { only }) },
        })) as CodeAction[];
      const all = await ask();
      assert.ok(
        all.some((a) => a.kind === CodeActionKind.QuickFix) &&
          all.some((a) => a.kind === CodeActionKind.RefactorRewrite),
        JSON.stringify(all.map((a) => a.kind)),
      );
      assert.ok((await ask([CodeActionKind.QuickFix])).every((a) => a.kind === CodeActionKind.QuickFix));
      assert.deepEqual(
        (await ask([CodeActionKind.Refactor])).map((a) => a.kind),
        [CodeActionKind.RefactorRewrite],
      );
    });
  });

  it('adds a missing required option, in the mapping and the list form', async () => {
    await withServer(async (server) => {
      const empty = await fix(
        server,
        'dataset: cases.jsonl\nscorers:\n  subprocess:\n',
        'missing-required',
        'Add option "cmd"',
      );
      assert.equal(
        empty.text,
        'dataset: cases.jsonl\nscorers:\n  subprocess:\n    cmd: python3 scorers/faithfulness.py\n',
      );
      assert.deepEqual(empty.diagnostics, []);
      const beside = await fix(
        server,
        'dataset: cases.jsonl\nscorers:\n  - type: regex\n    mode: no_match\n',
        'missing-required',
        'Add option "pattern"',
      );
      assert.equal(
        beside.text,
        'dataset: cases.jsonl\nscorers:\n  - type: regex\n    mode: no_match\n    pattern: "^\\\\d{3}-\\\\d{4}$"\n',
      );
      assert.deepEqual(beside.diagnostics, []);
    });
  });

  it('removes one of two conflicting options', async () => {
    await withServer(async (server) => {
      const skills = await fix(
        server,
        'dataset: cases.jsonl\nscorers:\n  skills_trajectory:\n    enforce_order: true\n    allow_extra_skills: true\n',
        'conflicting-options',
        'Remove option "enforce_order"',
      );
      assert.equal(skills.text, 'dataset: cases.jsonl\nscorers:\n  skills_trajectory:\n    allow_extra_skills: true\n');
      assert.deepEqual(skills.diagnostics, []);
      const flow = await fix(
        server,
        'dataset: cases.jsonl\nscorers:\n  regex: {pattern: a, patterns: [b]}\n',
        'conflicting-options',
        'Remove option "pattern"',
      );
      assert.equal(flow.text, 'dataset: cases.jsonl\nscorers:\n  regex: {patterns: [b]}\n');
      assert.deepEqual(flow.diagnostics, []);
    });
  });

  it('sets num_trials for a consistency scorer', async () => {
    await withServer(async (server) => {
      const trials = await fix(
        server,
        'dataset: cases.jsonl\nscorers:\n  exact_match_consistency: {}\n',
        'needs-trials',
        'Set num_trials to 2',
      );
      assert.equal(trials.text, 'dataset: cases.jsonl\nnum_trials: 2\nscorers:\n  exact_match_consistency: {}\n');
      assert.deepEqual(trials.diagnostics, []);
    });
  });

  it('keeps every comment through the conversion, both ways', async () => {
    await withServer(async (server) => {
      const mapping = [
        'dataset: cases.jsonl',
        'scorers:',
        '  # deterministic checks first',
        '  contains:            # every answer must state the window',
        '    value: "30 days"',
        '    # case-sensitive on purpose',
        '    case_sensitive: true',
        '  exact_match: null    # the canonical answer',
        '  # nothing after this',
        '',
      ].join('\n');
      const uri = pathToFileURL(join(dir, 'comments.eval.yaml')).href;
      await server.openAndWait(uri, mapping);
      const ask = async (text: string, line: number) => {
        await server.changeAndWait(uri, text);
        const actions = (await server.connection.sendRequest(CodeActionRequest.type, {
          textDocument: { uri },
          range: { start: { line, character: 2 }, end: { line, character: 2 } },
          context: { diagnostics: [] },
        })) as CodeAction[];
        const refactor = actions.find((a) => a.kind === CodeActionKind.RefactorRewrite);
        assert.ok(refactor, JSON.stringify(actions.map((a) => a.title)));
        return applyWorkspaceEdit(text, uri, refactor.edit);
      };
      const comments = (text: string) =>
        text
          .split('\n')
          .map((l) => /#.*$/.exec(l)?.[0])
          .filter((c) => c !== undefined);
      const list = await ask(mapping, 3);
      assert.deepEqual(comments(list), comments(mapping), list);
      assert.deepEqual((await server.changeAndWait(uri, list)).diagnostics, [], list);
      const back = await ask(list, 4);
      assert.deepEqual(comments(back), comments(mapping), back);
      assert.deepEqual((await server.changeAndWait(uri, back)).diagnostics, [], back);
    });
  });

  it('converts scorers to the list form and back, as a refactoring offered in scorers:', async () => {
    await withServer(async (server) => {
      const mapping =
        'dataset: cases.jsonl\nscorers:\n  regex:\n    pattern: a\n    mode: no_match\n  exact_match: null\n';
      const uri = pathToFileURL(join(dir, 'form.eval.yaml')).href;
      await server.openAndWait(uri, mapping);
      const ask = async (line: number) =>
        (await server.connection.sendRequest(CodeActionRequest.type, {
          textDocument: { uri },
          range: { start: { line, character: 2 }, end: { line, character: 2 } },
          context: { diagnostics: [] },
        })) as CodeAction[];
      assert.deepEqual(await ask(0), [], 'nothing is offered outside scorers:');
      const [toList] = await ask(2);
      assert.equal(toList?.kind, CodeActionKind.RefactorRewrite);
      const list = applyWorkspaceEdit(mapping, uri, toList?.edit);
      assert.equal(
        list,
        'dataset: cases.jsonl\nscorers:\n  - type: regex\n    pattern: a\n    mode: no_match\n  - type: exact_match\n',
      );
      assert.deepEqual((await server.changeAndWait(uri, list)).diagnostics, []);
      const [toMapping] = await ask(3);
      const back = applyWorkspaceEdit(list, uri, toMapping?.edit);
      assert.equal(
        back,
        'dataset: cases.jsonl\nscorers:\n  regex:\n    pattern: a\n    mode: no_match\n  exact_match: {}\n',
      );
      assert.deepEqual((await server.changeAndWait(uri, back)).diagnostics, []);
    });
  });
});
