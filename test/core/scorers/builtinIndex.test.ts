/**
 * Scorer definitions load when a config names them (issue 18 item 2): the registry of the built-ins is
 * an index of keys and loaders (core/scorers/builtinIndex.ts); the loaded list that docs, the build and
 * tests use (core/scorers/builtinScorers.ts) is made from it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BUILTIN_SCORER_INDEX, type ScorerEntry } from '../../../core/scorers/builtinIndex';
import { BUILTIN_SCORERS } from '../../../core/scorers/builtinScorers';
import { ScorerRegistry } from '../../../core/scorers/registry';
import type { ScorerDefinition } from '../../../core/scorers/scorer';

/** Entries over the built-in definitions that count each load. */
function countingEntries(): { entries: ScorerEntry[]; loads: Map<string, number> } {
  const loads = new Map<string, number>();
  const entries = BUILTIN_SCORERS.map((definition): ScorerEntry => ({
    key: definition.key,
    load: () => {
      loads.set(definition.key, (loads.get(definition.key) ?? 0) + 1);
      return definition;
    },
  }));
  return { entries, loads };
}

describe('the built-in scorer index', () => {
  it("names each scorer by its definition's own key, once", () => {
    for (const entry of BUILTIN_SCORER_INDEX) assert.equal(entry.load().key, entry.key);
    const keys = BUILTIN_SCORER_INDEX.map((e) => e.key);
    assert.equal(new Set(keys).size, keys.length, 'a key is listed twice');
  });

  it('is what a registry holds by default: the same keys, definitions and negations as the loaded list', () => {
    const lazy = new ScorerRegistry();
    const loaded = new ScorerRegistry(BUILTIN_SCORERS);
    assert.deepEqual(lazy.keys(), loaded.keys());
    assert.deepEqual(lazy.negationKeys(), loaded.negationKeys());
    assert.deepEqual(lazy.all(), loaded.all());
    for (const key of [...loaded.keys(), 'not-contains', 'not_regex', 'no_such_scorer']) {
      assert.equal(lazy.get(key)?.key, loaded.get(key)?.key, key);
      assert.equal(lazy.negatedScorer(key), loaded.negatedScorer(key), key);
    }
  });
});

describe('a registry of entries', () => {
  it('loads a definition the first time its key is asked for, once, and no other', () => {
    const { entries, loads } = countingEntries();
    const registry = new ScorerRegistry(entries);
    assert.equal(registry.keys().length, BUILTIN_SCORERS.length);
    assert.deepEqual([...loads], [], 'listing the keys loads nothing');
    const contains: ScorerDefinition | undefined = registry.get('contains');
    assert.equal(contains?.key, 'contains');
    assert.equal(registry.get('contains'), contains);
    assert.equal(registry.get('no_such_scorer'), undefined);
    assert.deepEqual([...loads], [['contains', 1]]);
  });

  it('loads the scorer a negation key names, and everything only when all are listed', () => {
    const { entries, loads } = countingEntries();
    const registry = new ScorerRegistry(entries);
    assert.equal(registry.get('not-edit_similarity'), undefined, 'edit_similarity has no boolean verdict');
    assert.equal(registry.get('not-contains')?.key, 'not-contains');
    assert.deepEqual([...loads.keys()].sort(), ['contains', 'edit_similarity']);
    registry.negationKeys();
    assert.equal(loads.size, BUILTIN_SCORERS.length);
    assert.ok(
      [...loads.values()].every((n) => n === 1),
      'each loaded once',
    );
  });
});
