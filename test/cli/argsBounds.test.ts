import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCommand, UsageError } from '../../cli/args';

describe('bounded run options', () => {
  it('refuses --concurrency past 256, naming the option', () => {
    for (const value of ['257', '100000000', '1e8']) {
      assert.throws(
        () => parseCommand(['run', 'c.eval.yaml', '--concurrency', value]),
        (e: unknown) => e instanceof UsageError && /--concurrency must be a whole number from 1 to 256/.test(e.message),
      );
    }
    const ok = parseCommand(['run', 'c.eval.yaml', '--concurrency', '256']);
    assert.equal(ok.kind === 'run' ? ok.concurrency : undefined, 256);
  });

  it('refuses --trials past 100 for run and plan', () => {
    for (const verb of ['run', 'plan']) {
      assert.throws(
        () => parseCommand([verb, 'c.eval.yaml', '--trials', '50000']),
        (e: unknown) => e instanceof UsageError && /--trials must be a whole number from 1 to 100/.test(e.message),
      );
    }
    const ok = parseCommand(['plan', 'c.eval.yaml', '--trials', '100']);
    assert.equal(ok.kind === 'plan' ? ok.trials : undefined, 100);
  });
});
