import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { EvalCase, Json } from '../../../core/case';
import { chainPreparers } from '../../../core/runner/chainPreparers';
import type { CmdTargetConfig } from '../../../core/target/targetConfig';
import { targetPreparer } from '../../../core/target/targetPreparer';
import { traceOf } from '../../../core/trace/traceOf';
import { AGENT, NODE } from './targetRun';
import { isGone } from '../../support/processes';
import { waitFor } from '../../support/waitFor';

const dir = mkdtempSync(join(tmpdir(), 'evallens-target-preparer-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const range = {
  file: join(dir, 'target.eval.yaml'),
  start: { offset: 0, line: 0, column: 0 },
  end: { offset: 0, line: 0, column: 0 },
};
function cmdTarget(extra: Partial<CmdTargetConfig> = {}): CmdTargetConfig {
  return {
    kind: 'cmd',
    cmd: `"${NODE}" "${AGENT}"`,
    cwd: dir,
    format: 'auto',
    timeoutMs: 20_000,
    replaceRecorded: false,
    range,
    ...extra,
  };
}

async function prepared(
  evalCase: EvalCase,
  config = cmdTarget(),
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<EvalCase> {
  const preparer = targetPreparer(config, { env });
  try {
    return await preparer.prepare(evalCase, new AbortController().signal);
  } finally {
    await preparer.close();
  }
}

function latencyOf(trace: Json | undefined): unknown {
  return trace !== null && typeof trace === 'object' && !Array.isArray(trace)
    ? (trace as { [key: string]: Json })['latency_ms']
    : undefined;
}

describe('the target preparer', () => {
  it('says what it reaches: a command runs workspace code, an HTTP target the network', () => {
    assert.equal(targetPreparer(cmdTarget(), { env: {} }).reaches, 'workspace-code');
    const http = targetPreparer(
      {
        kind: 'http',
        url: 'http://127.0.0.1:1/',
        method: 'POST',
        headers: {},
        format: 'auto',
        timeoutMs: 1000,
        replaceRecorded: false,
        range,
      },
      { env: {} },
    );
    assert.equal(http.reaches, 'network');
  });

  it("records the call's wall time as the trace's latency_ms when the case has no trace", async () => {
    const result = await prepared({ id: 'a', input: 'x' });
    assert.equal(result.output, 'X');
    const latency = latencyOf(result.trace);
    assert.equal(typeof latency, 'number');
    assert.ok((latency as number) >= 0);
    const lookup = traceOf(result);
    assert.ok(lookup.ok);
    assert.equal(lookup.trace.latencyMs, latency);
  });

  it('adds latency_ms to a recorded object trace, and leaves a list trace and one with its own latency as they are', async () => {
    const steps = [{ type: 'tool_call', name: 'search' }];
    const withSteps = await prepared({ id: 'a', input: 'x', trace: { steps } });
    assert.deepEqual((withSteps.trace as { steps: Json }).steps, steps);
    assert.equal(typeof latencyOf(withSteps.trace), 'number');

    const list = ['search', 'answer'];
    assert.deepEqual((await prepared({ id: 'a', input: 'x', trace: list })).trace, list);
    const own = { steps, latency_ms: 1234 };
    assert.deepEqual((await prepared({ id: 'a', input: 'x', trace: own })).trace, own);
    // An object that is no trace stays one (the scorers say why), rather than becoming a trace of latency.
    const unknown = { foo: 1 };
    assert.deepEqual((await prepared({ id: 'a', input: 'x', trace: unknown })).trace, unknown);
  });

  it('takes the output and the trace from a JSON answer by output_path and trace_path', async () => {
    const result = await prepared(
      { id: 'a', input: 'hey', metadata: { mode: 'json' } },
      cmdTarget({ outputPath: 'answer.text', tracePath: 'trace' }),
    );
    assert.equal(result.output, 'HEY');
    const lookup = traceOf(result);
    assert.ok(lookup.ok);
    assert.deepEqual(
      lookup.trace.steps.map((s) => (s.kind === 'tool_call' ? s.name : s.kind)),
      ['upper'],
    );
    assert.equal(typeof lookup.trace.latencyMs, 'number');
  });

  it('keeps `format: text` answers as text, even when they look like JSON', async () => {
    const result = await prepared({ id: 'a', input: 'x', metadata: { mode: 'json' } }, cmdTarget({ format: 'text' }));
    assert.equal(typeof result.output, 'string');
    assert.match(result.output as string, /^\{"answer"/);
  });

  it('stops a call in flight when the run is cancelled, and says so', async () => {
    const pids = join(dir, 'cancel.pids');
    const run = new AbortController();
    const preparer = targetPreparer(cmdTarget(), { env: { ...process.env, TARGET_PIDS: pids }, signal: run.signal });
    try {
      const call = preparer.prepare({ id: 'a', input: 'x', metadata: { mode: 'hang' } }, new AbortController().signal);
      await waitFor(() => readable(pids), 'the hanging target to start', 10_000);
      run.abort();
      await assert.rejects(call, { message: 'the run was stopped, and the target with it' });
      const [parent, grandchild] = readFileSync(pids, 'utf8').trim().split('\n').map(Number);
      await waitFor(
        () => [parent, grandchild].every((pid) => pid === undefined || isGone(pid)),
        'the cancelled command and its child to end',
        10_000,
      );
    } finally {
      await preparer.close();
    }
  });

  it('runs before the NL2SQL preparer when chained, and the chain reaches what the target reaches', async () => {
    const seen: Json[] = [];
    const after = {
      prepare: (c: EvalCase) => (seen.push(c.output ?? null), Promise.resolve(c)),
      close: () => Promise.resolve(),
    };
    const chain = chainPreparers([targetPreparer(cmdTarget(), { env: process.env }), after]);
    assert.ok(chain);
    assert.equal(chain.reaches, 'workspace-code');
    await chain.prepare({ id: 'a', input: 'select' }, new AbortController().signal);
    await chain.close();
    assert.deepEqual(seen, ['SELECT']);
    assert.equal(chainPreparers([after]), after);
    assert.equal(chainPreparers([]), undefined);
  });
});

function readable(file: string): boolean {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').length === 2;
  } catch {
    return false;
  }
}
