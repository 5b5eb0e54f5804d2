/** The Markdown pieces hovers are built from hold any text: a value with backticks, a description with pipes and line breaks. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { markdownTable, tableCell } from '../../server/features/markdownText';
import { markdownCode as codeSpan } from '../../shared/text/markdown';

describe('Markdown text for hovers', () => {
  it('keeps a table cell one cell: pipes escaped once, line breaks made spaces', () => {
    assert.equal(tableCell('a | b'), 'a \\| b');
    assert.equal(tableCell('already \\| escaped'), 'already \\| escaped');
    assert.equal(tableCell('first line\r\n  second line\nthird'), 'first line second line third');
    assert.equal(tableCell(codeSpan('x|y')), '`x\\|y`');
  });

  it("makes a table whose rows each have the header's cells", () => {
    const table = markdownTable(['Option', 'Description'], [[codeSpan('mode'), 'a | b\nc']]);
    assert.equal(table, '| Option | Description |\n| --- | --- |\n| `mode` | a \\| b c |');
  });
});
