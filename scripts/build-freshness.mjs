// Whether `out/` is older than what it is built from: `npm run web` builds only then (issue 22,
// item 12: the address was buried under a build that changed nothing). Pure but for the file walk.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** What electron-vite builds from, relative to the project folder. */
export const BUILD_INPUTS = [
  'src',
  'resources',
  'electron.vite.config.ts',
  'package.json',
  'tsconfig.json',
  'tsconfig.base.json',
  'tsconfig.node.json',
  'tsconfig.web.json'
]

/** Files every build writes: the oldest of them is when the last build ran (whoever ran it). */
export const BUILD_OUTPUTS = [join('out', 'main', 'cli.js'), join('out', 'renderer', 'index.html')]

/** The newest modification time under `path` (a file or a folder), 0 when it does not exist. */
export function newestMtime(path) {
  if (!existsSync(path)) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)))
  return newest
}

/** null: the build is up to date; otherwise why it must run. */
export function buildNeeded(root) {
  const outputs = BUILD_OUTPUTS.map((output) => join(root, output))
  if (!outputs.every((output) => existsSync(output))) return 'not built yet'
  const built = Math.min(...outputs.map((output) => statSync(output).mtimeMs))
  const changed = BUILD_INPUTS.find((input) => newestMtime(join(root, input)) > built)
  return changed ? `${changed} changed since the last build` : null
}
