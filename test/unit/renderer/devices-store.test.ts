import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Device, DeviceSnapshot } from '../../../src/shared/bridge'
import { createDevicesStore, displayReceived, FRESH_MS } from '../../../src/renderer/src/stores/devices-state'

const invoke = vi.fn()
const useDevicesStore = createDevicesStore(() => ({ invoke }))

const board: Device = { id: '303a:1001:ABC', kinds: ['usb', 'serial'], name: 'Espressif ESP32-S3', ports: ['/dev/ttyACM0'], connection: 'usb' }
const pty: Device = { id: '/tmp/ttyV0', kinds: ['serial'], name: 'Virtual port', ports: ['/tmp/ttyV0'], connection: 'virtual' }
const snapshot = (devices: Device[], at: number): DeviceSnapshot => ({
  devices,
  backends: [{ backend: 'serial', available: true }],
  at
})

const reset = () => {
  invoke.mockReset()
  useDevicesStore.setState({ snapshot: null, loadError: null, fresh: [], console: null })
}

describe('devices store: the list', () => {
  beforeEach(reset)
  afterEach(() => vi.useRealTimers())

  it('loads devices.list and keeps the list on a failed reload', async () => {
    invoke.mockResolvedValueOnce({ ok: true, data: snapshot([board], 1) })
    await useDevicesStore.getState().load()
    expect(invoke).toHaveBeenCalledWith('devices.list', {})
    expect(useDevicesStore.getState().snapshot?.devices).toEqual([board])
    invoke.mockResolvedValueOnce({ ok: false, error: { code: 'UNKNOWN_CALL', message: 'devices.list' } })
    await useDevicesStore.getState().load()
    expect(useDevicesStore.getState().snapshot?.devices).toEqual([board])
    expect(useDevicesStore.getState().loadError?.code).toBe('UNKNOWN_CALL')
  })

  it('applies devices_changed, highlights what was added for a while, and ignores an older snapshot', async () => {
    vi.useFakeTimers()
    // Main's first listing calls everything added: nothing is new to a page that had no list yet.
    useDevicesStore.getState().applyChanged({ snapshot: snapshot([board], 4), added: [board.id], removed: [] })
    expect(useDevicesStore.getState().fresh).toEqual([])
    useDevicesStore.getState().applyChanged({ snapshot: snapshot([board], 5), added: [board.id], removed: [] })
    expect(useDevicesStore.getState().fresh).toEqual([])
    useDevicesStore.getState().applyChanged({ snapshot: snapshot([board, pty], 6), added: [pty.id], removed: [] })
    expect(useDevicesStore.getState().fresh).toEqual([pty.id])
    // A devices.list answer older than the event does not roll the list back.
    invoke.mockResolvedValueOnce({ ok: true, data: snapshot([], 3) })
    await useDevicesStore.getState().load()
    expect(useDevicesStore.getState().snapshot?.devices.map((d) => d.id)).toEqual([board.id, pty.id])
    vi.advanceTimersByTime(FRESH_MS + 1)
    expect(useDevicesStore.getState().fresh).toEqual([])
    useDevicesStore.getState().applyChanged({ snapshot: snapshot([board], 7), added: [], removed: [pty.id] })
    expect(useDevicesStore.getState().snapshot?.devices).toEqual([board])
  })
})

