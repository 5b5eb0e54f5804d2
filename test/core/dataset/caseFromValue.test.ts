import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SourceRange } from '../../../core/text/position';
import { caseFromValue, type CaseLocation } from '../../../core/dataset/caseFromValue';
import { CaseIdTracker, positionalId } from '../../../core/dataset/caseIdTracker';
import { caseSchemaViolations } from '../../../core/dataset/caseValidator';

function at(line: number, index: number): CaseLocation {
  const range: SourceRange = {
    file: '/eval/run.eval.yaml',
    start: { offset: line * 10, line, column: 4 },
    end: { offset: line * 10 + 5, line, column: 9 },
  };
  return { range, index, positionalId: positionalId('case', index + 1), vocabulary: 'yaml', subject: 'this item' };
}

describe('caseFromValue (shared by the readers and inline cases)', () => {
  it('turns a valid value into a located case with its range and index', () => {
    const record = caseFromValue({ id: 'q', input: 'hi', expected: 'ho' }, at(3, 0), new CaseIdTracker());
    assert.deepEqual(record, {
      ok: true,
      value: { case: { id: 'q', input: 'hi', expected: 'ho' }, index: 0, range: at(3, 0).range },
    });
  });

  it('uses the positional id when the value has none, and a number id in its string form', () => {
    const ids = new CaseIdTracker();
    const first = caseFromValue({ input: 1 }, at(1, 0), ids);
    const second = caseFromValue({ id: 2.5 }, at(2, 1), ids);
    assert.ok(first.ok && second.ok);
    assert.equal(first.value.case.id, 'case-1');
    assert.equal(second.value.case.id, '2.5');
  });

  it("merges fields that are not case fields into metadata, the metadata's own keys winning", () => {
    const record = caseFromValue(
      { id: 'm', source: 'web', tag: 'outer', metadata: { tag: 'inner' } },
      at(0, 0),
      new CaseIdTracker(),
    );
    assert.ok(record.ok);
    assert.deepEqual(record.value.case, { id: 'm', metadata: { source: 'web', tag: 'inner' } });
  });

  it('keeps a __proto__ key a plain metadata key', () => {
    const value: unknown = JSON.parse('{"id": "p", "__proto__": {"polluted": true}}');
    const record = caseFromValue(value, at(0, 0), new CaseIdTracker());
    assert.ok(record.ok);
    assert.equal(({} as { polluted?: boolean }).polluted, undefined);
    assert.deepEqual(Object.keys(record.value.case.metadata ?? {}), ['__proto__']);
  });

  it('refuses a duplicate id with the 1-based line of the first, and gives the error record a unique id', () => {
    const ids = new CaseIdTracker();
    caseFromValue({ id: 'x' }, at(4, 0), ids);
    const record = caseFromValue({ id: 'x' }, at(9, 1), ids);
    assert.deepEqual(record, {
      ok: false,
      error: {
        id: 'case-2',
        index: 1,
        range: at(9, 1).range,
        message: 'duplicate case id "x"; first defined at line 5',
      },
    });
  });

  it('speaks YAML when the value came from YAML', () => {
    const record = caseFromValue(['a'], at(0, 0), new CaseIdTracker());
    assert.ok(!record.ok);
    assert.equal(record.error.message, 'a case must be a mapping of fields, this item is a list');
  });
});

describe('CaseIdTracker', () => {
  it('claims an id once and reports the line of the first claim', () => {
    const ids = new CaseIdTracker();
    assert.equal(ids.claim('a', 3), undefined);
    assert.equal(ids.claim('a', 8), 3);
    assert.ok(ids.has('a'));
  });

  it('gives error records the preferred id when free, else the positional id made unique', () => {
    const ids = new CaseIdTracker();
    assert.equal(ids.claimForError('own', 'line-2', 1), 'own');
    assert.equal(ids.claimForError('own', 'line-2', 1), 'line-2');
    assert.equal(ids.claimForError(undefined, 'line-2', 1), 'line-2~2');
  });
});

describe('case schema validation', () => {
  it('names the field, what was expected and the kind that was seen, never the value', () => {
    assert.deepEqual(caseSchemaViolations({ id: 'a' }), []);
    assert.deepEqual(caseSchemaViolations({ trace: { latency_ms: 'slow' } }), [
      'field "trace.latency_ms" must be a number, not a string',
    ]);
    assert.deepEqual(caseSchemaViolations({ metadata: 'secret text' }, 'yaml'), [
      'field "metadata" must be a mapping, not a string',
    ]);
  });
});
