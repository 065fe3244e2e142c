#!/usr/bin/env node
/**
 * Builds better-sqlite3 for Electron's ABI into build/native/electron-<version>/, leaving the
 * Node build in node_modules untouched, so `npm start` and `npm test` never fight over one
 * binary (docs/architecture.md). Runs before `npm start`; does nothing when the build is already there.
 */
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const root = join(dirname(fileURLToPath(import.meta.url)), '..')

function fail(message) {
  process.stderr.write(`deskclaw: ${message}\n`)
  process.exit(1)
}

let electronVersion
try {
  electronVersion = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version
} catch {
  fail('the electron package is not installed: run npm install')
}
const electronDir = dirname(require.resolve('electron/package.json'))
if (!existsSync(join(electronDir, 'path.txt'))) {
  fail(
    'the Electron binary is not installed (was ELECTRON_SKIP_BINARY_DOWNLOAD set?).\n' +
      '  Install it with: node node_modules/electron/install.js\n' +
      '  Or use DeskClaw in a browser instead: npm run web'
  )
}

const target = join(root, 'build', 'native', `electron-${electronVersion}`)
const addon = join(target, 'better_sqlite3.node')
if (existsSync(addon)) process.exit(0)

process.stdout.write(`Building better-sqlite3 for Electron ${electronVersion} (once; takes a few minutes)…\n`)
const source = dirname(require.resolve('better-sqlite3/package.json'))
const work = join(root, 'build', 'native', 'work')
rmSync(work, { recursive: true, force: true })
mkdirSync(work, { recursive: true })
cpSync(source, work, { recursive: true, filter: (path) => !path.includes(`${join(source, 'build')}`) })

const nodeGyp = process.env.npm_config_node_gyp
const command = nodeGyp ? process.execPath : 'node-gyp'
const args = [
  ...(nodeGyp ? [nodeGyp] : []),
  'rebuild',
  '--release',
  `--target=${electronVersion}`,
  '--runtime=electron',
  '--dist-url=https://electronjs.org/headers'
]
// A user-level nodedir (Node's own headers) would silently produce a Node-ABI addon.
const env = { ...process.env }
delete env.npm_config_nodedir
delete env.NPM_CONFIG_NODEDIR
try {
  execFileSync(command, args, { cwd: work, stdio: 'inherit', env })
} catch {
  fail('building better-sqlite3 for Electron failed (see above). Needs Python 3, a C++ compiler and network access to electronjs.org.')
}
mkdirSync(target, { recursive: true })
cpSync(join(work, 'build', 'Release', 'better_sqlite3.node'), addon)
rmSync(work, { recursive: true, force: true })
process.stdout.write(`Built ${addon}\n`)
