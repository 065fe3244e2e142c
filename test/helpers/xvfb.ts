import { execFile, spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { requireCapability } from './capability'

/**
 * Real X11 displays for the desktop tests: a private Xvfb + openbox per caller, or the one display
 * CI starts once (.ci/run exports DESKCLAW_TEST_DISPLAY). Every process started here dies with the
 * test process: it is killed from an 'exit' handler and, where util-linux's setpriv exists, it also
 * gets a parent-death signal (SIGKILL), so a worker that is itself killed leaves nothing behind.
 */

export interface TestDisplay {
  /** e.g. ':57' */
  display: string
  /** process.env with DISPLAY set and WAYLAND_DISPLAY / XDG_SESSION_TYPE removed. */
  env: NodeJS.ProcessEnv
  width: number
  height: number
  /** Kills openbox and Xvfb and waits for them; does nothing for the shared (CI) display. */
  stop(): Promise<void>
}

export const X_PACKAGES = 'xvfb openbox xdotool xclip x11-utils xinput python3-gi gir1.2-gtk-3.0 imagemagick'
/** The probe window needs PyGObject with GTK 3: Debian's python3, not a pyenv/venv one. */
export const SYSTEM_PYTHON = '/usr/bin/python3'

const REQUIRED_TOOLS = ['Xvfb', 'openbox', 'xdotool', 'xclip', 'xdpyinfo', 'xprop', 'xinput', 'import']

function onPath(tool: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, tool)))
}

let pythonGtk: boolean | undefined
function hasPythonGtk(): boolean {
  if (pythonGtk === undefined) {
    const probe = spawnSync(SYSTEM_PYTHON, ['-c', "import gi; gi.require_version('Gtk', '3.0'); gi.require_version('Gdk', '3.0')"], {
      stdio: 'ignore',
      timeout: 10_000
    })
    pythonGtk = probe.status === 0
  }
  return pythonGtk
}

/** Xvfb, openbox, xdotool, xclip (and the x11-utils, xinput, ImageMagick and PyGObject GTK 3 the helpers use). */
export function hasXServerTools(): boolean {
  return REQUIRED_TOOLS.every(onPath) && hasPythonGtk()
}

/** true when the X tools are here; otherwise skips with the reason (or throws under DESKCLAW_REQUIRE_ALL=1). */
export function requireXServer(): boolean {
  return requireCapability('Xvfb', hasXServerTools(), `apt-get install ${X_PACKAGES}`)
}

// ---- processes that must not outlive the test process -------------------------------------------

const owned = new Set<ChildProcess>()
let exitHookInstalled = false
let setprivAvailable: boolean | undefined

function killOwnedNow(): void {
  for (const child of owned) {
    try {
      child.kill('SIGKILL')
    } catch {
      // already gone
    }
  }
  owned.clear()
}

/**
 * spawn(), plus: the child is SIGKILLed when this process exits (an 'exit' handler) or dies
 * (PR_SET_PDEATHSIG through `setpriv --pdeathsig KILL`, which execs the command: same pid). Its
 * stdio handles are unref'd so a forgotten stop() cannot keep the test process alive.
 */
export function spawnOwned(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  if (!exitHookInstalled) {
    process.on('exit', killOwnedNow)
    exitHookInstalled = true
  }
  setprivAvailable ??= onPath('setpriv')
  const child = setprivAvailable
    ? spawn('setpriv', ['--pdeathsig', 'KILL', '--', command, ...args], { ...options, detached: false })
    : spawn(command, args, { ...options, detached: false })
  owned.add(child)
  child.once('exit', () => owned.delete(child))
  child.once('error', () => owned.delete(child))
  child.unref()
  for (const stream of [child.stdin, child.stdout, child.stderr]) {
    ;(stream as unknown as { unref?: () => void } | null)?.unref?.()
  }
  return child
}

/** Sends `signal`, then SIGKILL after `graceMs`; resolves when the process has exited. */
export function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM', graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    child.kill(signal)
  })
}

/** Keeps the last `max` characters a stream printed, for error messages. */
function tail(stream: NodeJS.ReadableStream | null, max = 4_000): () => string {
  let text = ''
  stream?.on('data', (chunk: Buffer) => {
    text = (text + chunk.toString()).slice(-max)
  })
  return () => text.trim().split('\n').slice(-30).join('\n')
}

// ---- displays -----------------------------------------------------------------------------------

