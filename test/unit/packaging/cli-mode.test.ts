/**
 * The packaged app's `--cli` mode (src/main/electron/cli-mode.ts), against a fake 'electron' module
 * (the binary cannot start here) and a stand-in for out/main/cli.js.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

const fake = await vi.hoisted(async () => {
  const { EventEmitter } = await import('node:events')
  const app = Object.assign(new EventEmitter(), { isPackaged: true, exit: vi.fn(), dock: { hide: vi.fn() } })
  return { app }
})
vi.mock('electron', () => ({ app: fake.app }))

const { cliArguments, isRefusedNodeRun, runCliIfAsked } = await import('../../../src/main/electron/cli-mode')

/** A stand-in cli.js: records its argv, then finishes like the real one (sets process.exitCode later). */
function fakeCli(body: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'deskclaw-cli-mode-')), 'cli.js')
  writeFileSync(file, body)
  return file
}

describe('cliArguments', () => {
  it('is null for a normal start', () => {
    expect(cliArguments(['/opt/DeskClaw/deskclaw-app'])).toBeNull()
    expect(cliArguments(['/opt/DeskClaw/deskclaw-app', '--no-sandbox'])).toBeNull()
  })

  it('is everything after the first --cli; switches before it are Chromium’s', () => {
    expect(cliArguments(['DeskClaw', '--cli'])).toEqual([])
    expect(cliArguments(['DeskClaw', '--cli', 'run', '--json', 'hello'])).toEqual(['run', '--json', 'hello'])
    expect(cliArguments(['DeskClaw', '--ozone-platform=headless', '--cli', 'doctor'])).toEqual(['doctor'])
    expect(cliArguments(['DeskClaw', '--cli', 'run', '--cli'])).toEqual(['run', '--cli'])
    // Development: `electron . --cli …`
    expect(cliArguments(['electron', '.', '--cli', 'audit'])).toEqual(['audit'])
  })

  it('never reads the binary path as the flag', () => {
    expect(cliArguments(['--cli'])).toBeNull()
  })
})

describe('isRefusedNodeRun', () => {
  const fork = ['/opt/DeskClaw/deskclaw-app', '/opt/DeskClaw/resources/app.asar/out/main/desktop-driver.js']
  it('refuses a script run of the packaged app with ELECTRON_RUN_AS_NODE (what child_process.fork does)', () => {
    expect(isRefusedNodeRun(fork, { ELECTRON_RUN_AS_NODE: '1' }, true)).toBe(true)
  })

  it('leaves development, a plain start and the variable alone', () => {
    expect(isRefusedNodeRun(fork, { ELECTRON_RUN_AS_NODE: '1' }, false)).toBe(false)
    expect(isRefusedNodeRun(fork, {}, true)).toBe(false)
    expect(isRefusedNodeRun(['/opt/DeskClaw/deskclaw-app'], { ELECTRON_RUN_AS_NODE: '1' }, true)).toBe(false)
    expect(isRefusedNodeRun(['DeskClaw', '--cli', 'run', 'x.js'], { ELECTRON_RUN_AS_NODE: '1' }, true)).toBe(false)
  })
})

describe('runCliIfAsked', () => {
  let savedArgv: string[]
  beforeEach(() => {
    savedArgv = process.argv
    fake.app.exit.mockClear()
    fake.app.dock.hide.mockClear()
  })
  afterEach(() => {
    process.argv = savedArgv
    process.exitCode = undefined
    delete (globalThis as any).__deskclawCliArgv
  })

  it('returns null (start the GUI) without --cli', () => {
    expect(runCliIfAsked(['DeskClaw'])).toBeNull()
    expect(fake.app.exit).not.toHaveBeenCalled()
  })

  it('runs cli.js with the CLI argv and exits with the code it sets', async () => {
    const entry = fakeCli(`
      globalThis.__deskclawCliArgv = process.argv.slice(2)
      setTimeout(() => { process.exitCode = 3 }, 60)
    `)
    const running = runCliIfAsked(['DeskClaw', '--cli', 'run', '--json', 'hi'], { entry })
    expect(running).not.toBeNull()
    expect(await running).toBe(3)
    expect((globalThis as any).__deskclawCliArgv).toEqual(['run', '--json', 'hi'])
    expect(fake.app.exit).toHaveBeenCalledWith(3)
    expect(process.argv).toBe(savedArgv)
  })

  it('exits 0 for a command that succeeds', async () => {
    const entry = fakeCli('Promise.resolve().then(() => { process.exitCode = 0 })')
    expect(await runCliIfAsked(['DeskClaw', '--cli', '--version'], { entry })).toBe(0)
    expect(fake.app.exit).toHaveBeenCalledWith(0)
  })

  it('exits 1 with a message when the CLI cannot be loaded', async () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
    try {
      expect(await runCliIfAsked(['DeskClaw', '--cli', 'doctor'], { entry: join(tmpdir(), 'no-such-dir', 'cli.js') })).toBe(1)
      expect(write.mock.calls.map(([text]) => String(text)).join('')).toMatch(/could not load the command line/)
    } finally {
      write.mockRestore()
    }
    expect(fake.app.exit).toHaveBeenCalledWith(1)
  })

  it('leaves Ctrl+C to a command that listens for it (`run` cancels)', async () => {
    const entry = fakeCli(`
      process.once('SIGINT', () => { process.exitCode = 130 })
    `)
    const running = runCliIfAsked(['DeskClaw', '--cli', 'run', 'x'], { entry })!
    await new Promise((resolve) => setTimeout(resolve, 10))
    // Electron's own handling turns Ctrl+C into a quit request: it is handed to the command.
    const event = { preventDefault: vi.fn() }
    fake.app.emit('before-quit', event)
    expect(event.preventDefault).toHaveBeenCalled()
    expect(await running).toBe(130)
    expect(fake.app.listenerCount('before-quit')).toBe(0)
    expect(process.listenerCount('SIGINT')).toBe(0)
  })

  it('refuses a Node-style run of the packaged binary with exit code 2', async () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
    try {
      const refused = runCliIfAsked(['DeskClaw', '/x/desktop-driver.js'], { env: { ELECTRON_RUN_AS_NODE: '1' } })
      expect(refused).not.toBeNull()
      expect(await refused).toBe(2)
    } finally {
      write.mockRestore()
    }
    expect(fake.app.exit).toHaveBeenCalledWith(2)
  })
})
