/**
 * Windows `cmd.exe` lines, read with cmd's own rules (docs/risk.md, "The shell that runs it"):
 * `&`, `&&`, `|`, `||` separate commands wherever they stand outside double quotes — a single
 * quote is an ordinary character there, so `echo 'a & del /s /q C:\'` runs `del` — and `^`
 * escapes the next character. Bash's reading of the same text proves nothing.
 */
export interface CmdStatement {
  /** Words as cmd passes them (double quotes kept, for the Windows catalogue). */
  tokens: string[]
  text: string
  start: number
  end: number
}

export function cmdStatements(line: string): CmdStatement[] {
  const statements: CmdStatement[] = []
  let start = 0
  let quoted = false
  const push = (end: number) => {
    const text = line.slice(start, end)
    const tokens = text.trim().match(/"[^"]*"?|(?:\^.|[^\s"])+/g) ?? []
    if (tokens.length > 0) statements.push({ tokens, text: text.trim(), start, end })
  }
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!
    if (c === '^' && !quoted) {
      i++
      continue
    }
    if (c === '"') quoted = !quoted
    else if (!quoted && (c === '&' || c === '|' || c === '\n')) {
      push(i)
      if (line[i + 1] === c) i++
      start = i + 1
    }
  }
  push(line.length)
  return statements
}

/** cmd's own commands that only read or print (`dir`, `type`, `ver`, `where`): judged here, not by bash's tables. */
export const CMD_READS: ReadonlyMap<string, 'names' | 'contents' | 'none'> = new Map([
  ['dir', 'names'], ['type', 'contents'], ['more', 'contents'], ['echo', 'none'], ['ver', 'none'], ['vol', 'none'], ['cd', 'names'],
  ['chdir', 'names'], ['where', 'none'], ['whoami', 'none'], ['hostname', 'none'], ['tasklist', 'none'], ['systeminfo', 'none'],
  ['findstr', 'contents'], ['find', 'contents'], ['tree', 'names'], ['date', 'none'], ['time', 'none'], ['path', 'none']
])
