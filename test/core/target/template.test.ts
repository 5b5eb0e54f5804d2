import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readAnswer } from '../../../core/target/answer';
import { casePayload, parseTemplate, renderJson, renderText, type TemplatePart } from '../../../core/target/template';

const evalCase = {
  id: 'c1',
  input: { question: 'why?', n: 2 },
  expected: 'secret expected',
  metadata: { lang: 'en', tags: ['a', 'b'] },
};
const scope = { fields: casePayload(evalCase), env: { KEY: 'k-123' } };

function parts(text: string, allowEnv = false): TemplatePart[] {
  const parsed = parseTemplate(text, allowEnv);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.message);
  return parsed.parts;
}

describe('body, URL and header templates', () => {
  it('gives the target id, input, context and metadata, never the expected value', () => {
    assert.deepEqual(casePayload(evalCase), {
      id: 'c1',
      input: { question: 'why?', n: 2 },
      metadata: { lang: 'en', tags: ['a', 'b'] },
    });
    assert.deepEqual(casePayload({ id: 'bare' }), { id: 'bare', input: null });
    assert.equal(parseTemplate('{{expected}}', false).ok, false);
  });

  it('keeps the JSON type of a whole-string placeholder and writes values as text inside a longer string', () => {
    assert.deepEqual(
      renderJson(
        {
          q: '{{input}}',
          n: '{{ input.n }}',
          tag: '{{metadata.tags[1]}}',
          text: 'n={{input.n}} {{metadata.tags}}',
          fixed: 3,
          list: ['{{id}}'],
        },
        scope,
      ),
      {
        q: { question: 'why?', n: 2 },
        n: 2,
        tag: 'b',
        text: 'n=2 ["a","b"]',
        fixed: 3,
        list: ['c1'],
      },
    );
    assert.equal(renderJson('Answer: {{input.question}}', scope), 'Answer: why?');
  });

  it('encodes URL values, reads env placeholders in headers only, and names a missing field or variable without values', () => {
    assert.equal(
      renderText(parts('http://x/{{metadata.lang}}?q={{input.question}}'), scope, encodeURIComponent),
      'http://x/en?q=why%3F',
    );
    assert.equal(renderText(parts('Bearer {{env.KEY}}', true), scope), 'Bearer k-123');
    assert.throws(() => renderText(parts('{{env.OTHER}}', true), scope), {
      message: 'the environment variable OTHER that {{env.OTHER}} reads is not set',
    });
    assert.throws(() => renderJson('{{metadata.missing}}', scope), {
      message: 'the case has no metadata.missing for the placeholder {{metadata.missing}}',
    });
    assert.equal(parseTemplate('{{env.KEY}}', false).ok, false);
    assert.deepEqual(parseTemplate('a {{ b', false), {
      ok: false,
      message: 'a `{{` or `}}` is not part of a placeholder (expected {{field}})',
    });
  });
});

describe("a target's answer", () => {
  const auto = { format: 'auto' as const };
  it('is JSON when it parses, else text without one trailing newline', () => {
    assert.deepEqual(readAnswer('{"a": 1}\n', auto), { output: { a: 1 } });
    assert.deepEqual(readAnswer('42', auto), { output: 42 });
    assert.deepEqual(readAnswer('line one\nline two\n\n', auto), { output: 'line one\nline two\n' });
    assert.deepEqual(readAnswer('windows\r\n', auto), { output: 'windows' });
    assert.deepEqual(readAnswer('42\n', { format: 'text' }), { output: '42' });
  });

  it('is an error when empty, when `format: json` does not parse, or when output_path finds nothing — quoting none of it', () => {
    assert.throws(() => readAnswer('\n', auto), { message: 'the target answered nothing' });
    assert.throws(() => readAnswer('private words', { format: 'json' }), {
      message: "the target's answer is not valid JSON (format: json)",
    });
    assert.throws(() => readAnswer('{"b": "private"}', { format: 'auto', outputPath: 'a' }), {
      message: 'the target\'s answer has no field at output_path "a"',
    });
    assert.deepEqual(
      readAnswer('{"a": {"b": [5]}, "t": ["x"]}', { format: 'auto', outputPath: 'a.b[0]', tracePath: 't' }),
      { output: 5, trace: ['x'] },
    );
    assert.deepEqual(readAnswer('{"a": 1}', { format: 'auto', outputPath: 'a', tracePath: 'missing' }), { output: 1 });
  });
});
