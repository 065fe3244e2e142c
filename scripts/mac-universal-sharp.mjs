#!/usr/bin/env node
/**
 * Before `npm run dist` on a Mac: the universal dmg merges an x64 and an arm64 build of the app, and
 * both need sharp's binaries for both architectures (npm installs only this Mac's). Installs
 * @img/sharp-darwin-{x64,arm64} and their libvips at the versions sharp asks for, without touching
 * package.json. `--dry-run` prints the command only.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const optional = JSON.parse(readFileSync(require.resolve('sharp/package.json'), 'utf8')).optionalDependencies ?? {}
const packages = Object.entries(optional)
  .filter(([name]) => /^@img\/sharp-(libvips-)?darwin-(x64|arm64)$/.test(name))
  .map(([name, version]) => `${name}@${version}`)

if (packages.length !== 4) {
  process.stderr.write(`deskclaw: expected 4 macOS sharp packages in sharp's optionalDependencies, found: ${packages.join(', ')}\n`)
  process.exit(1)
}
// --force: npm refuses a package for another CPU than this Mac's without it.
const args = ['install', '--no-save', '--force', ...packages]
process.stdout.write(`npm ${args.join(' ')}\n`)
if (!process.argv.includes('--dry-run')) execFileSync('npm', args, { stdio: 'inherit' })
