/**
 * Python's `round`, which EvalBench's scorers use, in the two forms they call it. Python rounds a
 * value exactly halfway between two candidates to the even one (banker's rounding): `round(2.5)` is
 * 2 and `round(0.125, 2)` is 0.12, where `Math.round` and `toFixed` go up. Away from such ties both
 * agree with JavaScript's correctly rounded conversions.
 */

/** `round(x)` for a finite number: the nearest integer, ties to even. */
export function pythonRound(x: number): number {
  const floor = Math.floor(x);
  const rest = x - floor;
  if (rest < 0.5) return floor;
  if (rest > 0.5) return floor + 1;
  return floor % 2 === 0 ? floor : floor + 1;
}

/**
 * `round(x, 2)` for a finite number. A double lies exactly halfway between two hundredths only when
 * it is an odd number of eighths (…​.125, .375, .625, .875): multiplying by 8 and by 100 is then exact,
 * so the tie is rounded to the even hundredth. Every other value rounds as its exact decimal
 * expansion says, which is what `toFixed` does.
 */
export function pythonRound2(x: number): number {
  const eighths = x * 8;
  if (Number.isInteger(eighths) && Math.abs(eighths % 2) === 1) return pythonRound(x * 100) / 100;
  return Number(x.toFixed(2));
}

/** Python's `len` of a string: code points, where a JavaScript string's `length` counts UTF-16 units. */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
