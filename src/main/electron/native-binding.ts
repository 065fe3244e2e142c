import { existsSync } from 'node:fs'
import { join } from 'node:path'

/**
 * better-sqlite3 built for Electron's ABI by scripts/native-for-electron.mjs, kept apart from the
 * Node build in node_modules so `npm test` keeps working after `npm start` and vice versa.
 * Packaged apps are rebuilt for Electron by the packager, so they use the default binding.
 */
export function electronSqliteBinding(appPath: string, isPackaged: boolean): string | undefined {
  if (isPackaged) return undefined
  const candidate = join(appPath, 'build', 'native', `electron-${process.versions.electron}`, 'better_sqlite3.node')
  return existsSync(candidate) ? candidate : undefined
}
