// Command-line reading shared by the benchmarks: a bad option ends the run at once, naming the
// benchmark and the flag, rather than measuring with NaN.

/** A benchmark's way out: `bench/<script>: <message>` on stderr, exit code 2. */
export function failure(script) {
  return (message) => {
    console.error(`bench/${script}: ${message}`);
    process.exit(2);
  };
}

/** Reads `--<name>` as a whole number of at least `min`, or fails saying so. */
export function wholeNumber(fail) {
  return (value, name, min) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) fail(`--${name} must be a whole number of at least ${min}; got "${value}"`);
    return n;
  };
}
