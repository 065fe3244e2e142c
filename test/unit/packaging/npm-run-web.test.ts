/**
 * Issue 22, item 12: `npm run web` builds only when a source is newer than the last build's
 * outputs, and the address is the last thing it prints, on a line of its own.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
// @ts-expect-error -- a plain .mjs script without types
import { buildNeeded } from '../../../scripts/build-freshness.mjs'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'deskclaw-web-'))
  dirs.push(root)
  mkdirSync(join(root, 'src', 'main'), { recursive: true })
  writeFileSync(join(root, 'src', 'main', 'a.ts'), 'export {}\n')
  writeFileSync(join(root, 'package.json'), '{}\n')
  return root
}

function built(root: string, at: number): void {
  mkdirSync(join(root, 'out', 'main'), { recursive: true })
  mkdirSync(join(root, 'out', 'renderer'), { recursive: true })
  for (const file of [join(root, 'out', 'main', 'cli.js'), join(root, 'out', 'renderer', 'index.html')]) {
    writeFileSync(file, '')
    utimesSync(file, at / 1000, at / 1000)
  }
}

const touch = (path: string, at: number) => utimesSync(path, at / 1000, at / 1000)

describe('npm run web', () => {
  it('builds only when a source changed since the last build', () => {
    const root = project()
    const t0 = Date.now() - 60_000
    for (const path of [join(root, 'src', 'main', 'a.ts'), join(root, 'src', 'main'), join(root, 'src'), join(root, 'package.json')]) touch(path, t0)
    expect(buildNeeded(root)).toBe('not built yet')
    built(root, t0 + 1000)
    expect(buildNeeded(root)).toBeNull()
    touch(join(root, 'src', 'main', 'a.ts'), t0 + 2000)
    expect(buildNeeded(root)).toBe('src changed since the last build')
    built(root, t0 + 3000)
    expect(buildNeeded(root)).toBeNull()
    touch(join(root, 'package.json'), t0 + 4000)
    expect(buildNeeded(root)).toBe('package.json changed since the last build')
  })

  it.skipIf(!existsSync(join(process.cwd(), 'out', 'main', 'cli.js')))('prints the address last, on its own line', async () => {
    const home = mkdtempSync(join(tmpdir(), 'deskclaw-web-home-'))
    dirs.push(home)
    const child = spawn(process.execPath, ['bin/deskclaw.js', 'web', '--port', '0'], {
      cwd: process.cwd(),
      env: { ...process.env, DESKCLAW_HOME: home },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let out = ''
    let err = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
    try {
      await expect.poll(() => out + err, { timeout: 20_000 }).toContain('Ctrl+C')
      const lines = out.trimEnd().split('\n')
      const addressLine = lines.findIndex((line) => /^\s+http:\/\/127\.0\.0\.1:\d+\/\?token=\S+$/.test(line))
      expect(addressLine).toBeGreaterThan(0)
      expect(lines[addressLine - 1]).toBe('')
      expect(lines[addressLine + 1]).toBe('')
      expect(lines.slice(addressLine + 2)).toEqual(['Press Ctrl+C to stop.'])
    } finally {
      child.kill('SIGTERM')
    }
  })
})
