import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { UNTRUSTED_REASON } from '../../../core/runner/scoreCase';
import { AGENT, loadConfig, NODE, outcomes, runWithTarget } from './targetRun';
import { isGone } from '../../support/processes';
import { waitFor } from '../../support/waitFor';

const dir = mkdtempSync(join(tmpdir(), 'evallens-cmd-target-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const target = (extra: readonly string[] = []) => [
  'target:',
  `  cmd: ${JSON.stringify(`"${NODE}" "${AGENT}"`)}`,
  ...extra.map((l) => `  ${l}`),
];

describe('a command target', () => {
  it('produces text and JSON outputs that exact_match scores', async () => {
    const config = loadConfig(dir, [
      'cases:',
      '  - {id: text, input: "hello", expected: "HELLO", metadata: {mode: text}}',
      '  - {id: text-wrong, input: "hello", expected: "hello", metadata: {mode: text}}',
      '  - {id: json, input: "hi", expected: {text: "HI", length: 2}, metadata: {mode: json}}',
      ...target(['output_path: answer', 'trace_path: trace']),
      'scorers:',
      '  exact_match: {}',
    ]);
    // output_path applies to every case: the text case has no JSON answer, so it is an error.
    const results = await runWithTarget(config, { env: process.env });
    assert.deepEqual(outcomes(results), [
      ['json', 'exact_match', 'pass'],
      ['text', 'exact_match', 'error'],
      ['text-wrong', 'exact_match', 'error'],
    ]);
    assert.match(
      results.find((r) => r.caseId === 'text')?.reason ?? '',
      /answer is text, not JSON, so output_path "answer" selects nothing/,
    );

    const plain = loadConfig(dir, [
      'cases:',
      '  - {id: text, input: "hello", expected: "HELLO", metadata: {mode: text}}',
      '  - {id: text-wrong, input: "hello", expected: "hello", metadata: {mode: text}}',
      ...target(),
      'scorers:',
      '  exact_match: {}',
    ]);
    assert.deepEqual(outcomes(await runWithTarget(plain, { env: process.env })), [
      ['text', 'exact_match', 'pass'],
      ['text-wrong', 'exact_match', 'fail'],
    ]);
  });

  it('gives the command the case as JSON on stdin: id, input, context and metadata, never expected', async () => {
    const config = loadConfig(dir, [
      'cases:',
      '  - id: c1',
      '    input: {question: "q"}',
      '    context: ["doc"]',
      '    expected: {id: c1, input: {question: "q"}, context: ["doc"], metadata: {mode: echo-stdin}}',
      '    metadata: {mode: echo-stdin}',
      ...target(['format: json']),
      'scorers:',
      '  exact_match: {}',
    ]);
    assert.deepEqual(outcomes(await runWithTarget(config, { env: process.env })), [['c1', 'exact_match', 'pass']]);
  });

  it('makes a crashing case an error quoting its stderr, an empty answer an error, and lets the other cases pass', async () => {
    const config = loadConfig(dir, [
      'cases:',
      '  - {id: ok, input: "a", expected: "A"}',
      '  - {id: crash, input: "a", expected: "A", metadata: {mode: crash}}',
      '  - {id: empty, input: "a", expected: "A", metadata: {mode: empty}}',
      ...target(),
      'scorers:',
      '  exact_match: {}',
      '  contains: {values: ["A"]}',
    ]);
    const results = await runWithTarget(config, { env: process.env });
    assert.deepEqual(outcomes(results), [
      ['crash', 'contains', 'error'],
      ['crash', 'exact_match', 'error'],
      ['empty', 'contains', 'error'],
      ['empty', 'exact_match', 'error'],
      ['ok', 'contains', 'pass'],
      ['ok', 'exact_match', 'pass'],
    ]);
    for (const r of results.filter((x) => x.caseId === 'crash'))
      assert.equal(r.reason, 'the target command exited with code 3; stderr: "boom: the model is unavailable"');
    for (const r of results.filter((x) => x.caseId === 'empty')) assert.equal(r.reason, 'the target answered nothing');
  });

  it('stops a hanging command at its time limit, with its whole process group, and says so', async () => {
    const pids = join(dir, 'hang.pids');
    const config = loadConfig(dir, [
      'cases:',
      '  - {id: hang, input: "a", expected: "A", metadata: {mode: hang}}',
      '  - {id: ok, input: "a", expected: "A"}',
      ...target(['timeout_ms: 4000']),
      'scorers:',
      '  exact_match: {}',
    ]);
    const results = await runWithTarget(config, { env: { ...process.env, TARGET_PIDS: pids } });
    assert.deepEqual(outcomes(results), [
      ['hang', 'exact_match', 'error'],
      ['ok', 'exact_match', 'pass'],
    ]);
    assert.equal(
      results.find((r) => r.caseId === 'hang')?.reason,
      'the target did not answer within its time limit of 4000 ms and was stopped',
    );
    const [parent, grandchild] = readFileSync(pids, 'utf8').trim().split('\n').map(Number);
    assert.ok(parent !== undefined && grandchild !== undefined);
    await waitFor(() => isGone(parent) && isGone(grandchild), 'the hanging command and its child to be gone', 10_000);
  });

  it('runs only for cases without a recorded output, unless replace_recorded, and once per trial', async () => {
    const marker = join(dir, 'ran-once');
    const cases = [
      'cases:',
      '  - {id: recorded, input: "a", output: "A", expected: "A"}',
      '  - {id: live, input: "b", expected: "B"}',
    ];
    const config = loadConfig(dir, [...cases, ...target(), 'num_trials: 2', 'scorers:', '  exact_match: {}']);
    const results = await runWithTarget(config, { env: { ...process.env, TARGET_MARKER: marker } });
    assert.equal(results.length, 4);
    assert.ok(results.every((r) => r.status === 'pass'));
    assert.deepEqual(readFileSync(marker, 'utf8').split('\n').filter(Boolean), ['live', 'live']);

    const everyCase = join(dir, 'ran-every');
    const replacing = loadConfig(dir, [
      ...cases,
      ...target(['replace_recorded: true']),
      'scorers:',
      '  exact_match: {}',
    ]);
    await runWithTarget(replacing, { env: { ...process.env, TARGET_MARKER: everyCase } });
    assert.deepEqual(readFileSync(everyCase, 'utf8').split('\n').filter(Boolean).sort(), ['live', 'recorded']);
  });

  it('is never started in a run without trust: every result of its cases is skipped', async () => {
    const marker = join(dir, 'untrusted-ran');
    const config = loadConfig(dir, [
      'cases:',
      '  - {id: a, input: "a", expected: "A"}',
      '  - {id: b, input: "b", expected: "B"}',
      ...target(),
      'scorers:',
      '  exact_match: {}',
      '  contains: {values: ["A"]}',
    ]);
    const results = await runWithTarget(config, { env: { ...process.env, TARGET_MARKER: marker }, trusted: false });
    assert.equal(results.length, 4);
    for (const r of results) assert.deepEqual([r.status, r.reason], ['skipped', UNTRUSTED_REASON]);
    assert.equal(existsSync(marker), false, 'the target command never ran');
  });
});
