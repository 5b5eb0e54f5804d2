import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EvalCase } from '../../../core/case';
import { cachingTarget, type TargetOutput } from '../../../core/cache/targetCache';
import type { CasePreparer } from '../../../core/runner/casePreparer';
import type { TargetConfig } from '../../../core/target/targetConfig';

/** A target that answers each case with `answer(case)` and counts its calls (it reaches nothing). */
function countingTarget(answer: (c: EvalCase) => string): CasePreparer & { calls: number } {
  const target = {
    calls: 0,
    reaches: 'network' as const,
    async prepare(evalCase: EvalCase): Promise<EvalCase> {
      target.calls++;
      return { ...evalCase, output: answer(evalCase) };
    },
    async close(): Promise<void> {},
  };
  return target;
}

function memoryStore(): {
  kept: Map<string, TargetOutput>;
  getOutput(k: string): TargetOutput | undefined;
  setOutput(k: string, v: TargetOutput): void;
} {
  const kept = new Map<string, TargetOutput>();
  return { kept, getOutput: (k) => kept.get(k), setOutput: (k, v) => void kept.set(k, v) };
}

const CONFIG = {
  kind: 'http',
  url: 'http://127.0.0.1:9/answer',
  method: 'POST',
  headers: {},
  range: { file: '/w/a.eval.yaml', start: { line: 0, column: 0, offset: 0 }, end: { line: 0, column: 1, offset: 1 } },
} as unknown as TargetConfig;

describe('the target cache', () => {
  const signal = new AbortController().signal;

  it('keeps an answer per case and trial: a second ask of the same case and trial calls nothing', async () => {
    const target = countingTarget((c) => `answer to ${c.id}`);
    const store = memoryStore();
    const cached = cachingTarget(target, CONFIG, store, '1.0.0');
    const first = await cached.prepare({ id: 'a', input: 'q' }, signal, 1);
    const again = await cached.prepare({ id: 'a', input: 'q' }, signal, 1);
    await cached.prepare({ id: 'a', input: 'q' }, signal, 2);
    assert.equal(again.output, first.output);
    assert.equal(target.calls, 2, 'the second trial is its own question');
  });

  it('keeps no answer that shows a secret: a flagged token or a value the config marks secret', async () => {
    // Masking it instead would score the masked text on the next run, a wrong result.
    const token = `sk-${'h2s7vtuEC1woaoqzZZ0gfEqRS2'}`;
    const target = countingTarget((c) =>
      c.id === 'leaky' ? `here is ${token}` : `the ${c.id} answer has s3cret-value`,
    );
    const store = memoryStore();
    const cached = cachingTarget(target, CONFIG, store, '1.0.0', ['s3cret-value']);
    const leaky = await cached.prepare({ id: 'leaky' }, signal, 1);
    await cached.prepare({ id: 'marked' }, signal, 1);
    assert.equal(leaky.output, `here is ${token}`, 'the run itself scores the real answer');
    assert.equal(store.kept.size, 0);
    await cached.prepare({ id: 'leaky' }, signal, 1);
    assert.equal(target.calls, 3, 'asked again, never served from the cache');
  });
});
