import { execFile, spawn } from 'node:child_process'
import type { TestDisplay } from './xvfb'

/**
 * Small wrappers over X command-line tools, run against a test display: what the X server itself
 * says about the pointer, buttons, keys, clipboard, focus and pixels — independent of nut-js.
 */

type OnDisplay = Pick<TestDisplay, 'env'>

interface RunResult {
  code: number | null
  stdout: string
  stderr: string
}

function run(display: OnDisplay, command: string, args: string[], timeoutMs = 10_000): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { env: display.env, timeout: timeoutMs, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') {
        // Not started, or killed by the timeout.
        reject(new Error(`${command} ${args.join(' ')}: ${error.message}${stderr ? `\n${stderr}` : ''}`))
        return
      }
      resolve({ code: error ? (error.code as unknown as number) : 0, stdout, stderr })
    })
  })
}

async function runOk(display: OnDisplay, command: string, args: string[], timeoutMs?: number): Promise<string> {
  const result = await run(display, command, args, timeoutMs)
  if (result.code !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${result.code}): ${result.stderr.trim()}`)
  return result.stdout
}

/** The pointer position, from `xdotool getmouselocation --shell`. */
export async function pointer(display: OnDisplay): Promise<{ x: number; y: number }> {
  const out = await runOk(display, 'xdotool', ['getmouselocation', '--shell'])
  const x = /^X=(-?\d+)$/m.exec(out)
  const y = /^Y=(-?\d+)$/m.exec(out)
  if (!x || !y) throw new Error(`unexpected xdotool getmouselocation output: ${out}`)
  return { x: Number(x[1]), y: Number(y[1]) }
}

/**
 * Slave devices of the master pointer/keyboard. `xinput query-state` cannot open the masters
 * ("Virtual core pointer" → "unable to find device"), so the state is the union over the slaves:
 * the XTEST one (xdotool, nut-js/libnut) and Xvfb's own.
 */
async function slaveIds(display: OnDisplay, kind: 'pointer' | 'keyboard'): Promise<number[]> {
  const out = await runOk(display, 'xinput', ['list', '--short'])
  const ids: number[] = []
  for (const line of out.split('\n')) {
    const match = /\bid=(\d+)\s+\[slave\s+(pointer|keyboard)\b/.exec(line)
    if (match && match[2] === kind) ids.push(Number(match[1]))
  }
  return ids
}

async function downIndices(display: OnDisplay, kind: 'pointer' | 'keyboard'): Promise<number[]> {
  const pattern = kind === 'pointer' ? /button\[(\d+)\]=down/g : /key\[(\d+)\]=down/g
  const down = new Set<number>()
  for (const id of await slaveIds(display, kind)) {
    const result = await run(display, 'xinput', ['query-state', String(id)])
    if (result.code !== 0) continue // a device without the class, or gone meanwhile
    for (const match of result.stdout.matchAll(pattern)) down.add(Number(match[1]))
  }
  return [...down].sort((a, b) => a - b)
}

/** Pointer buttons that are down (1 left, 2 middle, 3 right, 4-7 wheel), ascending. */
export function heldButtons(display: OnDisplay): Promise<number[]> {
  return downIndices(display, 'pointer')
}

/** X keycodes of the keys that are down, ascending (e.g. 37 Control_L, 50 Shift_L on Xvfb). */
export function heldKeys(display: OnDisplay): Promise<number[]> {
  return downIndices(display, 'keyboard')
}

/** The CLIPBOARD selection as UTF-8 text; '' when it is empty, has no owner, or holds no text. */
export async function clipboardText(display: OnDisplay): Promise<string> {
  const result = await run(display, 'xclip', ['-selection', 'clipboard', '-o', '-t', 'UTF8_STRING'])
  if (result.code === 0) return result.stdout
  // No owner, or the owner offers no UTF8_STRING: try plain STRING, else nothing.
  const plain = await run(display, 'xclip', ['-selection', 'clipboard', '-o'])
  return plain.code === 0 ? plain.stdout : ''
}

/**
 * Makes a background xclip own CLIPBOARD with `text` (as UTF8_STRING), and waits until a read
 * returns it. xclip forks and its child serves the selection until another client takes it or
 * the display ends; its stdout/stderr go nowhere so it keeps none of the test's pipes open.
 */
export async function setClipboardText(display: OnDisplay, text: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const child = spawn('xclip', ['-selection', 'clipboard', '-i'], {
      env: display.env,
      stdio: ['pipe', 'ignore', 'ignore']
    })
    child.once('error', reject)
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`xclip -i exited with ${code}`))))
    child.stdin!.end(text, 'utf8')
  })
  const deadline = Date.now() + 5_000
  for (;;) {
    const now = await clipboardText(display)
    if (now === text) return
    if (Date.now() > deadline) throw new Error(`the clipboard reads ${JSON.stringify(now)} after setting ${JSON.stringify(text)}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** The title of the focused window, or undefined when none is active. */
export async function activeWindowName(display: OnDisplay): Promise<string | undefined> {
  const result = await run(display, 'xdotool', ['getactivewindow', 'getwindowname'])
  return result.code === 0 ? result.stdout.replace(/\n$/, '') : undefined
}

/** Moves the pointer (XTEST) and waits until the server reports it there. */
export async function moveMouse(display: OnDisplay, x: number, y: number): Promise<void> {
  await runOk(display, 'xdotool', ['mousemove', '--sync', String(x), String(y)])
}

/** Clicks `button` (XTEST) where the pointer is, or at `at` after moving there. */
export async function click(display: OnDisplay, button = 1, at?: { x: number; y: number }): Promise<void> {
  if (at) await moveMouse(display, at.x, at.y)
  await runOk(display, 'xdotool', ['click', String(button)])
}

/** Any xdotool command line (e.g. 'mousedown', '3'); resolves with its stdout, rejects on failure. */
export function xdotool(display: OnDisplay, ...args: string[]): Promise<string> {
  return runOk(display, 'xdotool', args)
}

/** xdotool key, e.g. key(display, 'ctrl+v'): presses and releases each chord in turn. */
export async function key(display: OnDisplay, ...chords: string[]): Promise<void> {
  await runOk(display, 'xdotool', ['key', ...chords])
}

/** The colour of one screen pixel as '#rrggbb', read with ImageMagick's import from the root window. */
export async function pixelAt(display: OnDisplay & { display: string }, x: number, y: number): Promise<string> {
  const out = await runOk(display, 'import', ['-display', display.display, '-window', 'root', '-crop', `1x1+${x}+${y}`, '-depth', '8', 'txt:-'])
  const match = /#([0-9A-Fa-f]{6})\b/.exec(out)
  if (!match) throw new Error(`unexpected ImageMagick txt output: ${out}`)
  return `#${match[1].toLowerCase()}`
}
