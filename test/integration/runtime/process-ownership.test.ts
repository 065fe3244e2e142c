import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { BwrapRuntime, DockerRuntime, NativeRuntime, type Runtime } from '../../../src/main/runtime'
import { findMarkedProcesses } from '../../../src/main/runtime/stray-processes'
import { startScriptedOpenAI } from '../../fixtures/scripted-openai'
import type { ScriptStep, ScriptedServer } from '../../fixtures/scripted-types'
import { cliPath, requireBuiltCli } from '../../helpers/cli'
import { requireCapability } from '../../helpers/capability'
import { dockerTestImageReady, hostProcessesMatching, removeTempWorkspaces, sleep, tempWorkspace, TEST_IMAGE } from './helpers'

/**
 * docs/runtimes.md, "A run owns its processes": what a command starts ends with it — also
 * children that left its process group — and everything ends when the app is SIGKILLed.
 * Every check first sees the process alive, so it fails if nothing is started.
 */

const linux = process.platform === 'linux'
const bwrapProbe = linux ? await BwrapRuntime.probe() : { ok: false as const, reason: 'Linux only' }
const bwrapReady = linux && requireCapability('bwrap', bwrapProbe.ok, `${bwrapProbe.ok ? '' : bwrapProbe.reason} apt-get install bubblewrap`)
const dockerReady = linux && (await dockerTestImageReady())

/** A sleep length nobody else runs, so the host's process list tells its processes apart. */
let unique = 0
const uniqueSeconds = (): number => 100_000 + ((process.pid * 1000 + ++unique * 7919 + Date.now()) % 800_000)

/** Running, not a zombie waiting for its parent (/proc/<pid>/stat state). */
function isRunning(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3)
    return state !== 'Z' && state !== 'X'
  } catch {
    return false
  }
}

/**
 * Host processes (any pid namespace) whose command line mentions `sleep <seconds>` — the sleep,
 * and the shells and bwrap that run it — zombies left out.
 */
function sleepers(seconds: number): string[] {
  return hostProcessesMatching(`sleep ${seconds}`).filter((line) => isRunning(Number(line.split(':')[0])))
}

/** Only the `sleep <seconds>` processes themselves: the command has really got that far. */
const sleeping = (seconds: number): string[] => sleepers(seconds).filter((line) => line.endsWith(`: sleep ${seconds} `))

async function waitUntil(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) return false
    await sleep(25)
  }
  return true
}

/** The ways a command leaves something running behind it. `S` is replaced by the sleep length. */
const LEFTOVERS: Array<{ name: string; command: string; docker: boolean }> = [
  { name: 'setsid sleep &', command: 'setsid sleep S >/dev/null 2>&1 &', docker: true },
  { name: 'nohup sh -c sleep &', command: "nohup sh -c 'sleep S' >/dev/null 2>&1 &", docker: false },
  { name: 'a double fork', command: "( sh -c 'sleep S' >/dev/null 2>&1 & )", docker: true },
  { name: 'setsid, then a double fork inside the new session', command: "setsid sh -c '( sleep S & ); exit' >/dev/null 2>&1 &", docker: true },
  // Holds the command's stdout open: before the marker the command itself hung until its timeout.
  { name: 'setsid sleep & that keeps stdout open', command: 'setsid sleep S &', docker: true }
]

/** Runs `<leftover>` then `sleep 2`; sees the leftover alive meanwhile; returns what is left after the command. */
async function leftoverAfterCommand(runtime: Runtime, leftover: string, extra: { conversationId?: string } = {}) {
  const seconds = uniqueSeconds()
  const workspace = tempWorkspace('deskclaw-own-')
  let ended = false
  const running = runtime
    .exec({ command: `${leftover.replace(/\bS\b/g, String(seconds))}\nsleep 2`, cwd: workspace, timeoutMs: 20_000, ...extra })
    .finally(() => (ended = true))
  await waitUntil(() => ended || sleeping(seconds).length > 0, 10_000)
  const aliveDuring = ended ? [] : sleeping(seconds)
  const result = await running
  await waitUntil(() => sleepers(seconds).length === 0, 1_000)
  return { result, aliveDuring, aliveAfter: sleepers(seconds), seconds }
}

