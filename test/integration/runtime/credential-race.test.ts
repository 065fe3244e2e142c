import { spawn, execFileSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { BwrapRuntime, DockerRuntime, NativeRuntime, type Runtime } from '../../../src/main/runtime'
import { requireCapability } from '../../helpers/capability'
import { dockerTestImageReady, removeTempWorkspaces, tempWorkspace, TEST_IMAGE } from './helpers'

/**
 * docs/runtimes.md, "bwrap": the user's credential locations are hidden inside the sandbox, so a
 * racer swapping an approved workspace file for a symlink to ~/.ssh/id_rsa gets nothing out.
 * The home is under /var/tmp, not /tmp: bwrap's private /tmp would hide a home there anyway
 * and the test would prove nothing.
 */

const linux = process.platform === 'linux'
const bwrapProbe = linux ? await BwrapRuntime.probe() : { ok: false as const, reason: 'Linux only' }
const bwrapReady = linux && requireCapability('bwrap', bwrapProbe.ok, `${bwrapProbe.ok ? '' : bwrapProbe.reason} apt-get install bubblewrap`)
const dockerReady = linux && (await dockerTestImageReady())

const SECRET = `-----BEGIN OPENSSH PRIVATE KEY----- ${randomBytes(16).toString('hex')}`
let home: string
let secretFile: string
const realHome = process.env.HOME

beforeAll(() => {
  home = fs.mkdtempSync('/var/tmp/deskclaw-home-')
  fs.mkdirSync(path.join(home, '.ssh'), { mode: 0o700 })
  secretFile = path.join(home, '.ssh', 'id_rsa')
  fs.writeFileSync(secretFile, `${SECRET}\n`, { mode: 0o600 })
  fs.writeFileSync(path.join(home, '.netrc'), `machine example.com password ${SECRET}\n`)
  fs.writeFileSync(path.join(home, 'notes.txt'), 'not a secret\n')
  process.env.HOME = home
})
afterAll(() => {
  process.env.HOME = realHome
  fs.rmSync(home, { recursive: true, force: true })
  removeTempWorkspaces()
})

/**
 * A separate process that swaps `<dir>/data.txt` between a regular file and a symlink to
 * `target`, by rename, as fast as it can; prints how many swaps it made when told to stop.
 */
const RACER = `
const fs = require('node:fs')
const [dir, target] = process.argv.slice(1)
let swaps = 0
process.on('SIGTERM', () => { process.stdout.write(String(swaps)); process.exit(0) })
const tick = () => {
  for (let i = 0; i < 200; i++) {
    fs.writeFileSync(dir + '/.plain', 'public\\n'); fs.renameSync(dir + '/.plain', dir + '/data.txt'); swaps++
    fs.rmSync(dir + '/.link', { force: true }); fs.symlinkSync(target, dir + '/.link'); fs.renameSync(dir + '/.link', dir + '/data.txt'); swaps++
  }
  setImmediate(tick)
}
tick()
`

let racer: ChildProcess | undefined
afterEach(() => {
  racer?.kill('SIGKILL')
  racer = undefined
})

function startRacer(workspace: string): { stop: () => Promise<number> } {
  fs.writeFileSync(path.join(workspace, 'data.txt'), 'public\n')
  const child = spawn(process.execPath, ['-e', RACER, workspace, secretFile], { stdio: ['ignore', 'pipe', 'inherit'] })
  racer = child
  let out = ''
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()))
  return {
    stop: () =>
      new Promise((resolve) => {
        child.once('close', () => resolve(Number(out)))
        child.kill('SIGTERM')
      })
  }
}

/** `cat data.txt` `times` times while the racer swaps it; counts what came out. */
async function race(runtime: Runtime, times: number, extra: { conversationId?: string } = {}) {
  const workspace = tempWorkspace('deskclaw-race-')
  const racing = startRacer(workspace)
  const seen = { leaked: 0, plain: 0, dangling: 0, other: 0 }
  for (let i = 0; i < times; i++) {
    const result = await runtime.exec({ command: 'cat data.txt', cwd: workspace, timeoutMs: 10_000, ...extra })
    const text = result.stdout + result.stderr
    if (text.includes(SECRET)) seen.leaked++
    else if (result.stdout === 'public\n') seen.plain++
    else if (/No such file|can't open|cannot open/i.test(result.stderr)) seen.dangling++
    else seen.other++
  }
  const swaps = await racing.stop()
  return { ...seen, swaps }
}

describe.runIf(linux)('the race is real (control: native has no masks)', () => {
  it('native cat through the swapped file prints the key at least once in 60 tries', async () => {
    const outcome = await race(new NativeRuntime(), 60)
    expect(outcome.swaps).toBeGreaterThan(60)
    expect(outcome.leaked).toBeGreaterThan(0)
  })
})

describe.runIf(bwrapReady)('bwrap hides the credential locations', () => {
  it('without the masks the key is readable through bwrap --ro-bind / / (what the masks fix)', () => {
    const out = execFileSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--', 'cat', secretFile], { encoding: 'utf8' })
    expect(out).toContain(SECRET)
  })

  it('200 cats racing a symlink to ~/.ssh/id_rsa print the key 0 times', async () => {
    const outcome = await race(new BwrapRuntime(), 200)
    expect(outcome.swaps).toBeGreaterThan(200)
    // The symlink was there for some of the cats: they found its target missing.
    expect(outcome.dangling).toBeGreaterThan(0)
    expect(outcome.plain).toBeGreaterThan(0)
    expect(outcome.leaked).toBe(0)
  })

  it('folders are empty and read-only, files read as empty, the rest of home is readable', async () => {
    const result = await new BwrapRuntime().exec({
      command: `ls -A ~/.ssh | wc -l; cat ~/.netrc | wc -c; cat ~/notes.txt; touch ~/.ssh/new 2>/dev/null && echo wrote || echo read-only`,
      cwd: tempWorkspace('deskclaw-race-'),
      timeoutMs: 10_000
    })
    expect(result.stdout.split('\n').map((line) => line.trim())).toEqual(['0', '0', 'not a secret', 'read-only', ''])
  })

  it('with the home as the workspace, its credential locations stay hidden and the rest writable', async () => {
    const result = await new BwrapRuntime().exec({
      command: 'cat .ssh/id_rsa 2>&1; cat .netrc | wc -c; echo ok > written.txt && cat written.txt',
      cwd: home,
      timeoutMs: 10_000
    })
    expect(result.stdout).not.toContain(SECRET)
    expect(result.stdout).toMatch(/No such file[\s\S]*\n0\nok\n$/)
    fs.rmSync(path.join(home, 'written.txt'))
  })
})

describe.runIf(dockerReady)('docker mounts only the workspace', () => {
  const docker = new DockerRuntime({ image: TEST_IMAGE })
  afterAll(() => docker.close())

  // 200, as for bwrap: through the persistent shell a command costs milliseconds, not a docker exec.
  it('200 cats racing a symlink to ~/.ssh/id_rsa print the key 0 times', async () => {
    const outcome = await race(docker, 200, { conversationId: `race-${process.pid}` })
    expect(outcome.swaps).toBeGreaterThan(200)
    expect(outcome.dangling).toBeGreaterThan(0)
    expect(outcome.leaked).toBe(0)
  }, 120_000)
})
