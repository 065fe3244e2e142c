/**
 * git subcommands that print what a repository's config holds about its remotes — URLs with a
 * token in them (docs/risk.md, "Secrets"): `git remote -v`, `git remote get-url`, `git remote show`,
 * `git ls-remote`, and `git config` reading a remote, url, credential or http key or listing all.
 */
export function printsRemoteUrls(subcommand: string, args: ReadonlyArray<string | null>): boolean {
  const words = args.filter((a): a is string => a !== null)
  if (args.some((a) => a === null)) return subcommand === 'remote' || subcommand === 'config' || subcommand === 'ls-remote'
  if (subcommand === 'ls-remote') return true
  if (subcommand === 'remote') return words.some((w) => /^(-v|--verbose|get-url|show)$/.test(w) || /^-[a-z]*v/.test(w))
  if (subcommand !== 'config') return false
  return words.some((w) => /^(-l|--list|--get-regexp|--get-urlmatch|--show-origin|--show-scope|-z|--null)$/.test(w) || /^(remote|url|credential|http|submodule)\./i.test(w) || /^-[a-z]*l/.test(w))
}
