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
});
