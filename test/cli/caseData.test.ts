/**
 * `evallens validate <config> --case-data <id>`: the one case the results view's detail pane shows,
 * read by the CLI as a run reads it and printed as one JSON line (protocol/caseData.ts), so the
 * extension never loads a config on the editor's thread.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseCaseLookup } from '../../protocol/caseData';
import { ensureBuilt, runCli } from '../support/cli';

let dir = '';
let config = '';

before(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'evallens-case-data-'));
  config = join(dir, 'agent.eval.yaml');
  const records = [
    {
      id: 'plain',
      input: 'q',
      output: 'bold \u001b[1m and \u202e reversed',
      expected: 'fine',
      metadata: { topic: 'refunds' },
    },
    { id: '-dash', output: 'an id that starts with a dash' },
    {
      id: 'agent',
      output: 'done',
      trace: { steps: [{ type: 'tool_call', name: 'search', arguments: { q: 'flights' } }] },
    },
  ];
  writeFileSync(join(dir, 'cases.jsonl'), `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  writeFileSync(config, 'dataset: cases.jsonl\nscorers:\n  exact_match: {}\n');
});

after(() => rmSync(dir, { recursive: true, force: true }));

describe('evallens validate --case-data', () => {
  it('prints the case as one JSON line that reads back to the same values, with nothing a terminal acts on left raw', async () => {
    const run = await runCli(['validate', config, '--case-data', 'plain'], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim().split('\n').length, 1);
    assert.doesNotMatch(run.stdout, /[\u001b\u202e]/, 'escapes and bidi controls are spelled as \\u escapes');
    assert.deepEqual(parseCaseLookup(run.stdout.trim()), {
      ok: true,
      data: {
        id: 'plain',
        input: 'q',
        output: 'bold \u001b[1m and \u202e reversed',
        expected: 'fine',
        metadata: { topic: 'refunds' },
      },
    });
  });

  it('gives the trace in the engine\'s model; an id starting with "-" is given as --case-data=<id>', async () => {
    const agent = parseCaseLookup(
      (await runCli(['validate', config, '--case-data', 'agent'], { cwd: dir })).stdout.trim(),
    );
    assert.ok(agent?.ok === true);
    assert.equal(agent.data.traceSteps?.[0]?.kind, 'tool_call');
    const dash = parseCaseLookup((await runCli(['validate', config, '--case-data=-dash'], { cwd: dir })).stdout.trim());
    assert.deepEqual(dash, { ok: true, data: { id: '-dash', output: 'an id that starts with a dash' } });
  });

  it('a case the dataset does not have is an answer saying so, with exit code 2', async () => {
    const run = await runCli(['validate', config, '--case-data', 'nobody'], { cwd: dir });
    assert.equal(run.code, 2);
    assert.deepEqual(parseCaseLookup(run.stdout.trim()), {
      ok: false,
      reason: `no case "nobody" in ${join(dir, 'cases.jsonl')} now (the dataset may have changed since the run)`,
    });
  });

  it('is listed in `validate --help`', async () => {
    const run = await runCli(['validate', '--help'], { cwd: dir });
    assert.match(run.stdout, /--case-data <id>/);
  });
});
