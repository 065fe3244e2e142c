import { isRefusal, refuse, refusalFromError, type WorkspaceRefusal } from './refusal'
import { openWorkspaceFile, type OpenedFile, type SafeOpenOptions } from './safe-open'

/** Read in pieces so Stop is honoured between them, even on a slow disk. */
const CHUNK_BYTES = 256 * 1024

export interface ReadOptions extends SafeOpenOptions {
  /** Files larger than this are refused (`tooLarge`) without being read. */
  maxBytes: number
  signal?: AbortSignal
}

export interface ReadFile {
  ok: true
  display: string
  data: Buffer
}

/** Reads a workspace file through the descriptor `openWorkspaceFile` opened (never by its path again). */
export async function readWorkspaceFile(workspace: string, requested: string, options: ReadOptions): Promise<ReadFile | WorkspaceRefusal> {
  const opened = await openWorkspaceFile(workspace, requested, options)
  if (isRefusal(opened)) return opened
  return readOpenedFile(opened, options)
}

/** Reads a file `openWorkspaceFile` (or `openFileIn`) opened, in pieces, and closes it. */
export async function readOpenedFile(opened: OpenedFile, options: Omit<ReadOptions, keyof SafeOpenOptions>): Promise<ReadFile | WorkspaceRefusal> {
  const { handle, display, size } = opened
  try {
    if (size > options.maxBytes) return refuse('tooLarge', display, String(size))
    const chunks: Buffer[] = []
    let total = 0
    for (;;) {
      if (options.signal?.aborted) return refuse('stopped', display)
      // Sized to what fstat promised (plus a little, to notice growth), so a small file costs a small buffer.
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(size - total, 0) + 4096))
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, total)
      if (bytesRead === 0) break
      total += bytesRead
      // It may grow while it is read: the limit holds for what is read, not only for what fstat said.
      if (total > options.maxBytes) return refuse('tooLarge', display, String(total))
      chunks.push(chunk.subarray(0, bytesRead))
    }
    return { ok: true, display, data: Buffer.concat(chunks, total) }
  } catch (error) {
    return refusalFromError(error, display)
  } finally {
    await handle.close().catch(() => undefined)
  }
}
