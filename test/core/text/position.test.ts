import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LineIndex } from '../../../core/text/position';
import {
  displayLineColumn,
  fromDisplay,
  fromDisplayRange,
  toDisplay,
  toDisplayRange,
} from '../../../shared/text/displayPosition';

describe('positions shown to people', () => {
  const range = new LineIndex('a: 1\nbb: 2\n').range('/w/c.eval.yaml', 5, 7);

  it('shows core 0-based lines and columns counted from 1, and reads them back', () => {
    assert.deepEqual(range.start, { offset: 5, line: 1, column: 0 });
    assert.deepEqual(toDisplay(range.start), { line: 2, column: 1 });
    assert.deepEqual(fromDisplay(toDisplay(range.start)), { line: 1, column: 0 });
    assert.equal(displayLineColumn(range.start), '2:1');
  });

  it('converts both ends of a range and keeps its offsets and file', () => {
    const shown = toDisplayRange(range);
    assert.deepEqual(shown, {
      file: '/w/c.eval.yaml',
      start: { offset: 5, line: 2, column: 1 },
      end: { offset: 7, line: 2, column: 3 },
    });
    assert.deepEqual(fromDisplayRange(shown), range);
  });
});
