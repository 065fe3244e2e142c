/** Where a profile's region is on the screen, given the window's client area (docs/desktop.md, "Chat app profiles"). */
import type { Rect } from '../../desktop'
import type { Length, Region } from './profile'

function pixels(length: Length | undefined, whole: number): number | undefined {
  if (length === undefined) return undefined
  return typeof length === 'number' ? length : (parseFloat(length) / 100) * whole
}

/** One axis: two of start / end / size known, within `whole`. */
function span(start: number | undefined, end: number | undefined, size: number | undefined, whole: number): [number, number] {
  if (start !== undefined && size !== undefined) return [start, size]
  if (end !== undefined && size !== undefined) return [whole - end - size, size]
  return [start ?? 0, whole - (start ?? 0) - (end ?? 0)]
}

/**
 * The region in screen pixels, clipped to the window. `scale` is screen pixels per profile pixel
 * (a HiDPI screen's factor). Throws when nothing of it is inside the window.
 */
export function regionRect(region: Region, window: Rect, scale = 1): Rect {
  const w = window.width / scale
  const h = window.height / scale
  const [x, width] = span(pixels(region.left, w), pixels(region.right, w), pixels(region.width, w), w)
  const [y, height] = span(pixels(region.top, h), pixels(region.bottom, h), pixels(region.height, h), h)
  const left = Math.max(0, Math.round(x * scale))
  const top = Math.max(0, Math.round(y * scale))
  const right = Math.min(window.width, Math.round((x + width) * scale))
  const bottom = Math.min(window.height, Math.round((y + height) * scale))
  if (right - left < 1 || bottom - top < 1) throw new Error(`the region lies outside the ${window.width}×${window.height} window`)
  return { x: window.x + left, y: window.y + top, width: right - left, height: bottom - top }
}
