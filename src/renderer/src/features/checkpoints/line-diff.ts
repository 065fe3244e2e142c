/**
 * Line diffs for the diff view (docs/checkpoints.md, "The UI"): the `diff` package finds the lines;
 * here they get numbers, long unchanged stretches fold to a gap, and the side-by-side view pairs
 * removed lines with the added lines that replace them.
 */
import { diffLines } from 'diff'

export interface DiffLine {
  kind: 'same' | 'add' | 'del'
  text: string
  /** 1-based line numbers on the side(s) the line is on. */
  oldNo?: number
  newNo?: number
}
export interface DiffGap {
  kind: 'gap'
  count: number
}
export type UnifiedRow = DiffLine | DiffGap
export type SplitRow = { kind: 'pair'; left?: DiffLine; right?: DiffLine } | DiffGap

/** Lines unchanged around a change that stay visible; longer unchanged stretches fold. */
export const CONTEXT_LINES = 3

function splitText(value: string): string[] {
  const lines = value.split('\n')
  // A chunk's final newline ends its last line; it does not start another.
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop()
  return lines
}

export function lineDiff(before: string, after: string): DiffLine[] {
  const out: DiffLine[] = []
  let oldNo = 1
  let newNo = 1
  for (const part of diffLines(before, after)) {
    for (const text of splitText(part.value)) {
      if (part.added) out.push({ kind: 'add', text, newNo: newNo++ })
      else if (part.removed) out.push({ kind: 'del', text, oldNo: oldNo++ })
      else out.push({ kind: 'same', text, oldNo: oldNo++, newNo: newNo++ })
    }
  }
  return out
}

/** Unchanged stretches longer than twice the context become one gap row. */
export function foldUnchanged(lines: readonly DiffLine[], context = CONTEXT_LINES): UnifiedRow[] {
  const out: UnifiedRow[] = []
  let i = 0
  while (i < lines.length) {
    if (lines[i]!.kind !== 'same') {
      out.push(lines[i]!)
      i++
      continue
    }
    let end = i
    while (end < lines.length && lines[end]!.kind === 'same') end++
    const keepHead = i === 0 ? 0 : context
    const keepTail = end === lines.length ? 0 : context
    if (end - i > keepHead + keepTail + 1) {
      out.push(...lines.slice(i, i + keepHead), { kind: 'gap', count: end - i - keepHead - keepTail }, ...lines.slice(end - keepTail, end))
    } else {
      out.push(...lines.slice(i, end))
    }
    i = end
  }
  return out
}

/** Side by side: a removed run faces the added run after it, line by line. */
export function splitRows(rows: readonly UnifiedRow[]): SplitRow[] {
  const out: SplitRow[] = []
  let i = 0
  while (i < rows.length) {
    const row = rows[i]!
    if (row.kind === 'gap') {
      out.push(row)
      i++
    } else if (row.kind === 'same') {
      out.push({ kind: 'pair', left: row, right: row })
      i++
    } else {
      const dels: DiffLine[] = []
      const adds: DiffLine[] = []
      while (i < rows.length && rows[i]!.kind === 'del') dels.push(rows[i++] as DiffLine)
      while (i < rows.length && rows[i]!.kind === 'add') adds.push(rows[i++] as DiffLine)
      for (let k = 0; k < Math.max(dels.length, adds.length); k++) {
        const left = dels[k]
        const right = adds[k]
        out.push({ kind: 'pair', ...(left ? { left } : {}), ...(right ? { right } : {}) })
      }
    }
  }
  return out
}
