import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'

/**
 * A file or folder shipped in resources/: in the packaged app's resources folder
 * (electron-builder extraResources → <resources>/<packaged>), else found by walking up from the
 * calling module — src/main/<folder>/ (tests), out/main/ or out/main/chunks/ (builds),
 * app.asar/out/main/. `relative` is its path under the repository's resources/ folder.
 */
export function findResource(relative: string, packaged: string = relative, from: string = __dirname): string | undefined {
  const candidates: string[] = []
  const resourcesPath = (process as { resourcesPath?: string }).resourcesPath
  if (resourcesPath) candidates.push(join(resourcesPath, packaged), join(resourcesPath, 'resources', relative))
  for (let dir = from, depth = 0; depth < 6; depth++) {
    candidates.push(join(dir, 'resources', relative))
    const parent = dirname(dir)
    if (parent === dir) break
    dir = parent
  }
  return candidates.find((candidate) => existsSync(candidate))
}