afterAll(removeTempWorkspaces)

describe.runIf(linux)('native: a command owns what it starts', () => {
  const native = new NativeRuntime()

  it.each(LEFTOVERS)('$name is ended when the command ends', async ({ command }) => {
    const { result, aliveDuring, aliveAfter } = await leftoverAfterCommand(native, command)
    expect(result).toMatchObject({ exitCode: 0, timedOut: false })
    expect(result.durationMs).toBeLessThan(5_000)
    expect(aliveDuring.length).toBeGreaterThan(0)
    expect(aliveAfter).toEqual([])
  })

  it('the marker is in every command’s environment, one value per command', async () => {
    const workspace = tempWorkspace('deskclaw-own-')
    const first = await native.exec({ command: 'echo "$DESKCLAW_RUN_ID"', cwd: workspace, timeoutMs: 5_000 })
    const second = await native.exec({ command: 'echo "$DESKCLAW_RUN_ID"', cwd: workspace, timeoutMs: 5_000 })
    expect(first.stdout).toMatch(new RegExp(`^${process.pid}-[0-9a-f]{12}\\.\\d+\\n$`))
    expect(second.stdout).not.toBe(first.stdout)
  })

  it('known limit: a child that drops the marker from its environment and leaves the group survives', async () => {
    const { aliveDuring, aliveAfter } = await leftoverAfterCommand(native, 'env -u DESKCLAW_RUN_ID setsid sleep S >/dev/null 2>&1 &')
    try {
      expect(aliveDuring.length).toBeGreaterThan(0)
      expect(aliveAfter.length).toBe(1)
    } finally {
      for (const line of aliveAfter) process.kill(Number(line.split(':')[0]), 'SIGKILL')
    }
  })
})

describe.runIf(bwrapReady)('bwrap: a command owns what it starts', () => {
  const bwrap = new BwrapRuntime()

  it.each(LEFTOVERS)('$name is ended when the command ends', async ({ command }) => {
    const { result, aliveDuring, aliveAfter } = await leftoverAfterCommand(bwrap, command)
    expect(result).toMatchObject({ exitCode: 0, timedOut: false })
    expect(result.durationMs).toBeLessThan(5_000)
    expect(aliveDuring.length).toBeGreaterThan(0)
    expect(aliveAfter).toEqual([])
  })
})

describe.runIf(dockerReady)('docker: a command owns what it starts in the container', () => {
  const docker = new DockerRuntime({ image: TEST_IMAGE })
  const conversationId = `own-${process.pid}`
  afterAll(() => docker.close())

  it.each(LEFTOVERS.filter((leftover) => leftover.docker))('$name is ended when the command ends', async ({ command }) => {
    const { result, aliveDuring, aliveAfter } = await leftoverAfterCommand(docker, command, { conversationId })
    expect(result).toMatchObject({ exitCode: 0, timedOut: false })
    expect(result.durationMs).toBeLessThan(8_000)
    expect(aliveDuring.length).toBeGreaterThan(0)
    expect(aliveAfter).toEqual([])
  })
})

// ---- The app is SIGKILLed mid-command: the watchdog ends the run's processes. ----

let server: ScriptedServer | undefined
let cli: ChildProcess | undefined
afterEach(async () => {
  if (cli?.exitCode === null && cli.signalCode === null) cli.kill('SIGKILL')
  cli = undefined
  await server?.close()
  server = undefined
})

const shell = (command: string): ScriptStep => ({ toolCalls: [{ name: 'shell', args: { command } }] })

/** `deskclaw run --json` with a scripted model whose first answer runs `command`. */
async function startCli(runtime: string, command: string): Promise<{ child: ChildProcess; workspace: string; stderr: () => string }> {
  const root = tempWorkspace('deskclaw-own-cli-')
  const workspace = path.join(root, 'ws')
  fs.mkdirSync(workspace)
  server = await startScriptedOpenAI([shell(command), { text: 'done' }])
  const child = spawn(
    process.execPath,
    [cliPath, 'run', '--json', '--approve', 'allow', '--runtime', runtime, '--base-url', server.url, '--model', 'm', '--workspace', workspace, 'go'],
    { env: { ...process.env, DESKCLAW_HOME: path.join(root, 'home') }, stdio: ['ignore', 'ignore', 'pipe'] }
  )
  cli = child
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return { child, workspace, stderr: () => stderr }
}

