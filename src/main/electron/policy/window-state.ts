/**
 * The main window's size, position and maximised state, remembered across launches in
 * window-state.json in the data folder. What was saved is checked against the displays there are
 * now: a window whose title bar cannot be reached (a monitor unplugged, the resolution lowered) is
 * centred on the primary display instead, and no size goes below the minimum or beyond its display.
 */
import { join } from 'node:path'

export interface Rect {
  x: number
  y: number
  width: number
  height: number
}

export interface WindowState {
  /** The normal (not maximised) bounds. */
  bounds: Rect
  maximized: boolean
}

/** What BrowserWindow gets: no x/y means "centred". */
export interface WindowPlacement {
  bounds: { x?: number; y?: number; width: number; height: number }
  maximized: boolean
}

export const WINDOW_STATE_FILE = 'window-state.json'
export const MIN_WINDOW_SIZE = { width: 720, height: 480 } as const
export const DEFAULT_WINDOW_SIZE = { width: 1200, height: 800 } as const
/** How much of the title bar must lie on a display for the saved position to be kept. */
export const MIN_VISIBLE_TITLE_BAR = { width: 120, height: 30 } as const
const MAX_COORDINATE = 100_000

export function windowStateFile(dataDir: string): string {
  return join(dataDir, WINDOW_STATE_FILE)
}

/** The saved state, or null when it is missing or not a state (a hand-edited or truncated file). */
export function parseWindowState(value: unknown): WindowState | null {
  if (!value || typeof value !== 'object') return null
  const { bounds, maximized } = value as { bounds?: unknown; maximized?: unknown }
  if (!bounds || typeof bounds !== 'object' || typeof maximized !== 'boolean') return null
  const { x, y, width, height } = bounds as Record<string, unknown>
  const coordinate = (n: unknown): n is number => Number.isInteger(n) && Math.abs(n as number) <= MAX_COORDINATE
  const size = (n: unknown): n is number => coordinate(n) && (n as number) > 0
  if (!coordinate(x) || !coordinate(y) || !size(width) || !size(height)) return null
  return { bounds: { x, y, width, height }, maximized }
}

export function serializeWindowState(state: WindowState): string {
  const { x, y, width, height } = state.bounds
  return `${JSON.stringify({ bounds: { x, y, width, height }, maximized: state.maximized }, null, 2)}\n`
}

/**
 * Where the window opens: the saved bounds when its title bar is on one of `workAreas`, fitted to
 * that display; otherwise the saved (or default) size, fitted to the primary display, centred.
 * `workAreas[0]` is the primary display's work area.
 */
export function restoreWindowState(saved: WindowState | null, workAreas: readonly Rect[]): WindowPlacement {
  const primary = workAreas[0]
  const wanted = saved?.bounds ?? { x: 0, y: 0, ...DEFAULT_WINDOW_SIZE }
  const maximized = saved?.maximized ?? false
  const display = saved ? workAreas.find((area) => titleBarVisible(saved.bounds, area)) : undefined
  if (display) {
    const width = fit(wanted.width, MIN_WINDOW_SIZE.width, display.width)
    const height = fit(wanted.height, MIN_WINDOW_SIZE.height, display.height)
    // Shrunk to the display? Keep it on the display too.
    const x = width === wanted.width ? wanted.x : clamp(wanted.x, display.x, display.x + display.width - width)
    const y = height === wanted.height ? wanted.y : clamp(wanted.y, display.y, display.y + display.height - height)
    return { bounds: { x, y, width, height }, maximized }
  }
  const width = fit(wanted.width, MIN_WINDOW_SIZE.width, primary?.width)
  const height = fit(wanted.height, MIN_WINDOW_SIZE.height, primary?.height)
  return { bounds: { width, height }, maximized }
}

/** Whether enough of the window's top strip (where the title bar is) lies on this work area to grab it. */
export function titleBarVisible(bounds: Rect, area: Rect): boolean {
  const strip = Math.min(MIN_VISIBLE_TITLE_BAR.height, bounds.height)
  const left = Math.max(bounds.x, area.x)
  const right = Math.min(bounds.x + bounds.width, area.x + area.width)
  const top = Math.max(bounds.y, area.y)
  const bottom = Math.min(bounds.y + strip, area.y + area.height)
  return right - left >= Math.min(MIN_VISIBLE_TITLE_BAR.width, bounds.width) && bottom - top >= strip
}

/** At least `min`, at most `max` (the display) — but never below `min`, even on a tiny display. */
function fit(value: number, min: number, max: number | undefined): number {
  const capped = max !== undefined ? Math.min(value, max) : value
  return Math.max(min, capped)
}

function clamp(value: number, low: number, high: number): number {
  return Math.max(low, Math.min(value, Math.max(low, high)))
}
