import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { markdownCode, markdownText } from '../../../shared/text/markdown';
import { markdownHtml, tableRows, visibleText } from '../../support/renderMarkdown';

/** Ids and reasons a dataset may hold: every one must show exactly as written. */
const HOSTILE = [
  'sale-items',
  'a_b*c*',
  'back\\slash\\-x',
  'tick`in',
  '``double``',
  '`starts',
  'ends`',
  '[link](https://example.com)',
  '![img](x.png)',
  'https://example.com/a_b',
  'www.example.com',
  'me@example.com',
  '<b>bold</b> <img src=x onerror=alert(1)>',
  '&amp; &#65;',
  '# heading',
  '1. first',
  '- item',
  '> quote',
  '~~struck~~',
  '$(alert) icon',
  ' padded ',
  '   ',
];

/** The code element marked makes of `markdown`, as visible text; fails when it is not exactly one code span. */
function codeText(markdown: string): string {
  const html = markdownHtml(markdown).trim();
  const match = /^<p><code>([\s\S]*)<\/code><\/p>$/.exec(html);
  assert.ok(match !== null, `expected one code span, got ${html}`);
  return visibleText(match[1] ?? '');
}

describe('markdownCode (text in a code span)', () => {
  for (const id of HOSTILE) {
    it(`shows ${JSON.stringify(id)} as written`, () => assert.equal(codeText(markdownCode(id)), id));
  }

  it('does not escape inside the span: sale-items stays sale-items', () => {
    assert.equal(markdownCode('sale-items'), '`sale-items`');
  });

  it('keeps a line break visible and the span on one line', () => {
    const md = markdownCode('a\nb\r\nc');
    assert.ok(!/[\r\n]/.test(md));
    assert.equal(codeText(md), 'a\\nb\\r\\nc');
  });

  it('writes control and bidi characters as visible escapes', () => {
    assert.equal(codeText(markdownCode('x\u001b[31m\u202ey')), 'x\\x1b[31m\\u202ey');
  });

  it('shows an empty text as an empty-looking span, not as two backticks', () => {
    assert.equal(codeText(markdownCode('')), ' ');
  });
});

describe('markdownText (text in prose)', () => {
  for (const text of HOSTILE) {
    it(`shows ${JSON.stringify(text)} as written, with no markup`, () => {
      const html = markdownHtml(`reason: ${markdownText(text)}`).trim();
      assert.match(html, /^<p>[^<]*<\/p>$/, `expected plain text in one paragraph, got ${html}`);
      assert.equal(visibleText(html), `reason: ${text}`);
    });
  }

  it('puts several lines on one, as Markdown shows them', () => {
    assert.equal(visibleText(markdownHtml(markdownText('one\ntwo\r\nthree'))).trim(), 'one two three');
  });
});

describe('both in a table', () => {
  it('keeps each hostile id and reason in its own cell', () => {
    const texts = [...HOSTILE, 'pipe|in|id', 'line\nbreak'];
    const lines = [
      '| id | reason |',
      '|---|---|',
      ...texts.map((t) => `| ${markdownCode(t, { inTable: true })} | ${markdownText(t)} |`),
    ];
    const rows = tableRows(markdownHtml(lines.join('\n')));
    assert.equal(rows.length, texts.length);
    rows.forEach((cells, i) => {
      const text = texts[i] ?? '';
      assert.equal(cells.length, 2, `row ${i} (${JSON.stringify(text)}) has ${cells.length} cells`);
      // A table cell's text is trimmed by the renderer, so the prose cell compares trimmed.
      assert.equal(cells[0], text.includes('\n') ? text.replace(/\n/g, '\\n') : text);
      assert.equal(cells[1], text.replace(/\n/g, ' ').trim());
    });
  });
});
