import { afterEach, describe, expect, it, vi } from 'vitest'
import { pullProgressLines } from '../../../src/main/runtime/docker-image'

afterEach(() => {
  vi.useRealTimers()
})

describe('image pull progress for the timeline', () => {
  it('says nothing until a pull starts, then one line per status change and at most one every 500 ms while bytes move', () => {
    vi.useFakeTimers()
    const lines: string[] = []
    const report = pullProgressLines('deskclaw/sandbox:1', (line) => lines.push(line))
    expect(lines).toEqual([])
    report({ status: 'Pulling fs layer', id: 'a1' })
    for (let i = 1; i <= 100; i++) {
      vi.advanceTimersByTime(10) // 100 events over one second
      report({ status: 'Downloading', id: 'a1', current: i * 1_048_576, total: 100 * 1_048_576 })
    }
    report({ status: 'Download complete', id: 'a1' })
    expect(lines[0]).toBe('Pulling the sandbox image deskclaw/sandbox:1…\n')
    expect(lines[1]).toBe('a1: Pulling fs layer\n')
    expect(lines[2]).toBe('a1: Downloading 1.0/100.0 MB\n')
    const downloading = lines.filter((line) => line.includes('Downloading'))
    expect(downloading.length).toBeGreaterThanOrEqual(2)
    expect(downloading.length).toBeLessThanOrEqual(4)
    expect(lines.at(-1)).toBe('a1: Download complete\n')
  })
})