export function displayEnv(display: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DISPLAY: display }
  delete env.WAYLAND_DISPLAY
  delete env.XDG_SESSION_TYPE
  return env
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 5_000): Promise<{ ok: boolean; stdout: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { env, timeout: timeoutMs, encoding: 'utf8' }, (error, stdout) => resolve({ ok: !error, stdout }))
  })
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls `check` every 50 ms until it returns true, or throws `describe()` after `timeoutMs`. */
async function until(check: () => Promise<boolean>, timeoutMs: number, describe: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (await check()) return
    if (Date.now() > deadline) throw new Error(describe())
    await sleep(50)
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Free: no lock file and no socket, or a lock left by a process that is gone (Xvfb replaces it). */
function displayNumberFree(n: number): boolean {
  const lock = `/tmp/.X${n}-lock`
  if (existsSync(lock)) {
    const pid = Number.parseInt(readFileSync(lock, 'utf8').trim(), 10)
    return Number.isInteger(pid) && pid > 0 && !pidAlive(pid)
  }
  return !existsSync(`/tmp/.X11-unix/X${n}`)
}

async function screenSize(display: string, env: NodeJS.ProcessEnv): Promise<{ width: number; height: number } | undefined> {
  const info = await run('xdpyinfo', ['-display', display], env)
  const match = info.ok ? /dimensions:\s+(\d+)x(\d+) pixels/.exec(info.stdout) : null
  return match ? { width: Number(match[1]), height: Number(match[2]) } : undefined
}

async function sharedDisplay(display: string): Promise<TestDisplay> {
  const env = displayEnv(display)
  const size = await screenSize(display, env)
  if (!size) throw new Error(`DESKCLAW_TEST_DISPLAY=${display}, but \`xdpyinfo -display ${display}\` cannot reach it.`)
  return { display, env, ...size, stop: async () => {} }
}

const FIRST_DISPLAY = 40
const LAST_DISPLAY = 400

/**
 * A display to test on. With opts.shared !== false and DESKCLAW_TEST_DISPLAY set, that display
 * (whatever its size; stop() does nothing). Otherwise a private `Xvfb :n` (n scanned upward from
 * 40, default screen 1280x800x24) with openbox, both up and ready when this resolves.
 */
export async function startDisplay(opts: { width?: number; height?: number; shared?: boolean } = {}): Promise<TestDisplay> {
  const sharedName = process.env.DESKCLAW_TEST_DISPLAY
  if (opts.shared !== false && sharedName) return sharedDisplay(sharedName)

  const width = opts.width ?? 1280
  const height = opts.height ?? 800
  for (let n = FIRST_DISPLAY; n <= LAST_DISPLAY; n++) {
    if (!displayNumberFree(n)) continue
    const started = await startPrivateDisplay(n, width, height)
    if (started) return started
    // Another process took :n between our check and Xvfb's lock: try the next number.
  }
  throw new Error(`No free X display number in :${FIRST_DISPLAY}..:${LAST_DISPLAY}`)
}

/** Resolves undefined when :n turned out to be taken (Xvfb exited at once saying so). */
async function startPrivateDisplay(n: number, width: number, height: number): Promise<TestDisplay | undefined> {
  const display = `:${n}`
  const env = displayEnv(display)
  // -noreset: the server would otherwise reset each time its last client (the readiness probe) leaves.
  const xvfb = spawnOwned('Xvfb', [display, '-screen', '0', `${width}x${height}x24`, '-nolisten', 'tcp', '-noreset'], {
    env,
    stdio: ['ignore', 'ignore', 'pipe']
  })
  const xvfbLog = tail(xvfb.stderr)
  let xvfbExited = false
  xvfb.once('exit', () => (xvfbExited = true))

  try {
    await until(
      async () => {
        if (xvfbExited) return true
        return (await run('xdpyinfo', ['-display', display], env, 2_000)).ok
      },
      10_000,
      () => `Xvfb ${display} did not accept connections within 10 s. Its log:\n${xvfbLog()}`
    )
  } catch (error) {
    await stopChild(xvfb, 'SIGKILL')
    throw error
  }
  if (xvfbExited) {
    if (/already active|Cannot establish any listening sockets|server is already/i.test(xvfbLog())) return undefined
    throw new Error(`Xvfb ${display} exited at start (code ${xvfb.exitCode}, signal ${xvfb.signalCode}). Its log:\n${xvfbLog()}`)
  }

  const openbox = spawnOwned('openbox', ['--sm-disable'], { env, stdio: ['ignore', 'ignore', 'pipe'] })
  const openboxLog = tail(openbox.stderr)
  const stop = async (): Promise<void> => {
    await stopChild(openbox)
    await stopChild(xvfb)
  }
  try {
    await until(
      async () => {
        if (openbox.exitCode !== null || openbox.signalCode !== null) {
          throw new Error(`openbox on ${display} exited at start (code ${openbox.exitCode}). Its log:\n${openboxLog()}`)
        }
        const check = await run('xprop', ['-display', display, '-root', '_NET_SUPPORTING_WM_CHECK'], env, 2_000)
        return check.ok && /window id # 0x[0-9a-f]+/i.test(check.stdout)
      },
      10_000,
      () => `openbox on ${display} did not become the window manager within 10 s. Its log:\n${openboxLog()}`
    )
  } catch (error) {
    await stop()
    throw error
  }

  let stopped: Promise<void> | undefined
  return { display, env, width, height, stop: () => (stopped ??= stop()) }
}
