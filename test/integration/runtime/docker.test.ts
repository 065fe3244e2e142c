import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import Docker from 'dockerode'
import { afterAll, describe, expect, it } from 'vitest'
import { DOCKER_LABELS, DockerRuntime } from '../../../src/main/runtime'
import { requireCapability } from '../../helpers/capability'
import { type RequestExtras, dockerTestImageReady, hasCommand, hostTrueMs, sleep, startHttpServer, TEST_IMAGE, tempWorkspace, removeTempWorkspaces } from './helpers'

afterAll(removeTempWorkspaces)

const ready = await dockerTestImageReady()
const MiB = 1024 * 1024

/** Processes in the container, as `pid args` lines, without the ps that lists them. */
async function containerProcesses(docker: Docker, containerId: string): Promise<string[]> {
  const exec = await docker.getContainer(containerId).exec({ Cmd: ['ps', '-o', 'pid,args'], AttachStdout: true, AttachStderr: true })
  const stream = await exec.start({ hijack: true, stdin: false })
  let text = ''
  const sink = new PassThrough().on('data', (chunk: Buffer) => (text += chunk.toString()))
  docker.modem.demuxStream(stream, sink, sink)
  await new Promise((resolve) => stream.on('end', resolve))
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^\d+\s/.test(line) && !/\sps -o pid,args$/.test(line))
}

/** The container's own processes, and the idle persistent shells that run its commands (docs/runtimes.md). */
const KEEP_ALIVE = [/docker-init/, /while :; do sleep 3600/, /^\d+\s+sleep 3600$/, /deskclaw-shell/]
const onlyKeepAlive = (processes: string[]): boolean =>
  processes.some((line) => line.includes('docker-init')) && processes.every((line) => KEEP_ALIVE.some((pattern) => pattern.test(line)))

