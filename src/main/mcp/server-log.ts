/**
 * The last lines a server wrote to stderr, and DeskClaw's own notes about it (started, exited,
 * sent something that is not MCP): shown in Settings and quoted in a failed call's result.
 */
export class ServerLog {
  private readonly lines: string[] = []
  private partial = ''

  constructor(private readonly maxLines = 200) {}

  /** A chunk of the server's stderr; lines are kept whole, each cut at 500 characters. */
  write(chunk: string): void {
    const parts = (this.partial + chunk).split(/\r?\n/)
    this.partial = parts.pop() ?? ''
    if (this.partial.length > 2000) {
      this.push(this.partial)
      this.partial = ''
    }
    for (const line of parts) this.push(line)
  }

  /** A line of DeskClaw's own, marked so it is not taken for the server's. */
  note(line: string): void {
    this.flush()
    this.push(`[deskclaw] ${line}`)
  }

  tail(count = 20): string[] {
    const pending = this.partial ? [this.partial] : []
    return [...this.lines, ...pending].slice(-count)
  }

  private flush(): void {
    if (this.partial) this.push(this.partial)
    this.partial = ''
  }

  private push(line: string): void {
    if (line.trim() === '') return
    this.lines.push(line.length > 500 ? `${line.slice(0, 500)}…` : line)
    if (this.lines.length > this.maxLines) this.lines.splice(0, this.lines.length - this.maxLines)
  }
}
