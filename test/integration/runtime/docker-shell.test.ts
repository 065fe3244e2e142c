/**
 * The docker runtime's persistent shell (docs/runtimes.md, "The persistent shell"), on a real
 * engine and the busybox test image: commands that attack the protocol (close stdin, read it,
 * print a sentinel, kill the shell, leave processes behind) get their own correct result and
 * leave the next command working; cwd and environment do not leak from one command to the next.
 */
import fs from 'node:fs'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import Docker from 'dockerode'
import { afterAll, describe, expect, it } from 'vitest'
import { DockerRuntime, OUTPUT_CAP_CHARS } from '../../../src/main/runtime'
import { type RequestExtras, dockerTestImageReady, removeTempWorkspaces, sleep, TEST_IMAGE, tempWorkspace } from './helpers'

afterAll(removeTempWorkspaces)

const ready = await dockerTestImageReady()

/** `pid args` of the container's processes, without the ps that lists them. */
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

const shellsIn = (processes: string[]): string[] => processes.filter((line) => line.includes('deskclaw-shell'))

describe.runIf(ready)('docker: the persistent shell (real engine)', () => {
  const workspace = tempWorkspace('deskclaw-docker-shell-')
  const runtime = new DockerRuntime({ image: TEST_IMAGE })
  const docker = runtime.docker
  let conversation = 0
  const newConversation = (): string => `shell-${process.pid}-${++conversation}`
  const run = (conversationId: string, command: string, extra: RequestExtras = {}) =>
    runtime.exec({ command, cwd: workspace, conversationId, timeoutMs: 20_000, ...extra })

  afterAll(async () => {
    await runtime.close()
    fs.rmSync(workspace, { recursive: true, force: true })
  })

  it('runs every command of a conversation in the same shell process, with stdout, stderr and status apart', async () => {
    const id = newConversation()
    const first = await run(id, 'echo out; echo err >&2; printf no-newline; exit 3')
    expect(first).toMatchObject({ exitCode: 0 + 3, signal: null, stdout: 'out\nno-newline', stderr: 'err\n', runtime: 'docker' })
    const shellPid = (await run(id, 'echo $PPID')).stdout
    expect(shellPid).toMatch(/^\d+\n$/)
    for (let i = 0; i < 3; i++) expect((await run(id, 'echo $PPID')).stdout).toBe(shellPid)
    // That shell, and one spare kept idle so a Stop never waits for a new exec.
    const shells = shellsIn(await containerProcesses(docker, (await runtime.containerId(id))!)).map((line) => `${line.split(/\s+/)[0]}\n`)
    expect(shells).toContain(shellPid)
    expect(shells).toHaveLength(2)
  })

  it('cwd and environment are the request’s every time: nothing a command changes reaches the next', async () => {
    const id = newConversation()
    fs.mkdirSync(path.join(workspace, 'sub'), { recursive: true })
    const changed = await run(id, 'cd /tmp; export LEAK=1; umask 077; alias x=y; echo "$PWD"', { env: { ONLY_HERE: 'a' } })
    expect(changed.stdout).toBe('/tmp\n')
    const next = await runtime.exec({
      command: 'pwd; echo "leak=${LEAK:-none} only=${ONLY_HERE:-none} pwd=$PWD"; umask',
      cwd: path.join(workspace, 'sub'),
      workspace,
      conversationId: id,
      timeoutMs: 20_000
    })
    expect(next.stdout).toBe(`${workspace}/sub\nleak=none only=none pwd=${workspace}/sub\n0022\n`)
    // Every command gets its own run marker.
    const markers = [(await run(id, 'echo $DESKCLAW_RUN_ID')).stdout, (await run(id, 'echo $DESKCLAW_RUN_ID')).stdout]
    expect(markers[0]).toMatch(/^[0-9a-f-]{36}\n$/)
    expect(markers[1]).not.toBe(markers[0])
  })

  it('a command reading stdin gets end of file, not the protocol stream; one that closes stdin does not disturb the shell', async () => {
    const id = newConversation()
    expect(await run(id, 'cat; echo "cat=$?"; read -r line; echo "read=$?"')).toMatchObject({ exitCode: 0, stdout: 'cat=0\nread=1\n' })
    expect(await run(id, 'exec 0<&-; echo closed; cat 2>/dev/null; echo "cat=$?"')).toMatchObject({ exitCode: 0, stdout: 'closed\ncat=1\n' })
    expect(await run(id, 'echo next')).toMatchObject({ exitCode: 0, stdout: 'next\n' })
  })

  it('sentinel text in the output does not end the command early: the nonce is new for each command', async () => {
    const id = newConversation()
    // What the frames look like, with a made-up nonce, and with every stray byte around them.
    const fake = `printf '\\037deskclaw:%s:end:0\\n' 0123456789abcdef0123456789abcdef; printf '\\037deskclaw:x:start\\n\\037'`
    const result = await run(id, `${fake}; { ${fake}; } >&2; sleep 0.3; echo still-running; exit 7`)
    expect(result.exitCode).toBe(7)
    expect(result.stdout).toBe('\x1fdeskclaw:0123456789abcdef0123456789abcdef:end:0\n\x1fdeskclaw:x:start\n\x1fstill-running\n')
    expect(result.stderr).toBe('\x1fdeskclaw:0123456789abcdef0123456789abcdef:end:0\n\x1fdeskclaw:x:start\n\x1f')
    expect(await run(id, 'echo next')).toMatchObject({ exitCode: 0, stdout: 'next\n' })
  })

  it.each([
    ['kill -9 $PPID', 'kill -9 $PPID; sleep 0.2; echo after-kill'],
    ['a kill of every persistent shell found in ps', "for p in $(ps -o pid,args | grep '[d]eskclaw-shell' | cut -c1-6); do kill -9 $p; done; sleep 30"]
  ])('a command that kills its shell (%s) gets an error, its processes are ended, and the next command runs in a new shell', async (_name, command) => {
    const id = newConversation()
    const shellBefore = (await run(id, 'echo $PPID')).stdout
    const result = await run(id, command)
    expect(result).toMatchObject({ exitCode: null, signal: 'SIGKILL', timedOut: false, cancelled: false })
    expect(result.stderr).toContain('deskclaw: the sandbox shell running this command ended before it')
    expect(result.durationMs).toBeLessThan(10_000)
    const containerId = (await runtime.containerId(id))!
    expect((await containerProcesses(docker, containerId)).filter((line) => /sleep (0\.2|30)/.test(line))).toEqual([])
    const next = await run(id, 'echo $PPID')
    expect(next.exitCode).toBe(0)
    expect(next.stdout).not.toBe(shellBefore)
    // The same container: only the shell was replaced.
    expect(await runtime.containerId(id)).toBe(containerId)
  })

  it('background processes left behind do not hold the result back, and are gone after it', async () => {
    const id = newConversation()
    const result = await run(id, 'sleep 40 & setsid sleep 41 & (sleep 42 &); echo done')
    expect(result).toMatchObject({ exitCode: 0, stdout: 'done\n' })
    expect(result.durationMs).toBeLessThan(5_000)
    const processes = await containerProcesses(docker, (await runtime.containerId(id))!)
    expect(processes.filter((line) => /sleep 4[012]/.test(line))).toEqual([])
  })

  it('a timeout through the shell kills the command and its children; Stop (abort) ends it within 200 ms', async () => {
    const id = newConversation()
    await run(id, 'true')
    const containerId = (await runtime.containerId(id))!
    const timedOut = await run(id, 'sleep 50 & setsid sleep 51 & sleep 52', { timeoutMs: 500 })
    expect(timedOut).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGTERM' })
    expect((await containerProcesses(docker, containerId)).filter((line) => /sleep 5[012]/.test(line))).toEqual([])

    const controller = new AbortController()
    const live: string[] = []
    const running = run(id, 'echo started; sleep 53', { signal: controller.signal, onOutput: (_stream, chunk) => live.push(chunk) })
    while (live.join('') !== 'started\n') await sleep(10)
    const abortedAt = performance.now()
    controller.abort()
    const cancelled = await running
    const stopMs = performance.now() - abortedAt
    expect(cancelled).toMatchObject({ cancelled: true, exitCode: null, stdout: 'started\n' })
    expect(stopMs).toBeLessThan(200)
    expect((await containerProcesses(docker, containerId)).filter((line) => /sleep 53/.test(line))).toEqual([])
    expect(await run(id, 'echo next')).toMatchObject({ exitCode: 0, stdout: 'next\n' })
  })

  it('output past the cap is cut and flagged, the command still ends with its status, and the next command is clean', async () => {
    const id = newConversation()
    const live: number[] = []
    const big = await run(id, `head -c ${OUTPUT_CAP_CHARS + 1_000_000} /dev/zero | tr '\\0' a; echo tail >&2; exit 5`, {
      onOutput: (_stream, chunk) => live.push(chunk.length)
    })
    expect(big).toMatchObject({ exitCode: 5, truncated: true, stderr: 'tail\n' })
    expect(big.stdout.length).toBe(OUTPUT_CAP_CHARS)
    expect(/^a+$/.test(big.stdout)).toBe(true)
    // Streamed in pieces as it came, not in one block at the end.
    expect(live.length).toBeGreaterThan(10)
    // Multi-byte characters cut across the engine's frames arrive whole.
    const text = '中文 ünï 🙂\n'.repeat(20_000)
    fs.writeFileSync(path.join(workspace, 'utf8.txt'), text)
    expect(await run(id, 'cat utf8.txt')).toMatchObject({ exitCode: 0, stdout: text, truncated: false })
  })

  it('sandbox guarantees hold through the shell: no network, read-only root, limits', async () => {
    const id = newConversation()
    const result = await run(
      id,
      'ip -o link | cut -d: -f2; touch /escape 2>/dev/null; echo "root=$?"; cat /sys/fs/cgroup/pids.max /sys/fs/cgroup/pids/pids.max 2>/dev/null'
    )
    expect(result.stdout).toBe(' lo\nroot=1\n256\n')
  })

  it('without the persistent shell (persistentShell: false) each command is its own exec, with the same results', async () => {
    const plain = new DockerRuntime({ image: TEST_IMAGE, persistentShell: false })
    try {
      const id = newConversation()
      const result = await plain.exec({ command: 'echo out; echo err >&2; exit 3', cwd: workspace, conversationId: id, timeoutMs: 20_000 })
      expect(result).toMatchObject({ exitCode: 3, stdout: 'out\n', stderr: 'err\n' })
      expect(shellsIn(await containerProcesses(plain.docker, (await plain.containerId(id))!))).toEqual([])
    } finally {
      await plain.close()
    }
  })
})
