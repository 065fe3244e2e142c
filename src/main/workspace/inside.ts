import { isAbsolute, relative, sep } from 'node:path'

/**
 * True when `path` is `root` or below it, both absolute. A relative path that climbs out (`..`,
 * `../x`) or lands on another drive is outside; `..notes` is a name like any other.
 */
export function isInsideFolder(root: string, path: string): boolean {
  if (path === '') return false
  const rel = relative(root, path)
  return !(rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel))
}
