// The benchmarks' one seeded random source, so generated data is the same on every machine and run:
// sfc32, seeded through a splitmix-style mixer (no Math.random).

function sfc32(a, b, c, d) {
  return () => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}

/** A seeded generator and the draws the benchmarks make with it. Helpers draw only when called. */
export function makeRng(seed) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x9e3779b9) | 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  const rand = sfc32(next(), next(), next(), next());
  for (let i = 0; i < 12; i++) rand();
  const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1)); // inclusive
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const chance = (p) => rand() < p;
  const digits = (n) => Array.from({ length: n }, () => int(0, 9)).join('');
  const shuffle = (list) => {
    for (let i = list.length - 1; i > 0; i--) {
      const j = int(0, i);
      [list[i], list[j]] = [list[j], list[i]];
    }
    return list;
  };
  /** Another element than `not` (when there is one). */
  const other = (list, not) => {
    const rest = list.filter((x) => x !== not);
    return rest.length === 0 ? not : pick(rest);
  };
  return { rand, int, pick, chance, digits, shuffle, other };
}
