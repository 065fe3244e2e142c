import picomatch from 'picomatch'

/**
 * A path filter from globs as ripgrep's `--glob` reads them: a glob without "/" matches the file
 * name in any folder, one with "/" the path from the search root; `!glob` excludes.
 */
export function pathFilter(globs: readonly string[]): (rel: string) => boolean {
  const include = globs.filter((g) => !g.startsWith('!'))
  const exclude = globs.filter((g) => g.startsWith('!')).map((g) => g.slice(1))
  const compile = (list: string[]) => list.map((g) => picomatch(g, { dot: true, basename: !g.includes('/') }))
  const yes = compile(include)
  const no = compile(exclude)
  return (rel) => (yes.length === 0 || yes.some((m) => m(rel))) && !no.some((m) => m(rel))
}
