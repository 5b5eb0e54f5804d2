import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { xmlAttr, xmlText } from '../../../cli/reporters/xml';
import type { CaseEndEvent } from '../../../core/runner/events';
import { sampleEvents } from '../../support/sampleRun';
import { assertGolden, runReporter } from './harness';

/**
 * A structural check of well-formedness: one root, balanced tags, quoted attributes, and no raw `<`
 * or bare `&` in text or attribute values. Returns the element names in document order.
 */
function checkXml(xml: string): string[] {
  const body = xml.replace(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n/, '');
  const token = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  const stack: string[] = [];
  const names: string[] = [];
  let roots = 0;
  let match: RegExpExecArray | null;
  let at = 0;
  while (at < body.length && (match = token.exec(body)) !== null) {
    at = token.lastIndex;
    const [, closing, name, attributes = '', selfClosing, text] = match;
    const data = text ?? attributes;
    assert.doesNotMatch(data, /&(?!(amp|lt|gt|quot|apos|#\d+);)/, `bare & in ${JSON.stringify(data)}`);
    if (text !== undefined) {
      assert.ok(stack.length > 0 || text.trim() === '', 'text outside the root element');
      continue;
    }
    if (name === undefined) continue;
    if (closing === '/') assert.equal(stack.pop(), name, `</${name}> closes another element`);
    else {
      if (stack.length === 0) roots++;
      names.push(name);
      if (selfClosing !== '/') stack.push(name);
    }
  }
  assert.equal(at, body.length, `not XML from: ${JSON.stringify(body.slice(at, at + 40))}`);
  assert.deepEqual(stack, [], 'unclosed elements');
  assert.equal(roots, 1);
  return names;
}

function junitTempDirs(): string[] {
  return readdirSync(tmpdir()).filter((name) => name.startsWith('evallens-junit-'));
}

describe('junit reporter', () => {
  it('matches the golden file', async () => {
    assertGolden('three-cases.junit.xml', await runReporter('junit'));
  });

  it('is well-formed, with one suite, its counts, and a failure, an error and a pass', async () => {
    const xml = await runReporter('junit');
    const names = checkXml(xml);
    assert.deepEqual(names.filter((n) => n === 'testsuite').length, 1);
    assert.equal(names.filter((n) => n === 'testcase').length, 3);
    assert.match(
      xml,
      /<testsuite name="evals\/support\.eval\.yaml" tests="3" failures="1" errors="1" skipped="0" time="1\.234">/,
    );
    assert.match(xml, /<property name="job\.score" value="0\.45"\/>/);
    assert.match(
      xml,
      /<testcase classname="evals\/support\.eval\.yaml" name="grounded" time="0\.004" file="evals\/support\.jsonl" line="1"\/>/,
    );
  });

  it('escapes the five specials, keeps line breaks in attributes, and drops characters XML forbids', async () => {
    const xml = await runReporter('junit');
    assert.ok(xml.includes('message="exact_match: texts differ at character 1"'));
    assert.ok(
      xml.includes(
        'keywords: judge said &quot;no, not grounded&quot; &lt;0/4 keywords&gt; &amp; nothing cited\nsecond line of the reason',
      ),
    );
    assert.equal(xmlAttr(`a&b<c>d"e'f\ng\th\ri`), 'a&amp;b&lt;c&gt;d&quot;e&apos;f&#10;g&#9;h&#13;i');
    assert.equal(xmlText('nul\u0000 bell\u0007 vt\u000b ok\ttab\nline'), 'nul bell vt ok\ttab\nline');
    assert.equal(xmlText('lone \ud800 surrogate, pair \ud83d\ude00, \uffff'), 'lone  surrogate, pair \ud83d\ude00, ');
  });

  it('writes skipped cases as <skipped/> and counts them', async () => {
    const events = sampleEvents();
    const last = events.pop();
    const passed = events.find((e): e is CaseEndEvent => e.type === 'case/end' && e.status === 'passed');
    assert.ok(last && passed);
    events.push({ ...passed, caseId: 'later', index: 3, status: 'skipped', results: [] }, last);
    const xml = await runReporter('junit', { events });
    checkXml(xml);
    assert.match(xml, /<testsuite name="[^"]*" tests="4" failures="1" errors="1" skipped="1"/);
    assert.match(
      xml,
      /<testcase classname="evals\/support\.eval\.yaml" name="later" time="0\.004" file="evals\/support\.jsonl" line="1">\n {6}<skipped\/>\n {4}<\/testcase>/,
    );
  });

  it('writes to the file in `out` and removes its temporary file', async () => {
    const before = new Set(junitTempDirs());
    const dir = mkdtempSync(join(tmpdir(), 'evallens-junit-test-'));
    try {
      const out = join(dir, 'junit.xml');
      assert.equal(await runReporter('junit', { out }), '');
      const xml = readFileSync(out, 'utf8');
      checkXml(xml);
      assert.equal(
        xml,
        readFileSync(join(__dirname, '..', '..', 'fixtures', 'reports', 'three-cases.junit.xml'), 'utf8'),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    assert.deepEqual(
      junitTempDirs().filter((name) => !before.has(name)),
      [],
    );
  });
});
