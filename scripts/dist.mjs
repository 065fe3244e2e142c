#!/usr/bin/env node
/**
 * `npm run dist` / `npm run dist:dir` (after `npm run build`): electron-builder for this OS with
 * electron-builder.config.cjs, never publishing; extra arguments go to electron-builder
 * (`npm run dist -- --linux deb`).
 *
 * electron-builder rebuilds the native addons in node_modules for Electron, in place. Afterwards —
 * whether the build worked or not — better-sqlite3 is put back for this Node when it no longer
 * loads here, so `npm test` and the Node CLI keep working (as scripts/native-for-electron.mjs keeps
 * `npm start` apart from them).
 */
import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

/** Electron 45's tooling (@electron/rebuild, @electron/get, @electron/fuses) declares Node 22.12+. */
function nodeIsRecentEnough() {
  const [major, minor] = process.versions.node.split('.').map(Number)
  return major > 22 || (major === 22 && minor >= 12)
}

function sqliteLoadsInNode() {
  const probe = "new (require('better-sqlite3'))(':memory:').close()"
  return spawnSync(process.execPath, ['-e', probe], { cwd: root, stdio: 'ignore' }).status === 0
}

if (!nodeIsRecentEnough()) {
  process.stderr.write(`deskclaw: packaging is supported on Node 22.12 or newer; this is ${process.version}, trying anyway.\n`)
}

const builder = spawnSync(
  process.execPath,
  [join(root, 'node_modules', 'electron-builder', 'cli.js'), '--config', 'electron-builder.config.cjs', '--publish', 'never', ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit' }
)

if (!sqliteLoadsInNode()) {
  process.stdout.write('Rebuilding better-sqlite3 for Node (electron-builder left it built for Electron)…\n')
  const rebuilt = spawnSync(npm, ['rebuild', 'better-sqlite3'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' })
  if (rebuilt.status !== 0) process.stderr.write('deskclaw: `npm rebuild better-sqlite3` failed: run it again before `npm test`.\n')
}

process.exit(builder.status ?? 1)
