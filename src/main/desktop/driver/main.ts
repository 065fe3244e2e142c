/**
 * The desktop driver process (docs/desktop.md, "The driver"): started by the app with
 * `utilityProcess` (Electron) or `child_process.fork` (Node), it owns nut-js so that a native crash
 * or a missing display ends this process, never the app. It answers typed requests one by one for
 * input (never interleaved) and at once for everything else.
 */
import { errorMessage } from '../../../shared'
import { checkDisplay } from '../display'
import { DriverRequestSchema, type DriverMessage, type DriverOperation, type DriverRequest } from '../protocol'
import { connectToParent } from './parent-channel'
import { DesktopOperations, inFailSafeCorner, OperationError, type AbortFlag } from './operations'

const INPUT_OPS = new Set<DriverOperation['op']>(['move', 'click', 'drag', 'scroll', 'keys', 'type', 'focus_window'])
const FAIL_SAFE_POLL_MS = 40

const parent = connectToParent()
const send = (message: DriverMessage): void => parent.send(message)

async function start(): Promise<void> {
  const display = checkDisplay()
  if (!display.usable) {
    send({ event: 'unavailable', why: display.why ?? 'no display' })
    return
  }
  let operations: DesktopOperations
  try {
    operations = await DesktopOperations.open()
  } catch (error) {
    send({ event: 'unavailable', why: errorMessage(error) })
    return
  }
  serve(operations)
}

function serve(operations: DesktopOperations): void {
  const running = new Map<number, AbortFlag>()
  let inputQueue: Promise<unknown> = Promise.resolve()
  let failSafe: ReturnType<typeof setInterval> | null = null
  let inCorner = false

  const abortAll = (reason: 'aborted' | 'fail_safe'): void => {
    for (const flag of running.values()) flag.reason ??= reason
  }

  const tripped = async (at: { x: number; y: number }): Promise<void> => {
    if (inCorner) return // once per throw
    inCorner = true
    abortAll('fail_safe')
    await operations.releaseAll()
    send({ event: 'fail_safe', at })
  }
  const watchCorner = async (): Promise<void> => {
    const at = await operations.cursor().catch(() => null)
    if (!at) return
    if (inFailSafeCorner(at)) await tripped(at)
    else inCorner = false
  }

  const handle = async (request: DriverRequest): Promise<void> => {
    const { id, operation } = request
    if (operation.op === 'abort') {
      const flag = running.get(operation.target)
      if (flag) flag.reason ??= 'aborted'
      send({ id, ok: true, result: {} })
      return
    }
    if (operation.op === 'fail_safe') {
      if (failSafe) clearInterval(failSafe)
      failSafe = operation.enabled ? setInterval(() => void watchCorner(), FAIL_SAFE_POLL_MS) : null
      operations.failSafe = operation.enabled
      send({ id, ok: true, result: {} })
      return
    }
    const flag: AbortFlag = { reason: null }
    running.set(id, flag)
    const execute = async (): Promise<void> => {
      try {
        if (Date.now() > request.deadline) throw new OperationError('aborted', 'the request expired before it started')
        const result = await operations.run(operation, flag)
        send({ id, ok: true, result })
      } catch (error) {
        if (operations.holdsInput()) await operations.releaseAll()
        const code = error instanceof OperationError ? error.code : 'failed'
        if (code === 'fail_safe') await tripped(await operations.cursor().catch(() => ({ x: 0, y: 0 })))
        send({ id, ok: false, error: { code, message: errorMessage(error) } })
      } finally {
        running.delete(id)
      }
    }
    if (INPUT_OPS.has(operation.op)) {
      // Input never interleaves: each waits for the one before it.
      const turn = inputQueue.then(execute)
      inputQueue = turn.catch(() => {})
      await turn
    } else {
      await execute()
    }
  }

  parent.onMessage((raw) => {
    const parsed = DriverRequestSchema.safeParse(raw)
    if (!parsed.success) {
      const id = typeof (raw as { id?: unknown })?.id === 'number' ? (raw as { id: number }).id : -1
      send({ id, ok: false, error: { code: 'invalid', message: `malformed request: ${parsed.error.issues[0]?.message ?? 'invalid'}` } })
      return
    }
    void handle(parsed.data)
  })
}

void start()
