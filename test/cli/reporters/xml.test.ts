/** JUnit text: illegal XML characters dropped; terminal-acting and bidi characters as character references (issue 13, item 7). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { xmlAttr, xmlText } from '../../../cli/reporters/xml';

describe('JUnit XML text', () => {
  it('drops characters XML 1.0 forbids', () => {
    assert.equal(xmlText('a\u0000b\u001b[2Jc\ufffe'), 'ab[2Jc');
    assert.equal(xmlAttr('a\u0007b'), 'ab');
  });

  it('writes C1, DEL, bidi and format characters as references, so the parsed text is unchanged and a printed file is inert', () => {
    assert.equal(xmlText('x\u009b31m\u202ey\u007f\u2066\u200bz'), 'x&#x9b;31m&#x202e;y&#x7f;&#x2066;&#x200b;z');
    assert.equal(xmlAttr('id\u202e\u2028'), 'id&#x202e;&#x2028;');
  });

  it('keeps ordinary Unicode, emoji joiners included', () => {
    const text = 'café 日本 👨\u200d👩\u200d👧 ❤\ufe0f';
    assert.equal(xmlText(text), text);
    assert.equal(xmlAttr(text), text);
  });
  it('writes every ASCII character as before its plain-text fast path: specials as entities, C0 dropped, DEL as a reference', () => {
    const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
    for (let code = 0; code < 0x80; code++) {
      const ch = String.fromCharCode(code);
      const kept = code >= 0x20 && code < 0x7f ? (entities[ch] ?? ch) : code === 0x7f ? '&#x7f;' : '';
      const text = ch === '\t' || ch === '\n' ? ch : ch === '\r' ? '&#13;' : kept;
      const attribute = ch === '\t' ? '&#9;' : ch === '\n' ? '&#10;' : ch === '\r' ? '&#13;' : kept;
      assert.equal(xmlText(`a${ch}b`), `a${text}b`, `xmlText of U+${code.toString(16)}`);
      assert.equal(xmlAttr(`a${ch}b`), `a${attribute}b`, `xmlAttr of U+${code.toString(16)}`);
    }
  });
});
