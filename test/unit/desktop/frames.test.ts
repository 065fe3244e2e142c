import { describe, expect, it } from 'vitest'
import { toFramePoint, toScreenPoint, type Frame } from '../../../src/main/desktop'

const screen = { width: 2560, height: 1600 }
const frame = (area: Frame['area'], width: number, height: number): Frame => ({ area, width, height, png: new Uint8Array(), takenAt: 0 })

describe('toScreenPoint', () => {
  it('maps pixels of a scaled-down screenshot back to screen pixels', () => {
    const half = frame({ x: 0, y: 0, width: 2560, height: 1600 }, 1280, 800)
    expect(toScreenPoint({ x: 0, y: 0 }, half, screen)).toEqual({ x: 1, y: 1 })
    expect(toScreenPoint({ x: 640, y: 400 }, half, screen)).toEqual({ x: 1281, y: 801 })
    expect(toScreenPoint({ x: 1279, y: 799 }, half, screen)).toEqual({ x: 2559, y: 1599 })
  })

  it('adds the origin of a window or region screenshot', () => {
    const window = frame({ x: 100, y: 50, width: 400, height: 300 }, 400, 300)
    expect(toScreenPoint({ x: 10, y: 20 }, window, screen)).toEqual({ x: 110, y: 70 })
  })

  it('refuses a point outside the screenshot, saying its size', () => {
    const half = frame({ x: 0, y: 0, width: 2560, height: 1600 }, 1280, 800)
    expect(() => toScreenPoint({ x: 1280, y: 10 }, half, screen)).toThrow(/outside the last screenshot, which is 1280×800/)
    expect(() => toScreenPoint({ x: -1, y: 10 }, half, screen)).toThrow(/outside the last screenshot/)
  })

  it('takes screen pixels when there is no screenshot, and refuses points off the screen', () => {
    expect(toScreenPoint({ x: 5, y: 6 }, undefined, screen)).toEqual({ x: 5, y: 6 })
    expect(() => toScreenPoint({ x: 2560, y: 0 }, undefined, screen)).toThrow(/outside the screen \(2560×1600/)
  })

  it('refuses a region screenshot point that maps off the screen', () => {
    const offScreen = frame({ x: 2500, y: 0, width: 200, height: 100 }, 200, 100)
    expect(() => toScreenPoint({ x: 150, y: 10 }, offScreen, screen)).toThrow(/outside the screen/)
  })
})

describe('toFramePoint', () => {
  it('is the inverse mapping, and null outside the image', () => {
    const half = frame({ x: 0, y: 0, width: 2560, height: 1600 }, 1280, 800)
    expect(toFramePoint({ x: 1281, y: 801 }, half)).toEqual({ x: 640, y: 400 })
    const window = frame({ x: 100, y: 50, width: 400, height: 300 }, 400, 300)
    expect(toFramePoint({ x: 50, y: 60 }, window)).toBeNull()
  })
})
