import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { DesktopControl, Settings } from '../../../src/shared/bridge'
import { createDesktopStore } from '../../../src/renderer/src/stores/desktop-control'

const invoke = vi.fn()
const useDesktopStore = createDesktopStore(() => ({ invoke }))

const idle: DesktopControl = { holder: null, stopShortcut: 'Ctrl+Alt+Escape', shortcutActive: false }
const held: DesktopControl = {
  holder: { runId: 'run_1', conversationId: 'conv_1', since: 1 },
  stopShortcut: 'Ctrl+Alt+Escape',
  shortcutActive: true
}

describe('useDesktopStore', () => {
  beforeEach(() => {
    invoke.mockReset()
    useDesktopStore.setState({ control: null, stopping: false })
  })

  it('loads desktop.status and applies desktop_control events', async () => {
    invoke.mockResolvedValueOnce({ ok: true, data: held })
    await useDesktopStore.getState().load()
    expect(invoke).toHaveBeenCalledWith('desktop.status', {})
    expect(useDesktopStore.getState().control).toEqual(held)
    useDesktopStore.getState().apply(idle)
    expect(useDesktopStore.getState().control).toEqual(idle)
  })

  it('keeps what it had when desktop.status fails (an older main)', async () => {
    useDesktopStore.getState().apply(held)
    invoke.mockResolvedValueOnce({ ok: false, error: { code: 'UNKNOWN_CALL', message: 'desktop.status' } })
    await useDesktopStore.getState().load()
    expect(useDesktopStore.getState().control).toEqual(held)
  })

  it('only the newest of two overlapping loads counts', async () => {
    let answerFirst: (value: unknown) => void = () => {}
    invoke.mockReturnValueOnce(new Promise((resolve) => (answerFirst = resolve)))
    invoke.mockResolvedValueOnce({ ok: true, data: idle })
    const first = useDesktopStore.getState().load()
    await useDesktopStore.getState().load()
    answerFirst({ ok: true, data: held })
    await first
    expect(useDesktopStore.getState().control).toEqual(idle)
  })

  it('stop calls desktop.stop, and asks again when nothing was stopped (a missed event)', async () => {
    useDesktopStore.getState().apply(held)
    invoke.mockResolvedValueOnce({ ok: true, data: { stopped: false } })
    invoke.mockResolvedValueOnce({ ok: true, data: idle })
    const stopping = useDesktopStore.getState().stop()
    expect(useDesktopStore.getState().stopping).toBe(true)
    const result = await stopping
    expect(result).toEqual({ ok: true, data: { stopped: false } })
    expect(useDesktopStore.getState().stopping).toBe(false)
    await vi.waitFor(() => expect(useDesktopStore.getState().control).toEqual(idle))
    expect(invoke.mock.calls.map((call) => call[0])).toEqual(['desktop.stop', 'desktop.status'])
  })

  it('a stop that worked waits for the event to take the banner down', async () => {
    useDesktopStore.getState().apply(held)
    invoke.mockResolvedValueOnce({ ok: true, data: { stopped: true } })
    await useDesktopStore.getState().stop()
    expect(invoke).toHaveBeenCalledTimes(1)
    expect(useDesktopStore.getState().control).toEqual(held)
  })

  it('asks again when the stop shortcut setting changed', async () => {
    useDesktopStore.getState().apply(held)
    const settings = { desktopStopShortcut: 'Ctrl+Alt+Escape' } as Settings
    useDesktopStore.getState().applySettings(settings)
    expect(invoke).not.toHaveBeenCalled()
    invoke.mockResolvedValueOnce({ ok: true, data: { ...held, stopShortcut: 'Ctrl+Shift+F12' } })
    useDesktopStore.getState().applySettings({ ...settings, desktopStopShortcut: 'Ctrl+Shift+F12' })
    await vi.waitFor(() => expect(useDesktopStore.getState().control?.stopShortcut).toBe('Ctrl+Shift+F12'))
  })
})
