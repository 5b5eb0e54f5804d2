/**
 * The run path of the Test Explorer against the real built CLI: fork dist/cli.js with the arguments
 * the extension gives it, decode its event stream, and map the events to test states and messages.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { RunEvent } from '../../protocol/runEvents';
import { runArgs } from '../../extension/runner/cliArgs';
import { startCliRun } from '../../extension/runner/cliProcess';
import { descendantPids } from '../../extension/runner/processTree';
import { RunEventMapper } from '../../extension/testing/runEventMapper';
import { CLI, ensureBuilt, ROOT } from '../support/cli';
import { RecordingSink } from './recordingSink';
import { waitFor } from '../support/waitFor';

const FIXTURES = join(ROOT, 'test', 'fixtures');
let runsDir: string;

before(() => {
  ensureBuilt();
  runsDir = mkdtempSync(join(tmpdir(), 'evallens-ext-runs-'));
});
after(() => rmSync(runsDir, { recursive: true, force: true }));

async function run(configFile: string, options: { caseIds?: string[]; untrusted?: boolean } = {}) {
  const sink = new RecordingSink();
  const mapper = new RunEventMapper(sink);
  const events: RunEvent[] = [];
  let stderr = '';
  const cli = startCliRun(
    CLI,
    runArgs({ configFile, caseIds: options.caseIds ?? [], runsDir, untrusted: options.untrusted ?? false }),
    ROOT,
    {
      onEvent(event) {
        events.push(event);
        mapper.handle(event);
      },
      onStderr: (text) => (stderr += text),
    },
  );
  const exit = await cli.exited;
  return { sink, exit, events, stderr, mapped: mapper.finish() };
}

describe('a run through the CLI, mapped to Test Explorer states', () => {
  it('marks each case of the quick start passed or failed, with durations and the failing reasons at its dataset line', async () => {
    const { sink, exit, mapped } = await run(join(ROOT, 'examples', 'quickstart', 'refunds.eval.yaml'));
    assert.equal(exit.code, 1, 'one case fails on purpose');
    assert.equal(exit.streamError, undefined);
    const states = sink.states();
    assert.deepEqual([...states.keys()].sort(), ['damaged-item', 'refund-method', 'refund-window', 'sale-items']);
    assert.equal(states.get('refund-window')?.kind, 'passed');
    const failed = states.get('sale-items');
    assert.ok(failed?.kind === 'failed', 'sale-items fails');
    assert.ok(failed.durationMs >= 0);
    assert.ok(failed.messages.length >= 1);
    for (const message of failed.messages) {
      assert.match(message.text, /^(contains|edit_similarity|secret_scan) failed\b.*\n\S/);
      assert.equal(message.location?.file, join(ROOT, 'examples', 'quickstart', 'refunds.jsonl'));
      assert.equal(message.location?.line, 3, 'sale-items is the fourth line (0-based 3)');
    }
    assert.equal(mapped.summary?.total, 4);
    assert.deepEqual(mapped.unfinished, []);
    // Every case was started before it ended.
    const started = sink.calls.filter((c) => c.kind === 'started').map((c) => c.caseId);
    assert.deepEqual(started.sort(), [...states.keys()].sort());
  });

  it('runs only the requested case (what "Run case" asks for)', async () => {
    const { sink } = await run(join(ROOT, 'examples', 'quickstart', 'refunds.eval.yaml'), {
      caseIds: ['refund-method'],
    });
    assert.deepEqual([...sink.states().keys()], ['refund-method']);
  });

  it("errors a case id the dataset no longer has with the CLI's one-line reason, before any case runs", async () => {
    const { sink, exit, events, stderr, mapped } = await run(
      join(ROOT, 'examples', 'quickstart', 'refunds.eval.yaml'),
      { caseIds: ['refund-windw'] },
    );
    assert.equal(exit.code, 2, 'a usage error, not a green run of nothing');
    assert.deepEqual(events, []);
    assert.equal(mapped.runId, undefined, 'configRun then errors the requested items with stderr as the message');
    assert.equal(sink.states().size, 0);
    assert.equal(
      stderr.trim(),
      'evallens: --case "refund-windw": the dataset has no case with this id (4 cases); did you mean "refund-window"?; `evallens validate ' +
        join(ROOT, 'examples', 'quickstart', 'refunds.eval.yaml') +
        ' --cases` lists the ids',
    );
  });

  it('gives a failing exact_match a diff message with the expected and actual text', async () => {
    const { sink } = await run(join(FIXTURES, 'extension', 'exact-and-subprocess.eval.yaml'));
    const failed = sink.states().get('different');
    assert.ok(failed?.kind === 'failed');
    const diff = failed.messages.find((m) => m.text.startsWith('exact_match'));
    assert.equal(diff?.expected, 'The answer is 42.');
    assert.equal(diff?.actual, 'The answer is 41.');
    assert.equal(sink.states().get('same')?.kind, 'passed');
  });

  it('in Restricted Mode (--untrusted) skips the subprocess scorer with the trust reason and still scores the rest', async () => {
    const { sink } = await run(join(FIXTURES, 'extension', 'exact-and-subprocess.eval.yaml'), { untrusted: true });
    assert.equal(sink.states().get('same')?.kind, 'passed');
    assert.match(sink.outputOf('same'), /^✓ same · 1 passed, 1 skipped \(subprocess: workspace is not trusted\)\n$/);
  });

  it('errors the malformed JSONL line at its own line while the other cases still run', async () => {
    const { sink } = await run(join(FIXTURES, 'cli', 'malformed-line.eval.yaml'));
    const states = sink.states();
    assert.equal(states.get('first')?.kind, 'passed');
    assert.equal(states.get('third')?.kind, 'failed');
    const broken = [...states.values()].find((s) => s.kind === 'errored');
    assert.ok(broken?.kind === 'errored', 'the malformed line is an errored case');
    assert.equal(broken.messages[0]?.location?.line, 1);
    assert.match(broken.messages[0]?.text ?? '', /^dataset errored\n\S/);
  });

  it('cancels at once: the CLI and the scorer command it started end while the scorer still runs', async () => {
    const sink = new RecordingSink();
    const mapper = new RunEventMapper(sink);
    const args = runArgs({
      configFile: join(FIXTURES, 'extension', 'slow-subprocess.eval.yaml'),
      caseIds: [],
      runsDir,
      untrusted: false,
      concurrency: 1,
    });
    const cli = startCliRun(CLI, args, ROOT, { onEvent: (e) => mapper.handle(e), onStderr: () => undefined });
    const pid = cli.pid;
    assert.ok(pid !== undefined);
    // The scorer's `sh -c "sleep 30; …"` runs in a process group of its own, below the CLI.
    let tree: number[] = [];
    await waitFor(() => (tree = descendantPids(pid)).length >= 2, 'the scorer command to start under the CLI');
    cli.cancel();
    const exit = await cli.exited;
    assert.equal(exit.cancelled, true);
    assert.equal(exit.signal, 'SIGKILL');
    await waitFor(() => tree.every((p) => !isAlive(p)), `the scorer processes ${tree.join(', ')} to end`);
    assert.deepEqual(
      mapper.finish().unfinished,
      ['slow-1'],
      'the running case is reported unfinished (the glue marks it skipped)',
    );
  });
});

/** Whether a process still exists (a zombie counts as ended: it runs nothing). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}
