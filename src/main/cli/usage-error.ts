/** A mistake in how the command was called: one line on stderr, exit code 2 (docs/cli.md). */
export class UsageError extends Error {}
