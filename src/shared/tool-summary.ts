/**
 * One line that says what a tool call does (`ls -la`, `notes/a.txt`), for the timeline and the CLI.
 * Plain functions, no dependencies: the renderer imports them as values.
 */
const PREFERRED_KEYS = [
  'command',
  'cmd',
  'argv',
  'path',
  'file',
  'filePath',
  'file_path',
  'target',
  'url',
  'query',
  'pattern',
  'app',
  'device',
  'port',
  'to',
  'name',
  'text'
]

function asLine(value: unknown): string | null {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) {
    return value.join(' ')
  }
  return null
}

export function summarizeArgs(args: unknown, maxLength = 140): string {
  let summary: string | null = asLine(args)
  if (summary === null && args && typeof args === 'object' && !Array.isArray(args)) {
    const record = args as Record<string, unknown>
    for (const key of PREFERRED_KEYS) {
      summary = asLine(record[key])
      if (summary) break
    }
    if (!summary) {
      for (const value of Object.values(record)) {
        summary = asLine(value)
        if (summary) break
      }
    }
  }
  if (!summary) return ''
  const line = summary.replace(/\s*\n\s*/g, ' ⏎ ').trim()
  return line.length > maxLength ? `${line.slice(0, maxLength - 1)}…` : line
}

export function prettyJson(value: unknown): string {
  if (value === undefined) return ''
  try {
    return JSON.stringify(value, null, 2) ?? String(value)
  } catch {
    return String(value)
  }
}
