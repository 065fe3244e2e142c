import { describe, expect, it } from 'vitest'
import { foldUnchanged, lineDiff, splitRows } from '../../../src/renderer/src/features/checkpoints/line-diff'

/** The diff view's rows (docs/checkpoints.md, "The UI"): numbered lines, folded unchanged stretches, side-by-side pairs. */
describe('line diff rows', () => {
  const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n'
  const after = before.replace('line 10\n', 'line ten\nline ten and a half\n')

  it('numbers each side and keeps every line exactly once', () => {
    const lines = lineDiff(before, after)
    expect(lines.filter((l) => l.kind === 'del').map((l) => [l.oldNo, l.text])).toEqual([[10, 'line 10']])
    expect(lines.filter((l) => l.kind === 'add').map((l) => [l.newNo, l.text])).toEqual([
      [10, 'line ten'],
      [11, 'line ten and a half']
    ])
    expect(lines.filter((l) => l.kind !== 'add').map((l) => l.text).join('\n') + '\n').toBe(before)
    expect(lines.filter((l) => l.kind !== 'del').map((l) => l.text).join('\n') + '\n').toBe(after)
  })

  it('folds long unchanged stretches to gaps, keeping three lines of context', () => {
    const rows = foldUnchanged(lineDiff(before, after))
    const gaps = rows.filter((r) => r.kind === 'gap').map((r) => (r.kind === 'gap' ? r.count : 0))
    // Lines 1–9 before the change (6 fold, 3 stay), lines 11–20 after it (7 fold, 3 stay).
    expect(gaps).toEqual([6, 7])
    const shown = rows.filter((r) => r.kind !== 'gap').length
    expect(shown + 6 + 7).toBe(lineDiff(before, after).length)
  })

  it('pairs removed lines with the added lines that replace them', () => {
    const pairs = splitRows(foldUnchanged(lineDiff(before, after))).filter((r) => r.kind === 'pair' && (r.left?.kind !== 'same' || r.right?.kind !== 'same'))
    expect(pairs.map((r) => (r.kind === 'pair' ? [r.left?.text ?? null, r.right?.text ?? null] : null))).toEqual([
      ['line 10', 'line ten'],
      [null, 'line ten and a half']
    ])
  })

  it('a new file is all added, a deleted one all removed', () => {
    expect(lineDiff('', 'a\nb\n').map((l) => l.kind)).toEqual(['add', 'add'])
    expect(lineDiff('a\nb', '').map((l) => l.kind)).toEqual(['del', 'del'])
  })
})

describe('steps recorded in an apply-at-end copy', () => {
  it('are those whose workspace is <data folder>/staging/<run id>', async () => {
    const { isStagedCopy } = await import('../../../src/renderer/src/features/checkpoints/staged-copy')
    expect(isStagedCopy('/home/u/.deskclaw/staging/run_abc', 'run_abc')).toBe(true)
    expect(isStagedCopy('C:\\Users\\u\\DeskClaw\\staging\\run_abc', 'run_abc')).toBe(true)
    expect(isStagedCopy('/home/u/project', 'run_abc')).toBe(false)
    expect(isStagedCopy('/home/u/staging/run_other', 'run_abc')).toBe(false)
    expect(isStagedCopy('/home/u/notstaging/run_abc', 'run_abc')).toBe(false)
  })
})
