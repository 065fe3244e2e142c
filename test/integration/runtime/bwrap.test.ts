import fs from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { BwrapRuntime, NativeRuntime } from '../../../src/main/runtime'
import { bundleFixture, runChildUntilReadyThenKill } from '../../helpers/child-process'
import { requireCapability } from '../../helpers/capability'
import type { BwrapChildReady } from './fixtures/bwrap-child'
import { type RequestExtras, hostProcessesMatching, sleep, startHttpServer, tempWorkspace, removeTempWorkspaces } from './helpers'

afterAll(removeTempWorkspaces)

const probe = await BwrapRuntime.probe()
const ready =
  process.platform === 'linux' &&
  requireCapability('bwrap', probe.ok, `${probe.ok ? '' : probe.reason} Install it with: apt-get install bubblewrap`)

describe.runIf(ready)('bwrap runtime (real bubblewrap)', () => {
  const bwrap = new BwrapRuntime()
  let workspace: string
  let server: Awaited<ReturnType<typeof startHttpServer>>

  beforeAll(async () => {
    server = await startHttpServer()
  })
  afterAll(async () => {
    await server.close()
  })
  afterEach(() => {
    delete process.env.DESKCLAW_TEST_API_KEY
  })

  const run = (command: string, extra: RequestExtras = {}) => {
    workspace = tempWorkspace()
    return bwrap.exec({ command, cwd: workspace, timeoutMs: 10_000, ...extra })
  }

  it('probes ok and names itself', async () => {
    expect(probe.ok && probe.detail).toMatch(/bubblewrap/)
    const result = await run('echo hi')
    expect(result).toMatchObject({ exitCode: 0, stdout: 'hi\n', runtime: 'bwrap', truncated: false })
  })

  it('cannot reach the network: a host server natively reachable is not reachable inside', async () => {
    const fetchCommand = `printf 'GET / HTTP/1.0\\r\\n\\r\\n' | /bin/busybox nc -w 2 127.0.0.1 ${server.port}`
    const native = await new NativeRuntime().exec({ command: fetchCommand, cwd: tempWorkspace(), timeoutMs: 10_000 })
    expect(native.stdout).toContain('reachable')
    const hitsBefore = server.hits()

    const sandboxed = await run(`${fetchCommand}; echo "nc=$?"; cat /proc/net/dev | tail -n +3 | cut -d: -f1`)
    expect(sandboxed.stdout).not.toContain('reachable')
    expect(sandboxed.stdout).toMatch(/nc=[1-9]/)
    // Only the loopback interface exists in the new network namespace.
    expect(sandboxed.stdout.trim().split('\n').slice(1).map((line) => line.trim())).toEqual(['lo'])
    expect(server.hits()).toBe(hitsBefore)
  })

  it('writes only inside the workspace; the workspace write is on the host', async () => {
    const outside = fs.mkdtempSync('/var/tmp/deskclaw-outside-')
    try {
      const result = await run(
        `echo data > inside.txt && echo ws=ok; ` +
          `touch ${outside}/escape.txt 2>/dev/null; echo outside=$?; ` +
          `touch /etc/deskclaw-escape 2>/dev/null; echo etc=$?; ` +
          `mount -o remount,rw / 2>/dev/null; echo remount=$?`
      )
      expect(result.stdout).toContain('ws=ok')
      expect(result.stdout).toMatch(/outside=[1-9]/)
      expect(result.stdout).toMatch(/etc=[1-9]/)
      expect(result.stdout).toMatch(/remount=[1-9]/)
      expect(fs.readFileSync(path.join(workspace, 'inside.txt'), 'utf8')).toBe('data\n')
      expect(fs.existsSync(path.join(outside, 'escape.txt'))).toBe(false)
      expect(fs.existsSync('/etc/deskclaw-escape')).toBe(false)
    } finally {
      fs.rmSync(outside, { recursive: true, force: true })
    }
  })

  it('has a private /tmp: host files are invisible and its writes never reach the host', async () => {
    const hostFile = path.join('/tmp', `deskclaw-host-secret-${process.pid}`)
    fs.writeFileSync(hostFile, 'secret')
    try {
      const result = await run(`ls /tmp; test -e ${hostFile} && echo visible || echo absent; echo x > /tmp/deskclaw-from-sandbox-${process.pid}`)
      expect(result.stdout).toContain('absent')
      expect(result.stdout).not.toContain('deskclaw-host-secret')
      expect(result.exitCode).toBe(0)
      expect(fs.existsSync(`/tmp/deskclaw-from-sandbox-${process.pid}`)).toBe(false)
    } finally {
      fs.rmSync(hostFile, { force: true })
    }
  })

  it('sees no host processes and holds no capabilities', async () => {
    const result = await run('ls /proc | grep -c "^[0-9]"; grep -E "^(CapEff|NoNewPrivs)" /proc/self/status')
    const [count, capEff] = result.stdout.trim().split('\n')
    expect(Number(count)).toBeLessThan(10)
    expect(capEff).toMatch(/CapEff:\s+0+$/)
  })

  it('scrubs secrets from the environment unless allowed', async () => {
    process.env.DESKCLAW_TEST_API_KEY = 'sk-bwrap'
    const command = 'echo "key=${DESKCLAW_TEST_API_KEY:-none}"'
    expect((await run(command)).stdout).toBe('key=none\n')
    const allowed = await new BwrapRuntime({ allowEnv: ['DESKCLAW_TEST_API_KEY'] }).exec({ command, cwd: tempWorkspace(), timeoutMs: 10_000 })
    expect(allowed.stdout).toBe('key=sk-bwrap\n')
  })

  it('a timeout stops the command and its children; nothing is left on the host', async () => {
    const started = Date.now()
    const result = await run('sleep 927 & sleep 927', { timeoutMs: 1_000 })
    expect(result.timedOut).toBe(true)
    expect(result).toMatchObject({ exitCode: null, signal: 'SIGTERM' })
    expect(Date.now() - started).toBeLessThan(4_000)
    await sleep(100)
    expect(hostProcessesMatching('sleep 927')).toEqual([])
  })

  it('the command gets SIGTERM first (a grace period), then SIGKILL', async () => {
    const result = await run('trap "echo got-term; exit 0" TERM; echo ready; while :; do sleep 0.1; done', { timeoutMs: 700 })
    expect(result.timedOut).toBe(true)
    expect(result.stdout).toBe('ready\ngot-term\n')

    const stubborn = await run('trap "" TERM; sleep 928 & while :; do sleep 0.1; done', { timeoutMs: 500 })
    expect(stubborn.timedOut).toBe(true)
    expect(stubborn.durationMs).toBeGreaterThanOrEqual(2_000)
    expect(stubborn.durationMs).toBeLessThan(4_500)
    await sleep(100)
    expect(hostProcessesMatching('sleep 928')).toEqual([])
  })

  it('a cancel (AbortSignal) stops a running sleep within a second', async () => {
    const controller = new AbortController()
    const running = run('sleep 929', { timeoutMs: 60_000, signal: controller.signal })
    await sleep(300)
    const abortedAt = Date.now()
    controller.abort()
    const result = await running
    expect(Date.now() - abortedAt).toBeLessThan(1_000)
    expect(result.cancelled).toBe(true)
    await sleep(100)
    expect(hostProcessesMatching('sleep 929')).toEqual([])
  })

  it('streams output live: the first line arrives before the command exits', async () => {
    const arrivals: Array<{ chunk: string; at: number }> = []
    const started = Date.now()
    const result = await run('echo first; sleep 1; echo second', {
      onOutput: (_stream, chunk) => arrivals.push({ chunk, at: Date.now() - started })
    })
    expect(result.stdout).toBe('first\nsecond\n')
    expect(arrivals[0]?.chunk).toBe('first\n')
    expect(arrivals[0]!.at).toBeLessThan(result.durationMs - 500)
  })

  it('runs an argv without a shell', async () => {
    const result = await bwrap.exec({ argv: ['/bin/echo', '$HOME'], cwd: tempWorkspace(), timeoutMs: 5_000 })
    expect(result.stdout).toBe('$HOME\n')
  })
})

