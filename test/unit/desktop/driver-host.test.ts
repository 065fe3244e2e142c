import { describe, expect, it } from 'vitest'
import { DesktopDriver, DesktopUnavailableError, DriverOperationError, type DriverChannel, type DriverExit } from '../../../src/main/desktop'

/** A driver process that the test plays: it sees every message and answers (or not) as the test says. */
class FakeDriverProcess implements DriverChannel {
  readonly sent: Array<{ id: number; deadline: number; operation: { op: string; target?: number } }> = []
  killed = false
  private messageListeners: Array<(message: unknown) => void> = []
  private exitListeners: Array<(exit: DriverExit) => void> = []

  constructor(private readonly onRequest: (process: FakeDriverProcess, request: FakeDriverProcess['sent'][number]) => void) {}

  send(message: unknown): void {
    const request = message as FakeDriverProcess['sent'][number]
    this.sent.push(request)
    queueMicrotask(() => this.onRequest(this, request))
  }
  onMessage(listener: (message: unknown) => void): void {
    this.messageListeners.push(listener)
  }
  onExit(listener: (exit: DriverExit) => void): void {
    this.exitListeners.push(listener)
  }
  kill(): void {
    if (this.killed) return
    this.killed = true
    this.exit({ code: null, signal: 'SIGKILL' })
  }
  stderrTail(): string {
    return 'Could not open main display'
  }
  reply(message: unknown): void {
    for (const listener of this.messageListeners) listener(message)
  }
  exit(exit: DriverExit): void {
    for (const listener of this.exitListeners) listener(exit)
  }
}

const HELLO = { platform: 'linux', displayServer: 'x11', screen: { width: 800, height: 600, pixelDensity: 1 }, windows: { available: true } }
const env = { DISPLAY: ':77' }

function driverWith(behaviour: (process: FakeDriverProcess, request: FakeDriverProcess['sent'][number]) => void) {
  const processes: FakeDriverProcess[] = []
  const driver = new DesktopDriver({
    env,
    platform: 'linux',
    entry: __filename, // any file that exists
    launcher: () => {
      const process = new FakeDriverProcess(behaviour)
      processes.push(process)
      return process
    }
  })
  return { driver, processes }
}

const answerHello = (process: FakeDriverProcess, request: FakeDriverProcess['sent'][number]): boolean => {
  if (request.operation.op !== 'hello') return false
  process.reply({ id: request.id, ok: true, result: HELLO })
  return true
}

describe('DesktopDriver', () => {
  it('says why without starting a process when there is no display', async () => {
    let launched = 0
    const driver = new DesktopDriver({ env: {}, platform: 'linux', entry: __filename, launcher: () => (launched++, new FakeDriverProcess(() => {})) })
    await expect(driver.request({ op: 'cursor' })).rejects.toThrow(/^desktop unavailable: no display \(DISPLAY is not set\)/)
    const wayland = new DesktopDriver({ env: { WAYLAND_DISPLAY: 'wayland-0' }, platform: 'linux', entry: __filename, launcher: () => (launched++, new FakeDriverProcess(() => {})) })
    await expect(wayland.request({ op: 'cursor' })).rejects.toThrow(/desktop unavailable: this is a Wayland session without X/)
    expect(launched).toBe(0)
  })

  it('turns the driver\'s own "unavailable" into the error, and starts again on the next call', async () => {
    let fixed = false
    const { driver, processes } = driverWith((process, request) => {
      if (!fixed) return process.reply({ event: 'unavailable', why: 'cannot open display :77: connect ENOENT' })
      if (answerHello(process, request)) return
      process.reply({ id: request.id, ok: true, result: { x: 3, y: 4 } })
    })
    const first = await driver.request({ op: 'cursor' }).catch((error: Error) => error)
    expect(first).toBeInstanceOf(DesktopUnavailableError)
    expect((first as Error).message).toBe('desktop unavailable: cannot open display :77: connect ENOENT')
    expect(processes[0]!.killed).toBe(true)
    fixed = true
    await expect(driver.request({ op: 'cursor' })).resolves.toEqual({ x: 3, y: 4 })
    expect(processes).toHaveLength(2)
  })

  it('fails every waiting call when the process crashes, and restarts on the next call', async () => {
    let crash = true
    const { driver, processes } = driverWith((process, request) => {
      if (answerHello(process, request)) return
      if (crash && request.operation.op === 'capture') return process.exit({ code: null, signal: 'SIGSEGV' })
      process.reply({ id: request.id, ok: true, result: { x: 1, y: 2 } })
    })
    const error = await driver.request({ op: 'capture', maxWidth: 640 }).catch((e: Error) => e)
    expect(error).toBeInstanceOf(DesktopUnavailableError)
    expect((error as Error).message).toMatch(/^desktop unavailable: the desktop driver stopped \(signal SIGSEGV\): Could not open main display; it starts again on the next call$/)
    crash = false
    await expect(driver.request({ op: 'cursor' })).resolves.toEqual({ x: 1, y: 2 })
    expect(processes).toHaveLength(2)
  })

  it('gives up at the deadline, asks the driver to stop, and kills it when it does not answer', async () => {
    const { driver, processes } = driverWith((process, request) => {
      answerHello(process, request) // and nothing else, ever
    })
    const started = Date.now()
    await expect(driver.request({ op: 'cursor' }, { timeoutMs: 100 })).rejects.toThrow(/did not finish cursor within 100 ms/)
    expect(Date.now() - started).toBeLessThan(1_000)
    const abort = processes[0]!.sent.find((m) => m.operation.op === 'abort')
    const cursor = processes[0]!.sent.find((m) => m.operation.op === 'cursor')
    expect(abort?.operation.target).toBe(cursor?.id)
    await new Promise((resolve) => setTimeout(resolve, 1_700))
    expect(processes[0]!.killed).toBe(true)
  })

  it('sends abort for the running request when the caller\'s signal fires, and reports "aborted"', async () => {
    const { driver, processes } = driverWith((process, request) => {
      if (answerHello(process, request)) return
      if (request.operation.op === 'abort') {
        const target = request.operation.target!
        process.reply({ id: request.id, ok: true, result: {} })
        process.reply({ id: target, ok: false, error: { code: 'aborted', message: 'stopped' } })
      }
    })
    const controller = new AbortController()
    const drag = driver.request({ op: 'drag', from: { x: 1, y: 1 }, to: { x: 300, y: 300 }, button: 'left', durationMs: 5_000 }, { signal: controller.signal })
    setTimeout(() => controller.abort(), 20)
    const error = await drag.catch((e: Error) => e)
    expect(error).toBeInstanceOf(DriverOperationError)
    expect((error as DriverOperationError).code).toBe('aborted')
    expect(processes[0]!.killed).toBe(false)
  })

  it('drops malformed messages and refuses answers of the wrong shape', async () => {
    const { driver } = driverWith((process, request) => {
      if (answerHello(process, request)) return
      process.reply('garbage')
      process.reply({ id: request.id, ok: 'yes' })
      process.reply({ id: request.id, ok: true, result: { x: 'left', y: null } })
    })
    await expect(driver.request({ op: 'cursor' })).rejects.toThrow(/answered cursor with something unexpected/)
  })
})
