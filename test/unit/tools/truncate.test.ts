import { describe, expect, it } from 'vitest'
import { truncateForModel } from '../../../src/main/tools'

const limits = { maxChars: 1_000, maxLines: 50 }

describe('truncateForModel', () => {
  it('leaves short output alone', () => {
    expect(truncateForModel('a\nb', limits, 'hint')).toEqual({ text: 'a\nb', truncated: false, omittedLines: 0 })
  })

  it('keeps head and tail in whole lines and says how to read on', () => {
    const lines = Array.from({ length: 500 }, (_, i) => `line ${i + 1}`)
    const result = truncateForModel(lines.join('\n'), limits, 'Use offset.')
    expect(result.truncated).toBe(true)
    const out = result.text.split('\n')
    expect(out[0]).toBe('line 1')
    expect(out.at(-1)).toBe('line 500')
    const marker = out.find((line) => line.startsWith('[…'))!
    expect(marker).toContain(`${result.omittedLines} lines omitted`)
    expect(marker).toContain('Use offset.')
    // Every kept line is a whole original line.
    for (const line of out) if (!line.startsWith('[…')) expect(lines).toContain(line)
    expect(out.length - 1 + result.omittedLines).toBe(500)
    expect(result.text.length).toBeLessThanOrEqual(1_000 + marker.length + 1)
  })

  it('cuts by characters when lines are long', () => {
    const lines = Array.from({ length: 20 }, (_, i) => `${i}`.padEnd(200, 'x'))
    const result = truncateForModel(lines.join('\n'), limits, 'hint')
    expect(result.truncated).toBe(true)
    expect(result.text.length).toBeLessThan(1_300)
  })

  it('handles one enormous line', () => {
    const result = truncateForModel('y'.repeat(10_000), limits, 'hint')
    expect(result.truncated).toBe(true)
    expect(result.text).toContain('more characters on this line')
    expect(result.text.length).toBeLessThan(1_000)
  })
})