describe('devices store: the serial console', () => {
  beforeEach(reset)

  const openOn = async (path: string, sessionId = 'ser_1') => {
    useDevicesStore.getState().showConsole(path)
    invoke.mockResolvedValueOnce({ ok: true, data: { sessionId } })
    await useDevicesStore.getState().open()
  }

  it('opens at the chosen speed, main adding no line ending; sends with the chosen one and echoes the line', async () => {
    useDevicesStore.getState().showConsole('/tmp/ttyV0')
    const c = useDevicesStore.getState().console!
    expect(c).toMatchObject({ status: 'idle', baudRate: 115_200, lineEnding: 'crlf' })
    useDevicesStore.getState().setBaudRate(9600)
    invoke.mockResolvedValueOnce({ ok: true, data: { sessionId: 'ser_1' } })
    await useDevicesStore.getState().open()
    expect(invoke).toHaveBeenLastCalledWith('serial.open', { path: '/tmp/ttyV0', options: { baudRate: 9600, lineEnding: 'none' } })
    expect(useDevicesStore.getState().console).toMatchObject({ status: 'open', sessionId: 'ser_1' })

    invoke.mockResolvedValueOnce({ ok: true, data: { written: 4 } })
    await useDevicesStore.getState().send('AT')
    expect(invoke).toHaveBeenLastCalledWith('serial.write', { sessionId: 'ser_1', text: 'AT\r\n' })
    useDevicesStore.getState().setLineEnding('lf')
    invoke.mockResolvedValueOnce({ ok: true, data: { written: 3 } })
    await useDevicesStore.getState().send('AT')
    expect(invoke).toHaveBeenLastCalledWith('serial.write', { sessionId: 'ser_1', text: 'AT\n' })
    const kinds = useDevicesStore.getState().console!.entries.map((e) => e.kind)
    expect(kinds).toEqual(['info', 'out', 'out'])
  })

  it('joins received chunks, a CRLF split between two chunks included, and ignores other sessions', async () => {
    await openOn('/tmp/ttyV0')
    const { applySerialData } = useDevicesStore.getState()
    applySerialData({ sessionId: 'ser_1', text: 'O' })
    applySerialData({ sessionId: 'ser_1', text: 'K\r' })
    applySerialData({ sessionId: 'ser_1', text: '\nready\x07\r\n' })
    applySerialData({ sessionId: 'ser_other', text: 'not mine' })
    const entries = useDevicesStore.getState().console!.entries
    expect(entries.at(-1)).toMatchObject({ kind: 'in', text: 'OK\nready\\x07\n' })
  })

  it('keeps events that come before the serial.open answer', async () => {
    useDevicesStore.getState().showConsole('/tmp/ttyV0')
    let answer: (value: unknown) => void = () => {}
    invoke.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)))
    const opening = useDevicesStore.getState().open()
    expect(useDevicesStore.getState().console!.status).toBe('opening')
    useDevicesStore.getState().applySerialData({ sessionId: 'ser_9', text: 'boot\n' })
    answer({ ok: true, data: { sessionId: 'ser_9' } })
    await opening
    expect(useDevicesStore.getState().console!.entries.map((e) => e.kind)).toEqual(['info', 'in'])
  })

  it('says the device went away on serial_closed with disconnected', async () => {
    await openOn('/tmp/ttyV0')
    useDevicesStore.getState().applySerialClosed({ sessionId: 'ser_1', path: '/tmp/ttyV0', disconnected: true, reason: 'EIO' })
    const c = useDevicesStore.getState().console!
    expect(c).toMatchObject({ status: 'disconnected', sessionId: null, reason: 'EIO' })
    expect(c.entries.at(-1)).toMatchObject({ kind: 'info', code: 'disconnected', reason: 'EIO' })
    invoke.mockClear()
    expect(await useDevicesStore.getState().send('AT')).toBeNull()
    expect(invoke).not.toHaveBeenCalled()
  })

  it('close: serial.close, then closed (once, whether or not serial_closed came first)', async () => {
    await openOn('/tmp/ttyV0')
    invoke.mockImplementationOnce(async () => {
      useDevicesStore.getState().applySerialClosed({ sessionId: 'ser_1', path: '/tmp/ttyV0', disconnected: false })
      return { ok: true, data: { closed: true } }
    })
    await useDevicesStore.getState().close()
    expect(invoke).toHaveBeenLastCalledWith('serial.close', { sessionId: 'ser_1' })
    const c = useDevicesStore.getState().console!
    expect(c.status).toBe('closed')
    expect(c.entries.filter((e) => e.kind === 'info' && e.code === 'closed')).toHaveLength(1)
  })

  it('a failed open says why; another port or hiding the console closes the open session', async () => {
    useDevicesStore.getState().showConsole('/dev/nope')
    invoke.mockResolvedValueOnce({ ok: false, error: { code: 'NOT_FOUND', message: 'no such port' } })
    await useDevicesStore.getState().open()
    expect(useDevicesStore.getState().console).toMatchObject({ status: 'failed', error: { code: 'NOT_FOUND' } })

    await openOn('/tmp/ttyV0', 'ser_2')
    invoke.mockResolvedValue({ ok: true, data: { closed: true } })
    useDevicesStore.getState().showConsole('/tmp/ttyV1')
    expect(invoke).toHaveBeenLastCalledWith('serial.close', { sessionId: 'ser_2' })
    expect(useDevicesStore.getState().console).toMatchObject({ path: '/tmp/ttyV1', status: 'idle', entries: [] })

    await openOn('/tmp/ttyV1', 'ser_3')
    invoke.mockResolvedValue({ ok: true, data: { closed: true } })
    await useDevicesStore.getState().hideConsole()
    expect(invoke).toHaveBeenLastCalledWith('serial.close', { sessionId: 'ser_3' })
    expect(useDevicesStore.getState().console).toBeNull()
  })

  it('closes a session whose open answered after the console was hidden', async () => {
    useDevicesStore.getState().showConsole('/tmp/ttyV0')
    let answer: (value: unknown) => void = () => {}
    invoke.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)))
    const opening = useDevicesStore.getState().open()
    await useDevicesStore.getState().hideConsole()
    invoke.mockResolvedValue({ ok: true, data: { closed: true } })
    answer({ ok: true, data: { sessionId: 'ser_late' } })
    await opening
    expect(invoke).toHaveBeenLastCalledWith('serial.close', { sessionId: 'ser_late' })
  })
})

describe('displayReceived', () => {
  const fresh = { pendingCR: false, held: '' }
  it('turns CR and CRLF into line breaks', () => {
    expect(displayReceived('a\r\nb\rc\n', fresh)).toEqual({ text: 'a\nb\nc\n', pendingCR: false, held: '' })
    expect(displayReceived('x\r', fresh)).toEqual({ text: 'x\n', pendingCR: true, held: '' })
    expect(displayReceived('\ny', { pendingCR: true, held: '' })).toEqual({ text: 'y', pendingCR: false, held: '' })
  })

  it('leaves out terminal escapes, even split between chunks, and writes other control characters as \\xNN', () => {
    expect(displayReceived('\u001b[0;32mI (24) boot\u001b[0m\u0007\u0000\u007f', fresh).text).toBe('I (24) boot\\x07\\x00\\x7f')
    const first = displayReceived('green: \u001b[0;3', fresh)
    expect(first).toEqual({ text: 'green: ', pendingCR: false, held: '\u001b[0;3' })
    expect(displayReceived('2mgo\u001b]0;title\u0007!', first)).toEqual({ text: 'go!', pendingCR: false, held: '' })
    expect(displayReceived('tab\there', fresh).text).toBe('tab\there')
  })
})
