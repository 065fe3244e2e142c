/**
 * Output limits for what the model receives (documented in docs/tools.md). The user still sees
 * the full output; the model gets head and tail in whole lines and a hint how to read the rest.
 */
export interface OutputLimits {
  maxChars: number
  maxLines: number
}

export const DEFAULT_OUTPUT_LIMITS: OutputLimits = { maxChars: 30_000, maxLines: 2_000 }

export interface Truncated {
  text: string
  truncated: boolean
  omittedLines: number
}

/** Keeps the first ~60% and last ~40% of the budget, cut at line boundaries. */
export function truncateForModel(text: string, limits: OutputLimits, readMoreHint: string): Truncated {
  const lines = text.split('\n')
  if (text.length <= limits.maxChars && lines.length <= limits.maxLines) {
    return { text, truncated: false, omittedLines: 0 }
  }
  const headBudget = { chars: Math.floor(limits.maxChars * 0.6), lines: Math.floor(limits.maxLines * 0.6) }
  const tailBudget = { chars: limits.maxChars - headBudget.chars, lines: limits.maxLines - headBudget.lines }

  const head: string[] = []
  let used = 0
  for (const line of lines) {
    if (head.length >= headBudget.lines || used + line.length + 1 > headBudget.chars) break
    head.push(line)
    used += line.length + 1
  }
  const tail: string[] = []
  used = 0
  for (let i = lines.length - 1; i >= head.length; i--) {
    const line = lines[i] as string
    if (tail.length >= tailBudget.lines || used + line.length + 1 > tailBudget.chars) break
    tail.unshift(line)
    used += line.length + 1
  }
  const omittedLines = lines.length - head.length - tail.length
  // A single enormous line fits neither budget: keep a character slice so the model sees something.
  if (head.length === 0 && tail.length === 0) {
    const slice = text.slice(0, headBudget.chars)
    return {
      text: `${slice}\n[… output truncated: ${text.length - slice.length} more characters on this line. ${readMoreHint}]`,
      truncated: true,
      omittedLines: lines.length - 1
    }
  }
  const marker = `[… ${omittedLines} lines omitted (${lines.length} lines, ${text.length} characters in all). ${readMoreHint}]`
  return { text: [...head, marker, ...tail].join('\n'), truncated: true, omittedLines }
}