/** Processes carrying a marker of the app with this pid (run-marker.ts: `<pid>-<tag>.<n>`). */
const markedBy = (appPid: number): number[] => findMarkedProcesses({ prefix: `${appPid}-` }).filter(isRunning)
/** The app's watchdog (process-watchdog.ts), found by its command line. */
const watchdogOf = (appPid: number): string[] => hostProcessesMatching(`deskclaw-watchdog ${appPid}-`)

function killAndWaitExit(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGKILL')
  })
}

describe.runIf(linux)('kill -9 of deskclaw run, native runtime', () => {
  requireBuiltCli()

  it('ends the quiet command, its group and a setsid child within a few seconds', async () => {
    // The shell, a setsid child (a new session: outside the group) and a plain background sleep.
    const run = await startCli('native', 'echo $$ > pids; setsid sleep 301 >/dev/null 2>&1 & echo $! >> pids; sleep 300 & echo $! >> pids; wait')
    const pidFile = path.join(run.workspace, 'pids')
    const pids = (): number[] => (fs.existsSync(pidFile) ? fs.readFileSync(pidFile, 'utf8').split('\n').filter(Boolean).map(Number) : [])
    expect(await waitUntil(() => pids().length === 3 && pids().every(isRunning), 20_000)).toBe(true)
    const appPid = run.child.pid!
    // Started with the first command (its exec may finish a few ms after the command's).
    expect(await waitUntil(() => watchdogOf(appPid).length === 1, 2_000)).toBe(true)
    // The marker finds all three (the shell, setsid's sleep, the background sleep).
    expect(markedBy(appPid)).toEqual(expect.arrayContaining(pids()))

    await killAndWaitExit(run.child)
    const started = Date.now()
    const ended = await waitUntil(() => pids().every((pid) => !isRunning(pid)) && markedBy(appPid).length === 0, 5_000)
    expect({ ended, running: pids().filter(isRunning), marked: markedBy(appPid) }).toEqual({ ended: true, running: [], marked: [] })
    expect(Date.now() - started).toBeLessThan(5_000)
    // Its job done, the watchdog has gone too.
    expect(await waitUntil(() => watchdogOf(appPid).length === 0, 2_000)).toBe(true)
  })

  it('a normal run leaves no watchdog behind', async () => {
    const run = await startCli('native', 'echo hi')
    await new Promise((resolve) => run.child.once('exit', resolve))
    expect(run.child.exitCode).toBe(0)
    expect(await waitUntil(() => watchdogOf(run.child.pid!).length === 0, 2_000)).toBe(true)
  })
})

describe.runIf(bwrapReady)('kill -9 of deskclaw run, bwrap runtime', () => {
  requireBuiltCli()

  it('ends the sandbox, the command and a setsid child inside it', async () => {
    const inner = uniqueSeconds()
    const outer = uniqueSeconds()
    const run = await startCli('bwrap', `setsid sleep ${inner} >/dev/null 2>&1 & sleep ${outer}`)
    expect(await waitUntil(() => sleeping(inner).length === 1 && sleeping(outer).length === 1, 20_000)).toBe(true)
    const appPid = run.child.pid!
    expect(markedBy(appPid).length).toBeGreaterThanOrEqual(2)

    await killAndWaitExit(run.child)
    const ended = await waitUntil(() => sleepers(inner).length === 0 && sleepers(outer).length === 0, 5_000)
    // sleepers() also matches bwrap itself and the sandbox's shell: their command lines hold the command.
    expect({ ended, inner: sleepers(inner), outer: sleepers(outer), marked: markedBy(appPid) }).toEqual({ ended: true, inner: [], outer: [], marked: [] })
  })
})