describe.runIf(ready)('bwrap when the app is killed', () => {
  it('takes the sandboxed command with it: nothing is left running after a SIGKILL mid-command', async () => {
    const childFile = await bundleFixture(path.join(__dirname, 'fixtures/bwrap-child.ts'), tempWorkspace('deskclaw-bwrap-child-'), ['dockerode'])
    const seconds = `${300 + (process.pid % 100)}.${Date.now() % 997}` // a sleep nobody else runs
    await runChildUntilReadyThenKill<BwrapChildReady>(childFile, [tempWorkspace('deskclaw-bwrap-ws-'), seconds], 'bwrap child')
    const deadline = Date.now() + 3_000
    while (hostProcessesMatching(`sleep ${seconds}`).length > 0 && Date.now() < deadline) await sleep(50)
    expect(hostProcessesMatching(`sleep ${seconds}`)).toEqual([])
    expect(hostProcessesMatching(seconds)).toEqual([]) // bwrap itself is gone too
  })
})

describe.runIf(process.platform === 'linux')('bwrap probe', () => {
  it('says clearly when bwrap is missing', async () => {
    const missing = await BwrapRuntime.probe({ bwrapPath: '/nonexistent/bwrap' })
    expect(missing).toEqual({
      ok: false,
      reason: 'bwrap is not installed (/nonexistent/bwrap not found); install bubblewrap, e.g. apt-get install bubblewrap.'
    })
    await expect(new BwrapRuntime({ bwrapPath: '/nonexistent/bwrap' }).exec({ command: 'true', cwd: tempWorkspace(), timeoutMs: 1_000 })).rejects.toThrow(
      /bwrap is not installed/
    )
  })
})
