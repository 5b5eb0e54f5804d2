// Apart from cli/commandSupport.ts so that `--help` and `--version` need not load what commands share.

/**
 * Exit codes (as cli/help.ts and the README say): 0 all passed, 1 some failed, 2 a config or usage
 * error — nothing ran; an unknown `--case` id and a `--filter` no case matches are usage errors —,
 * 3 nothing was scored (every case skipped, or a dataset with no case), 130 cancelled (Ctrl-C).
 */
export const EXIT = { passed: 0, failed: 1, usage: 2, nothingScored: 3, cancelled: 130 } as const;
