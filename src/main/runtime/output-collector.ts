import type { ExecRequest } from './types'

/** Output kept in memory per stream; beyond it the rest is dropped and `truncated` is set. */
export const OUTPUT_CAP_CHARS = 10 * 1024 * 1024

type StreamName = 'stdout' | 'stderr'

/**
 * Gathers a command's stdout and stderr up to a cap and forwards each chunk live. Past the cap
 * nothing more is kept or forwarded: a command printing gigabytes must not take the app down.
 */
export class OutputCollector {
  private readonly chunks: Record<StreamName, string[]> = { stdout: [], stderr: [] }
  private readonly sizes: Record<StreamName, number> = { stdout: 0, stderr: 0 }
  truncated = false

  constructor(
    private readonly onOutput?: ExecRequest['onOutput'],
    private readonly capChars = OUTPUT_CAP_CHARS
  ) {}

  push(stream: StreamName, chunk: string): void {
    if (chunk.length === 0) return
    const room = this.capChars - this.sizes[stream]
    if (room <= 0) {
      this.truncated = true
      return
    }
    const kept = chunk.length > room ? chunk.slice(0, room) : chunk
    if (kept.length < chunk.length) this.truncated = true
    this.chunks[stream].push(kept)
    this.sizes[stream] += kept.length
    this.onOutput?.(stream, kept)
  }

  text(stream: StreamName): string {
    return this.chunks[stream].join('')
  }
}
