import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRunConfig } from '../../../core/config/parseRunConfig';

const FILE = '/work/evals/target.eval.yaml';
const HEAD = ['cases:', '  - {id: a, input: "x"}', 'scorers:', '  exact_match: {}'];

/** Problems as `line:col code: message` (1-based), the way a person reads them. */
function problems(lines: readonly string[], env: Record<string, string> = {}): string[] {
  const parsed = parseRunConfig([...HEAD, ...lines].join('\n'), FILE, env);
  return parsed.problems.map((p) => `${p.range.start.line + 1}:${p.range.start.column + 1} ${p.code}: ${p.message}`);
}

describe('`target:` in a run config', () => {
  it("reads a command target with its defaults: the config's folder and time limit, auto format, recorded outputs kept", () => {
    const parsed = parseRunConfig(
      [...HEAD, 'timeout_ms: 12000', 'target:', '  cmd: python3 agent.py'].join('\n'),
      FILE,
      {},
    );
    assert.deepEqual(parsed.problems, []);
    const target = parsed.config?.target;
    assert.ok(target?.kind === 'cmd');
    assert.deepEqual(
      {
        cmd: target.cmd,
        cwd: target.cwd,
        format: target.format,
        timeoutMs: target.timeoutMs,
        replaceRecorded: target.replaceRecorded,
        at: target.range.start.line + 1,
      },
      { cmd: 'python3 agent.py', cwd: '/work/evals', format: 'auto', timeoutMs: 12000, replaceRecorded: false, at: 6 },
    );
  });

  it('reads an HTTP target and keeps its header templates, so no secret is in the loaded config', () => {
    const lines = [
      'target:',
      '  http:',
      '    url: http://127.0.0.1:8080/chat',
      '    headers: {Authorization: "Bearer {{env.API_KEY}}"}',
      '    body: {prompt: "{{input}}"}',
      '  output_path: choices[0].message.content',
      '  timeout_ms: 5000',
    ];
    const parsed = parseRunConfig([...HEAD, ...lines].join('\n'), FILE, { API_KEY: 'secret-value' });
    assert.deepEqual(parsed.problems, []);
    const target = parsed.config?.target;
    assert.ok(target?.kind === 'http');
    assert.deepEqual(
      {
        method: target.method,
        headers: target.headers,
        body: target.body,
        outputPath: target.outputPath,
        timeoutMs: target.timeoutMs,
      },
      {
        method: 'POST',
        headers: { Authorization: 'Bearer {{env.API_KEY}}' },
        body: { prompt: '{{input}}' },
        outputPath: 'choices[0].message.content',
        timeoutMs: 5000,
      },
    );
    assert.equal(JSON.stringify(parsed.config).includes('secret-value'), false);
  });

  it('needs exactly one of cmd and http, and suggests known keys', () => {
    assert.deepEqual(problems(['target:', '  timeout_ms: 100']), [
      '5:1 missing-required: `target` needs "cmd" or "http"',
    ]);
    assert.deepEqual(problems(['target:', '  cmd: a', '  http: {url: "http://x/"}']), [
      '5:1 conflicting-options: `target` takes "cmd" or "http", not both',
    ]);
    assert.deepEqual(problems(['target:', '  cmd: a', '  output_pth: answer']), [
      '7:3 unknown-key: unknown key "output_pth" in `target`; did you mean "output_path"?',
    ]);
    assert.deepEqual(problems(['target:', '  http: {url: "http://x/", metod: GET}']), [
      '6:28 unknown-key: unknown key "metod" in `target.http`; did you mean "method"?',
    ]);
  });

  it('points at a placeholder that names no case field, an env placeholder outside headers, and a bad field path', () => {
    assert.deepEqual(problems(['target:', '  http:', '    url: http://x/chat', '    body: {prompt: "{{inptu}}"}']), [
      '8:20 target: `target.http.body.prompt`: the placeholder {{inptu}} names no case field: expected one of {{id}}, {{input}}, {{context}}, {{metadata}}',
    ]);
    assert.deepEqual(problems(['target:', '  http:', '    url: "http://x/chat?key={{env.KEY}}"'], { KEY: 'k' }), [
      '7:10 target: `target.http.url`: {{env.KEY}}: environment variables are read in headers only, so a secret never travels in a URL or a body',
    ]);
    assert.deepEqual(problems(['target:', '  cmd: a', '  output_path: "a..b"']), [
      '7:16 target: `target.output_path`: the field path "a..b" is malformed at character 2 (expected e.g. answer or choices[0].message.content)',
    ]);
    assert.deepEqual(problems(['target:', '  cmd: a', '  format: text', '  trace_path: trace']), [
      '8:15 target: `target.trace_path` picks a field of a JSON answer, and `format: text` never reads the answer as JSON',
    ]);
  });

  it('says when a header reads an unset variable, without its value, and checks the URL, header names and GET bodies', () => {
    assert.deepEqual(
      problems([
        'target:',
        '  http:',
        '    url: http://x/',
        '    headers: {Authorization: "Bearer {{env.MISSING_KEY}}"}',
      ]),
      [
        '8:30 unresolved-variable: header Authorization reads the environment variable MISSING_KEY, which is not set (set it before the run)',
      ],
    );
    assert.deepEqual(problems(['target:', '  http:', '    url: ftp://x/']), [
      '7:10 target: `target.http.url` must be an absolute http:// or https:// URL (e.g. http://127.0.0.1:8080/chat)',
    ]);
    assert.deepEqual(problems(['target:', '  http:', '    url: http://x/', '    headers: {"Bad Header": v}']), [
      '8:15 target: `target.http.headers`: "Bad Header" is not a valid header name (letters, digits and -)',
    ]);
    assert.deepEqual(
      problems(['target:', '  http:', '    url: http://x/', '    method: GET', '    body: {q: "{{input}}"}']),
      ['9:5 target: `target.http.body`: a GET request sends no body (use POST, or put the fields in the URL)'],
    );
    assert.deepEqual(problems(['target:', '  http:', '    url: http://x/', '    method: get']), [
      '8:13 schema: `target.http.method` must be one of "GET", "POST", "PUT", "PATCH", "DELETE"; got "get"; did you mean "GET" or "PUT"?',
    ]);
  });
});
