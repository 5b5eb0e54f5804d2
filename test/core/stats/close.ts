import assert from 'node:assert/strict';

/** Asserts |actual − expected| ≤ tolerance × max(1, |expected|) (relative for large values, absolute near 0). */
export function assertClose(actual: number | null | undefined, expected: number, tolerance: number, what = ''): void {
  assert.ok(typeof actual === 'number', `${what}: expected a number near ${expected}, got ${String(actual)}`);
  const scale = Math.max(1, Math.abs(expected));
  assert.ok(
    Math.abs(actual - expected) <= tolerance * scale,
    `${what}: expected ${expected} ± ${tolerance * scale}, got ${actual}`,
  );
}

/** Asserts a relative error of at most `tolerance` (for tiny tail probabilities, where absolute error says nothing). */
export function assertRelative(
  actual: number | null | undefined,
  expected: number,
  tolerance: number,
  what = '',
): void {
  assert.ok(typeof actual === 'number', `${what}: expected a number near ${expected}, got ${String(actual)}`);
  assert.ok(
    Math.abs(actual - expected) <= tolerance * Math.abs(expected),
    `${what}: expected ${expected} (relative ± ${tolerance}), got ${actual}`,
  );
}
