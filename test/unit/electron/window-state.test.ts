import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  DEFAULT_WINDOW_SIZE,
  MIN_WINDOW_SIZE,
  parseWindowState,
  restoreWindowState,
  serializeWindowState,
  titleBarVisible,
  windowStateFile
} from '../../../src/main/electron/policy/window-state'

const primary = { x: 0, y: 25, width: 1920, height: 1055 }
const right = { x: 1920, y: 0, width: 1280, height: 1024 }

describe('the saved window state', () => {
  it('lives in window-state.json in the data folder', () => {
    expect(windowStateFile('/data')).toBe(join('/data', 'window-state.json'))
  })

  it('round-trips', () => {
    const state = { bounds: { x: 10, y: 40, width: 1000, height: 700 }, maximized: true }
    expect(parseWindowState(JSON.parse(serializeWindowState(state)))).toEqual(state)
  })

  it.each([
    null,
    'x',
    {},
    { bounds: { x: 0, y: 0, width: 800, height: 600 } },
    { bounds: { x: 0, y: 0, width: 800, height: 600 }, maximized: 'yes' },
    { bounds: { x: 0, y: 0, width: 0, height: 600 }, maximized: false },
    { bounds: { x: 0, y: 0, width: -800, height: 600 }, maximized: false },
    { bounds: { x: 0.5, y: 0, width: 800, height: 600 }, maximized: false },
    { bounds: { x: Number.NaN, y: 0, width: 800, height: 600 }, maximized: false },
    { bounds: { x: 1e12, y: 0, width: 800, height: 600 }, maximized: false },
    { bounds: { x: '0', y: 0, width: 800, height: 600 }, maximized: false },
    { bounds: null, maximized: false }
  ])('rejects %j', (value) => {
    expect(parseWindowState(value)).toBeNull()
  })
})

describe('restoreWindowState', () => {
  it('opens at the default size, centred, the first time', () => {
    expect(restoreWindowState(null, [primary])).toEqual({ bounds: { ...DEFAULT_WINDOW_SIZE }, maximized: false })
  })

  it('puts the window back where it was, maximised or not', () => {
    const saved = { bounds: { x: 100, y: 80, width: 1000, height: 700 }, maximized: true }
    expect(restoreWindowState(saved, [primary])).toEqual(saved)
  })

  it('keeps a window on a second display while that display is there', () => {
    const saved = { bounds: { x: 2000, y: 100, width: 1000, height: 700 }, maximized: false }
    expect(restoreWindowState(saved, [primary, right])).toEqual(saved)
  })

  it('centres it on the primary display when its display is gone', () => {
    const saved = { bounds: { x: 2000, y: 100, width: 1000, height: 700 }, maximized: true }
    expect(restoreWindowState(saved, [primary])).toEqual({ bounds: { width: 1000, height: 700 }, maximized: true })
  })

  it('keeps a window that hangs off an edge as long as its title bar can be grabbed', () => {
    const saved = { bounds: { x: -850, y: 300, width: 1000, height: 700 }, maximized: false }
    expect(restoreWindowState(saved, [primary]).bounds).toEqual(saved.bounds)
  })

  it.each([
    ['left of every display', { x: -1000, y: 300, width: 1000, height: 700 }],
    ['only a sliver on screen', { x: -950, y: 300, width: 1000, height: 700 }],
    ['title bar above the work area', { x: 100, y: 0, width: 1000, height: 700 }],
    ['below every display', { x: 100, y: 1070, width: 1000, height: 700 }]
  ])('recentres a window %s', (_case, bounds) => {
    expect(restoreWindowState({ bounds, maximized: false }, [primary]).bounds).toEqual({ width: 1000, height: 700 })
  })

  it('never goes below the minimum size', () => {
    const saved = { bounds: { x: 100, y: 100, width: 200, height: 100 }, maximized: false }
    const { bounds } = restoreWindowState(saved, [primary])
    expect(bounds.width).toBe(MIN_WINDOW_SIZE.width)
    expect(bounds.height).toBe(MIN_WINDOW_SIZE.height)
  })

  it('shrinks a window larger than its display (resolution lowered) and keeps it on that display', () => {
    const small = { x: 0, y: 0, width: 1280, height: 720 }
    const saved = { bounds: { x: 200, y: 10, width: 2400, height: 1400 }, maximized: false }
    expect(restoreWindowState(saved, [small]).bounds).toEqual({ x: 0, y: 0, width: 1280, height: 720 })
  })

  it('keeps the minimum even on a display smaller than it', () => {
    const tiny = { x: 0, y: 0, width: 640, height: 400 }
    const { bounds } = restoreWindowState({ bounds: { x: 0, y: 0, width: 800, height: 600 }, maximized: false }, [tiny])
    expect(bounds.width).toBe(MIN_WINDOW_SIZE.width)
    expect(bounds.height).toBe(MIN_WINDOW_SIZE.height)
  })

  it('judges visibility by the title bar strip', () => {
    expect(titleBarVisible({ x: 0, y: 25, width: 800, height: 600 }, primary)).toBe(true)
    expect(titleBarVisible({ x: 1850, y: 25, width: 800, height: 600 }, primary)).toBe(false) // 70 px across
    expect(titleBarVisible({ x: 1800, y: 25, width: 800, height: 600 }, primary)).toBe(true) // 120 px across
  })
})
