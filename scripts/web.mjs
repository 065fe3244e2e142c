// `npm run web [-- deskclaw web options]`: build only when the sources changed since the last build,
// then serve the UI; the address is the last thing printed (docs: README "Start").
import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildNeeded } from './build-freshness.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const why = buildNeeded(root)
if (why) {
  process.stdout.write(`Building DeskClaw (${why})…\n`)
  const build = spawnSync(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], {
    cwd: root,
    stdio: 'inherit'
  })
  if (build.status !== 0) process.exit(build.status ?? 1)
} else {
  process.stdout.write('DeskClaw is already built (no source changed since); starting it.\n')
}
const web = spawnSync(process.execPath, [join(root, 'bin', 'deskclaw.js'), 'web', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' })
process.exit(web.status ?? 0)
