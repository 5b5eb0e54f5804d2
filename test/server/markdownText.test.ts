/** The Markdown pieces hovers are built from hold any text: a value with backticks, a description with pipes and line breaks. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { codeSpan, markdownTable, tableCell } from '../../server/features/markdownText';

describe('Markdown text for hovers', () => {
  it('fences a code span with more backticks than the text holds in a row, on one line', () => {
    assert.equal(codeSpan('match'), '`match`');
    assert.equal(codeSpan('a`b'), '``a`b``');
    assert.equal(codeSpan('``x'), '``` ``x ```');
    assert.equal(codeSpan('one\ntwo'), '`one two`');
  });

  it('keeps a table cell one cell: pipes escaped once, line breaks made spaces', () => {
    assert.equal(tableCell('a | b'), 'a \\| b');
    assert.equal(tableCell('already \\| escaped'), 'already \\| escaped');
    assert.equal(tableCell('first line\r\n  second line\nthird'), 'first line second line third');
    assert.equal(tableCell(codeSpan('x|y')), '`x\\|y`');
  });

  it('makes a table whose rows each have the header\'s cells', () => {
    const table = markdownTable(['Option', 'Description'], [[codeSpan('mode'), 'a | b\nc']]);
    assert.equal(table, '| Option | Description |\n| --- | --- |\n| `mode` | a \\| b c |');
  });
});
