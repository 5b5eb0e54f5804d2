/**
 * Diagnostics quote keys and paths from the workspace; their controls and bidi characters reach the
 * editor and CI logs escaped (issue 13, item 7), through a real server as an editor drives it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { ensureServerBuilt, messageOf, withServer } from '../support/lspClient';

const FORBIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/u;

describe("diagnostics' text", () => {
  let dir = '';
  before(() => {
    ensureServerBuilt();
    dir = mkdtempSync(join(tmpdir(), 'evallens-diagnostic-text-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('escapes the controls and bidi characters of quoted keys and paths', async () => {
    const text = [
      'dataset: "cases\\u202e\\e[2J.jsonl"',
      '"key\\u2066\\x9b31m字": 1',
      'scorers:',
      '  exact_match: {}',
      '',
    ].join('\n');
    await withServer(async (server) => {
      const { diagnostics } = await server.openAndWait(pathToFileURL(join(dir, 'a.eval.yaml')).href, text);
      const messages = diagnostics.map(messageOf).join('\n');
      assert.match(messages, /key\\u2066\\x9b31m字/);
      assert.match(messages, /cases\\u202e\\x1b\[2J\.jsonl/);
      assert.doesNotMatch(messages, FORBIDDEN);
    });
  });

  it("reports a threshold off its scorer's scale and a pass_criteria.threshold that does nothing (issue 13, item 15)", async () => {
    const text = [
      'cases: [{id: a, output: x, expected: x}]',
      'pass_criteria: {threshold: 0.7}',
      'scorers:',
      '  exact_match: {threshold: 80}',
      '',
    ].join('\n');
    const unused = [
      'cases: [{id: a, output: x, expected: x}]',
      'pass_criteria: {threshold: 0.7}',
      'scorers:',
      '  exact_match: {}',
      '',
    ].join('\n');
    await withServer(async (server) => {
      const off = (await server.openAndWait(pathToFileURL(join(dir, 'off.eval.yaml')).href, text)).diagnostics;
      const offScale = off.find((d) => d.code === 'threshold-off-scale');
      assert.ok(offScale !== undefined, JSON.stringify(off));
      assert.deepEqual(offScale.range.start, { line: 3, character: 27 });
      assert.match(messageOf(offScale), /between 0 and 1/);
      const quiet = (await server.openAndWait(pathToFileURL(join(dir, 'unused.eval.yaml')).href, unused)).diagnostics;
      const nothing = quiet.find((d) => d.code === 'pass-criteria-unused');
      assert.ok(nothing !== undefined, JSON.stringify(quiet));
      assert.match(messageOf(nothing), /does nothing/);
    });
  });
});
