/**
 * One line that says what a tool call does, for the timeline and the CLI. Each tool writes its own
 * (`summary(args)`, sent on tool_call_started); `summarizeArgs` is only the fallback for calls that
 * have none (invalid arguments, records from before summaries existed). It knows no argument names.
 * Plain functions, no dependencies: the renderer imports them as values.
 */

function asLine(value: unknown): string | null {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) {
    return value.join(' ')
  }
  return null
}

/** Text on one line, newlines shown as ⏎, cut to `maxLength` with an ellipsis. */
export function oneLine(text: string, maxLength = 140): string {
  const line = text.replace(/\s*\n\s*/g, ' ⏎ ').trim()
  return line.length > maxLength ? `${line.slice(0, maxLength - 1)}…` : line
}

/** The first plain value of the arguments, on one line. */
export function summarizeArgs(args: unknown, maxLength = 140): string {
  let summary: string | null = asLine(args)
  if (summary === null && args && typeof args === 'object' && !Array.isArray(args)) {
    for (const value of Object.values(args as Record<string, unknown>)) {
      summary = asLine(value)
      if (summary) break
    }
  }
  return summary ? oneLine(summary, maxLength) : ''
}

export function prettyJson(value: unknown): string {
  if (value === undefined) return ''
  try {
    return JSON.stringify(value, null, 2) ?? String(value)
  } catch {
    return String(value)
  }
}
