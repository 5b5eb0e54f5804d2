/** What the extension prints into the Test Results terminal and the status bar (issue 13, item 7). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { terminalText } from '../../extension/testing/resultText';
import { runSummaryText } from '../../extension/testing/runSummaryText';

describe('text for the Test Results terminal', () => {
  it('escapes escape sequences and bidi controls from case ids and reasons, with CRLF line ends', () => {
    assert.equal(terminalText('✗ case\u001b[2J\u202e: reason\r\nnext\n'), '✗ case\\x1b[2J\\u202e: reason\r\nnext\r\n');
    assert.equal(terminalText('a\rb\u009b1m'), 'a\\rb\\x9b1m');
  });

  it('keeps ordinary Unicode', () => {
    assert.equal(terminalText('日本 café 🙂'), '日本 café 🙂');
  });

  it("escapes the config's name in the status bar's tooltip", () => {
    const text = runSummaryText(
      { passed: 1, failed: 0, errored: 0, skipped: 0, total: 1 },
      false,
      'evil\u202e.eval.yaml',
    );
    assert.match(text.tooltip, /^Last run of evil\\u202e\.eval\.yaml:/);
  });
});
