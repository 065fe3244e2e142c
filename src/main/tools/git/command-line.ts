/** Words that need no quoting in a POSIX shell line. */
const PLAIN_WORD = /^[A-Za-z0-9_\-+=.,/:@%^]+$/

/**
 * The argv as one POSIX shell line, each word quoted so the shell would read back exactly these
 * words: the risk engine judges the git tool's call as it judges the same `git …` typed into the
 * shell tool (docs/tools.md, "git"), and what it judges is exactly what runs.
 */
export function commandLineOf(argv: readonly string[]): string {
  return argv.map((word) => (PLAIN_WORD.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)).join(' ')
}
