/**
 * The last screenshot each conversation's model saw, and the mapping of the model's coordinates
 * (pixels of that image) back to screen pixels (docs/desktop.md, "Coordinates").
 */
import type { Point, Rect } from './protocol'

export interface Frame {
  /** The captured area in screen (input) pixels. */
  area: Rect
  /** The size of the image the model saw. */
  width: number
  height: number
  /** The image itself (PNG), for approvals that mark a point on it. */
  png: Uint8Array
  takenAt: number
}

export class PointOutsideError extends Error {}

/** Screen pixels per image pixel (1 when the image was not scaled down). */
export function frameScale(frame: Pick<Frame, 'area' | 'width'>): number {
  return frame.area.width / frame.width
}

/**
 * A point in the last screenshot's pixels → screen pixels. Without a screenshot the model's
 * numbers are taken as screen pixels. A point outside the image or the screen is an error that
 * says the valid range.
 */
export function toScreenPoint(point: Point, frame: Frame | undefined, screen: { width: number; height: number }): Point {
  if (frame) {
    if (point.x < 0 || point.y < 0 || point.x >= frame.width || point.y >= frame.height) {
      throw new PointOutsideError(
        `(${point.x}, ${point.y}) is outside the last screenshot, which is ${frame.width}×${frame.height} pixels (x 0-${frame.width - 1}, y 0-${frame.height - 1}).`
      )
    }
    const scaleX = frame.area.width / frame.width
    const scaleY = frame.area.height / frame.height
    const mapped = {
      x: frame.area.x + Math.min(frame.area.width - 1, Math.floor((point.x + 0.5) * scaleX)),
      y: frame.area.y + Math.min(frame.area.height - 1, Math.floor((point.y + 0.5) * scaleY))
    }
    return insideScreen(mapped, screen, `(${point.x}, ${point.y}) of the last screenshot`)
  }
  return insideScreen(point, screen, `(${point.x}, ${point.y})`)
}

/** A screen point → the last screenshot's pixels (for cursor_position); null when it is not in that image. */
export function toFramePoint(point: Point, frame: Frame): Point | null {
  const x = Math.floor((point.x - frame.area.x) * (frame.width / frame.area.width))
  const y = Math.floor((point.y - frame.area.y) * (frame.height / frame.area.height))
  return x >= 0 && y >= 0 && x < frame.width && y < frame.height ? { x, y } : null
}

function insideScreen(point: Point, screen: { width: number; height: number }, what: string): Point {
  if (point.x < 0 || point.y < 0 || point.x >= screen.width || point.y >= screen.height) {
    throw new PointOutsideError(`${what} is outside the screen (${screen.width}×${screen.height} pixels).`)
  }
  return point
}

/** Per conversation: a model only ever maps onto the screenshot it saw itself. */
export class FrameMemory {
  private readonly frames = new Map<string, Frame>()

  remember(conversationId: string, frame: Frame): void {
    this.frames.set(conversationId, frame)
  }

  last(conversationId: string): Frame | undefined {
    return this.frames.get(conversationId)
  }

  forget(conversationId: string): void {
    this.frames.delete(conversationId)
  }
}
