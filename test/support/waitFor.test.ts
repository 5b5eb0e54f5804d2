import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { waitFor } from './waitFor';

describe('waitFor', () => {
  it('keeps polling through a condition that throws until it holds (what it reads may not exist yet)', async () => {
    let calls = 0;
    await waitFor(() => {
      calls += 1;
      if (calls < 4) throw new Error(`not there yet (${calls})`);
      return true;
    }, 'the fourth call');
    assert.equal(calls, 4);
  });

  it('names what it waited for and the last error when the time runs out', async () => {
    await assert.rejects(
      waitFor(
        () => {
          throw new Error('no run folder in cancelled');
        },
        'the first finished cases',
        50,
      ),
      /timed out after 50 ms waiting for the first finished cases \(the condition last threw: Error: no run folder in cancelled\)/,
    );
    await assert.rejects(
      waitFor(() => false, 'never', 30),
      /^Error: timed out after 30 ms waiting for never$/,
    );
  });
});