describe.runIf(ready)('docker runtime (real engine)', () => {
  const workspace = tempWorkspace('deskclaw-docker-')
  const runtime = new DockerRuntime({ image: TEST_IMAGE, limits: { memoryBytes: 64 * MiB, pidsLimit: 64 } })
  const docker = runtime.docker
  let conversation = 0
  /** Each test its own conversation, so its container is fresh. */
  const newConversation = (): string => `test-${process.pid}-${++conversation}`
  const run = (conversationId: string, command: string, extra: RequestExtras = {}) =>
    runtime.exec({ command, cwd: workspace, conversationId, timeoutMs: 20_000, ...extra })

  afterAll(async () => {
    await runtime.close()
    fs.rmSync(workspace, { recursive: true, force: true })
  })

  it('runs in a locked-down container: inspect shows the isolation and the limits', async () => {
    const id = newConversation()
    const result = await run(id, 'echo hi; id -u')
    expect(result).toMatchObject({ exitCode: 0, stdout: `hi\n${process.getuid!()}\n`, runtime: 'docker', oomKilled: false })

    const info = await docker.getContainer((await runtime.containerId(id))!).inspect()
    expect(info.HostConfig.ReadonlyRootfs).toBe(true)
    expect(info.HostConfig.CapDrop).toEqual(['ALL'])
    expect(info.HostConfig.CapAdd ?? []).toEqual([])
    expect(info.HostConfig.NetworkMode).toBe('none')
    expect(info.HostConfig.SecurityOpt).toContain('no-new-privileges')
    expect(info.HostConfig.Privileged).toBe(false)
    expect(info.HostConfig.Memory).toBe(64 * MiB)
    expect(info.HostConfig.MemorySwap).toBe(64 * MiB)
    expect(info.HostConfig.NanoCpus).toBe(1e9)
    expect(info.HostConfig.PidsLimit).toBe(64)
    expect(info.HostConfig.Tmpfs).toEqual({ '/tmp': 'rw,nosuid,nodev,size=256m' })
    expect(info.HostConfig.Init).toBe(true)
    expect(info.Mounts.map((mount) => [mount.Type, mount.Source, mount.Destination, mount.RW])).toEqual([['bind', workspace, workspace, true]])
    expect(info.Config.Labels).toMatchObject({
      [DOCKER_LABELS.app]: 'deskclaw',
      [DOCKER_LABELS.conversation]: id,
      [DOCKER_LABELS.ownerPid]: String(process.pid)
    })
    expect(info.Config.WorkingDir).toBe(workspace)
    // No docker socket, no host environment.
    expect(info.Mounts.some((mount) => mount.Source.includes('docker.sock'))).toBe(false)
    expect(info.Config.Env.map((entry) => entry.split('=')[0]).sort()).toEqual(['HOME', 'PATH'])
  })

  it('cannot reach the network: a host server a bridged container can reach is unreachable', async () => {
    const server = await startHttpServer()
    try {
      const request = `printf 'GET / HTTP/1.0\\r\\n\\r\\n' | nc -w 3`

      // Control: a container on the default bridge reaches the server through its gateway (the host).
      const control = await docker.createContainer({
        Image: TEST_IMAGE,
        Cmd: ['/bin/sh', '-c', `gw=$(ip route | awk '/^default/ {print $3}'); echo "gw=$gw"; ${request} "$gw" ${server.port}`],
        HostConfig: { NetworkMode: 'bridge' }
      })
      let hostIp: string
      try {
        await control.start()
        await control.wait()
        const logs = (await control.logs({ stdout: true, stderr: true })).toString('latin1')
        expect(logs).toContain('reachable')
        hostIp = /gw=([\d.]+)/.exec(logs)![1]!
      } finally {
        await control.remove({ force: true })
      }
      const fetch = `${request} ${hostIp} ${server.port}`
      const hitsAfterControl = server.hits()

      const result = await run(newConversation(), `${fetch}; echo "nc=$?"; ip -o link | cut -d: -f2`)
      expect(result.stdout).not.toContain('reachable')
      expect(result.stdout).toMatch(/nc=[1-9]/)
      expect(result.stdout.trim().split('\n').slice(1).map((line) => line.trim())).toEqual(['lo'])
      expect(server.hits()).toBe(hitsAfterControl)
    } finally {
      await server.close()
    }
  })

  it('writing to / fails; writing to the workspace works and lands on the host', async () => {
    const result = await run(newConversation(), 'touch /escape 2>&1; echo "root=$?"; echo from-container > in-workspace.txt && echo ws=ok')
    expect(result.stdout).toContain('Read-only file system')
    expect(result.stdout).toMatch(/root=[1-9]/)
    expect(result.stdout).toContain('ws=ok')
    expect(fs.readFileSync(path.join(workspace, 'in-workspace.txt'), 'utf8')).toBe('from-container\n')
    expect(fs.statSync(path.join(workspace, 'in-workspace.txt')).uid).toBe(process.getuid!())
  })

  it('a memory hog is killed by the limit and reported as out of memory; the container lives on', async () => {
    const id = newConversation()
    const containerBefore = (await run(id, 'true'), await runtime.containerId(id))
    // dd allocates (and touches) a 200 MiB buffer: far beyond the 64 MiB limit.
    const hog = await run(id, 'echo start; exec dd if=/dev/zero of=/dev/null bs=200M count=1')
    expect(hog).toMatchObject({ oomKilled: true, exitCode: null, signal: 'SIGKILL', timedOut: false, stdout: 'start\n' })
    expect(hog.stderr).toMatch(/deskclaw: the command was killed because the sandbox ran out of memory \(limit 64 MiB\)\.\n$/)

    // A script that goes on after its hog was killed still learns why.
    const script = await run(id, 'dd if=/dev/zero of=/dev/null bs=200M count=1; echo "dd=$?"')
    expect(script).toMatchObject({ oomKilled: true, exitCode: 0, stdout: 'dd=137\n' })
    expect(script.stderr).toContain('ran out of memory')

    const after = await run(id, 'echo alive')
    expect(after).toMatchObject({ exitCode: 0, stdout: 'alive\n', oomKilled: false })
    expect(await runtime.containerId(id)).toBe(containerBefore)
    // A plain SIGKILL is not mistaken for an OOM kill.
    const killed = await run(id, 'kill -KILL $$')
    expect(killed.oomKilled).toBe(false)
    expect(killed.exitCode).toBe(137)
  })

  it('a fork bomb is contained by the pids limit; the host stays responsive; the sandbox works afterwards', async () => {
    const id = newConversation()
    await run(id, 'true')
    const containerId = (await runtime.containerId(id))!
    // The loop keeps the shell there until the timeout even when `sleep` itself cannot fork (a busy machine).
    const bomb = run(id, 'bomb() { bomb | bomb & }; bomb; while :; do sleep 1 || :; done', { timeoutMs: 4_000 })
    await sleep(2_000)
    const hostLatencies = [await hostTrueMs(), await hostTrueMs(), await hostTrueMs()]
    const result = await bomb
    expect(result.timedOut).toBe(true)
    // The limit, not the host, stopped it: forks failed inside.
    expect(result.stderr).toMatch(/can't fork|Resource temporarily unavailable/)
    expect(Math.max(...hostLatencies)).toBeLessThan(500)

    const after = await run(id, 'echo still-works')
    expect(after).toMatchObject({ exitCode: 0, stdout: 'still-works\n' })
    // The same container: the bomb's process group was killed inside it.
    expect(await runtime.containerId(id)).toBe(containerId)
    expect(onlyKeepAlive(await containerProcesses(docker, containerId))).toBe(true)
  }, 30_000)

  it('a timeout kills the exec and leaves no process but the keep-alive', async () => {
    const id = newConversation()
    const started = Date.now()
    const result = await run(id, 'sleep 100 & sleep 100', { timeoutMs: 1_000 })
    expect(result).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGTERM' })
    expect(Date.now() - started).toBeLessThan(3_000)
    const processes = await containerProcesses(docker, (await runtime.containerId(id))!)
    expect(processes.some((line) => line.includes('sleep 100'))).toBe(false)
    expect(onlyKeepAlive(processes)).toBe(true)
  })

  it('a command that ignores SIGTERM is SIGKILLed after the grace period', async () => {
    const id = newConversation()
    const result = await run(id, 'trap "" TERM; sleep 101 & while :; do sleep 0.2; done', { timeoutMs: 500 })
    expect(result.timedOut).toBe(true)
    expect(result.durationMs).toBeGreaterThanOrEqual(2_400)
    expect(result.durationMs).toBeLessThan(6_000)
    expect(onlyKeepAlive(await containerProcesses(docker, (await runtime.containerId(id))!))).toBe(true)
  })

  it('a cancel (AbortSignal) stops a running sleep 100 within a second, output streamed live', async () => {
    const id = newConversation()
    await run(id, 'true')
    const controller = new AbortController()
    const live: string[] = []
    const running = run(id, 'echo started; sleep 100', { timeoutMs: 60_000, signal: controller.signal, onOutput: (_s, chunk) => live.push(chunk) })
    await sleep(500)
    expect(live.join('')).toBe('started\n')
    const abortedAt = Date.now()
    controller.abort()
    const result = await running
    expect(Date.now() - abortedAt).toBeLessThan(1_000)
    expect(result).toMatchObject({ cancelled: true, timedOut: false, stdout: 'started\n' })
    expect(onlyKeepAlive(await containerProcesses(docker, (await runtime.containerId(id))!))).toBe(true)
  })

  it('a command that defeats the in-container kill is stopped by killing its container; the next command gets a new one', async () => {
    const id = newConversation()
    await run(id, 'true')
    const first = (await runtime.containerId(id))!
    // Deleting the wrapper's record leaves `docker exec kill` nothing to signal.
    const result = await run(id, 'rm -f /tmp/.deskclaw-exec-*; sleep 102', { timeoutMs: 500 })
    expect(result).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGKILL' })
    expect(result.durationMs).toBeLessThan(12_000)
    expect((await docker.getContainer(first).inspect()).State.Running).toBe(false)
    expect(await run(id, 'echo fresh')).toMatchObject({ exitCode: 0, stdout: 'fresh\n' })
    expect(await runtime.containerId(id)).not.toBe(first)
  }, 30_000)

  it('five commands in parallel in one conversation all succeed, in one container', async () => {
    const id = newConversation()
    const results = await Promise.all([1, 2, 3, 4, 5].map((n) => run(id, `sleep 0.3; echo job-${n}; echo err-${n} >&2`)))
    expect(results.map((result) => [result.exitCode, result.stdout, result.stderr])).toEqual(
      [1, 2, 3, 4, 5].map((n) => [0, `job-${n}\n`, `err-${n}\n`])
    )
    const containers = await docker.listContainers({ all: true, filters: { label: [`${DOCKER_LABELS.conversation}=${id}`] } })
    expect(containers).toHaveLength(1)
  })

  it('a container that died is recreated transparently on the next command', async () => {
    const id = newConversation()
    await run(id, 'true')
    const first = (await runtime.containerId(id))!
    await docker.getContainer(first).kill()
    const result = await run(id, 'echo back')
    expect(result).toMatchObject({ exitCode: 0, stdout: 'back\n' })
    expect(await runtime.containerId(id)).not.toBe(first)
  })

  it('argv runs without a shell; env is minimal and request env is added', async () => {
    const id = newConversation()
    process.env.DESKCLAW_TEST_API_KEY = 'sk-docker'
    try {
      const argv = await runtime.exec({ argv: ['echo', '$HOME'], cwd: workspace, conversationId: id, timeoutMs: 10_000 })
      expect(argv.stdout).toBe('$HOME\n')
      const env = await run(id, 'echo "$HOME ${DESKCLAW_TEST_API_KEY:-none} $EXTRA"', { env: { EXTRA: 'extra' } })
      expect(env.stdout).toBe('/tmp none extra\n')
    } finally {
      delete process.env.DESKCLAW_TEST_API_KEY
    }
  })

  it('closeConversation removes the conversation container', async () => {
    const id = newConversation()
    await run(id, 'true')
    const containerId = (await runtime.containerId(id))!
    await runtime.closeConversation(id)
    await expect(docker.getContainer(containerId).inspect()).rejects.toMatchObject({ statusCode: 404 })
  })

  it('a cwd outside the workspace is refused in one line', async () => {
    await expect(runtime.exec({ command: 'true', cwd: '/etc', workspace, timeoutMs: 5_000 })).rejects.toThrow(
      `The command's folder /etc is outside the workspace ${workspace}.`
    )
  })
})

describe.runIf(ready)('docker image and engine errors', () => {
  it('a missing image that cannot be pulled names the image and how to build it', async () => {
    const runtime = new DockerRuntime({ image: 'deskclaw/does-not-exist:0' })
    const progress: unknown[] = []
    const started = Date.now()
    await expect(runtime.ensureImage((event) => progress.push(event))).rejects.toThrow(
      /^Cannot pull the sandbox image deskclaw\/does-not-exist:0 \(.+\)\. Build it locally instead: docker build -t deskclaw\/does-not-exist:0 resources\/sandbox/
    )
    expect(Date.now() - started).toBeLessThan(20_000)
  })

  it('an existing image needs no pull', async () => {
    const runtime = new DockerRuntime({ image: TEST_IMAGE })
    const progress: unknown[] = []
    await runtime.ensureImage((event) => progress.push(event))
    expect(progress).toEqual([])
  })
})

describe.runIf(ready)('DOCKER_HOST over tcp (the local engine exposed with socat)', () => {
  const socatReady = requireCapability('socat', hasCommand('socat'), 'apt-get install socat')

  it.runIf(socatReady)('runs a command through a tcp:// engine address', async () => {
    const port = 20_000 + (process.pid % 20_000)
    const socat = spawn('socat', [`TCP-LISTEN:${port},bind=127.0.0.1,fork,reuseaddr`, 'UNIX-CONNECT:/var/run/docker.sock'], { stdio: 'ignore' })
    const workspace = tempWorkspace('deskclaw-tcp-')
    const runtime = new DockerRuntime({ image: TEST_IMAGE, dockerHost: `tcp://127.0.0.1:${port}` })
    try {
      let probe = await runtime.probe()
      for (let i = 0; i < 50 && !probe.ok; i++) {
        await sleep(100)
        probe = await runtime.probe()
      }
      expect(probe.ok && probe.detail).toContain(`http://127.0.0.1:${port}`)
      const result = await runtime.exec({ command: 'echo over-tcp > via-tcp.txt; cat via-tcp.txt', cwd: workspace, timeoutMs: 10_000 })
      expect(result).toMatchObject({ exitCode: 0, stdout: 'over-tcp\n', runtime: 'docker' })
      expect(fs.readFileSync(path.join(workspace, 'via-tcp.txt'), 'utf8')).toBe('over-tcp\n')
    } finally {
      await runtime.close()
      socat.kill()
    }
  })
})

describe('DOCKER_HOST', () => {
  it('a dead tcp port gives a clear probe reason within about 2 s', async () => {
    const started = Date.now()
    const probe = await DockerRuntime.probe({ dockerHost: 'tcp://127.0.0.1:1' })
    expect(Date.now() - started).toBeLessThan(2_500)
    expect(probe).toEqual({
      ok: false,
      reason: 'The Docker engine at http://127.0.0.1:1 refused the connection: is Docker running there? (check DOCKER_HOST)'
    })
  })

  it('a malformed address is a clear probe reason, and auto skips docker for it', async () => {
    const probe = await DockerRuntime.probe({ dockerHost: 'tcp://[not-an-address' })
    expect(probe).toEqual({
      ok: false,
      reason: 'DOCKER_HOST=tcp://[not-an-address is not a valid engine address (DOCKER_HOST env variable should be something like tcp://localhost:1234).'
    })
    expect(() => new DockerRuntime({ dockerHost: 'tcp://[not-an-address' })).toThrow(/is not a valid engine address/)
  })

  it('is read from the environment when no host is given', async () => {
    const saved = process.env.DOCKER_HOST
    process.env.DOCKER_HOST = 'tcp://127.0.0.1:1'
    try {
      const probe = await new DockerRuntime().probe()
      expect(probe.ok).toBe(false)
      expect(!probe.ok && probe.reason).toContain('127.0.0.1:1')
    } finally {
      if (saved === undefined) delete process.env.DOCKER_HOST
      else process.env.DOCKER_HOST = saved
    }
  })

  it('an engine that never answers times out in about 2 s', async () => {
    // A listener that accepts and then says nothing.
    const net = await import('node:net')
    const silent = net.createServer(() => {})
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    try {
      const port = (silent.address() as { port: number }).port
      const started = Date.now()
      const probe = await DockerRuntime.probe({ dockerHost: `tcp://127.0.0.1:${port}` })
      expect(Date.now() - started).toBeLessThan(3_000)
      expect(probe).toEqual({ ok: false, reason: `The Docker engine at http://127.0.0.1:${port} did not answer within 2 s.` })
    } finally {
      silent.close()
    }
  })
})
