/**
 * Which principle of docs/risk.md a finding stands for: what `deskclaw risk --explain` prints
 * beside each finding, so a verdict can be read as a reason rather than a rule id.
 */
const PRINCIPLES: Array<[RegExp, string]> = [
  [/^shell\.critical\./, 'A catastrophic effect on a catastrophic target is denied at every level, whatever the spelling.'],
  [/^path\.outside-read$/, 'The workspace is the zone of silent reads: reading file contents outside it asks (public system files excepted).'],
  [/^path\.sensitive$/, 'Secrets ask even to read, by any spelling: case, globs, links, another folder, git history.'],
  [/^path\.outside-workspace$/, 'Writes outside the workspace ask.'],
  [/^path\.network$/, 'Other machines are network: a UNC path or an automount of other hosts is never read silently.'],
  [/^path\.(hard-link|special-file)$/, 'A name does not say what is opened: a file with other hard links, a FIFO, socket or device asks.'],
  [/^shell\.(unknown-option|writes|git-write)$/, 'A known-safe program runs silently only with options known to be safe for it.'],
  [/^shell\.(unknown-program|network|builds|system|explicit-path|windows)$/, 'Only known-safe programs run without asking.'],
  [/^shell\.(parse-error|unknown-construct|parser-disagreement|comment-boundary|control-char|line-continuation|too-long|nesting|empty|foreign-shell|arithmetic-subscript)$/,
    'What cannot be parsed the way the shell will run it is never allowed (fail closed).'],
  [/^shell\.(obfuscated-command|ansi-c|non-ascii-command|glob-command|dynamic-command|dynamic-word|dynamic-script|expansion|dangerous-expansion|substitution|redirect-dynamic)$/,
    'What is only known when the command runs is never allowed silently.'],
  [/^shell\.(interpreter|inline-code|eval|source|script-file|pipe-to-shell|heredoc-to-shell|heredoc|interactive-shell|xargs|function|assignment|control-flow|background)$/,
    'Code the engine cannot see (scripts, inline code, text fed to a shell) asks.'],
  [/^shell\.(wrapper|privileged|env-prefix|env-dump|git-config)$/, 'Wrappers are unwrapped; what changes privileges, environment or configuration asks.'],
  [/^shell\.redirect-write$/, 'Redirects that write ask.'],
  [/^shell\.redirect-unknown$/, 'Only what is known is allowed: a redirection the engine does not know asks.'],
  [/^url\./, 'A URL is judged by its scheme, its domain rules and the address it reaches: a site not yet allowed and private or local addresses ask.'],
  [/^rule\./, 'Your rules apply; strictest wins.'],
  [/^autonomy\./, 'The autonomy level decides what happens to the questions.'],
  [/^tool\./, 'A tool call that is not a read asks.']
]

export function principleOf(rule: string): string | null {
  return PRINCIPLES.find(([pattern]) => pattern.test(rule))?.[1] ?? null
}
