import type Docker from 'dockerode'
import { RuntimeUnavailableError } from './types'

/** One progress line of a pull, as the engine reports it per layer. */
export interface ImagePullProgress {
  status: string
  /** The layer (or tag) the line is about. */
  id?: string
  /** Bytes done / total for this layer, when the engine says. */
  current?: number
  total?: number
}

interface PullEvent {
  status?: string
  id?: string
  progressDetail?: { current?: number; total?: number }
  error?: string
  errorDetail?: { message?: string }
}

export async function imageExists(docker: Docker, image: string): Promise<boolean> {
  try {
    await docker.getImage(image).inspect()
    return true
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) return false
    throw error
  }
}

/**
 * Makes sure `image` is on the engine: pulls it when missing, reporting each progress line.
 * A failed pull (no registry, offline, unknown image) becomes one line naming the image and
 * how to build it locally.
 */
export async function ensureImage(
  docker: Docker,
  image: string,
  onProgress?: (progress: ImagePullProgress) => void
): Promise<{ pulled: boolean }> {
  if (await imageExists(docker, image)) return { pulled: false }
  try {
    const stream = (await docker.pull(image)) as NodeJS.ReadableStream
    await new Promise<void>((resolve, reject) => {
      docker.modem.followProgress(
        stream,
        (error: Error | null, events: PullEvent[]) => {
          const failed = error?.message ?? events.find((event) => event.error)?.error
          if (failed) reject(new Error(failed))
          else resolve()
        },
        (event: PullEvent) => {
          if (event.error || !event.status) return
          onProgress?.({
            status: event.status,
            id: event.id,
            current: event.progressDetail?.current,
            total: event.progressDetail?.total
          })
        }
      )
    })
  } catch (error) {
    throw new RuntimeUnavailableError(pullFailure(image, error))
  }
  if (!(await imageExists(docker, image))) throw new RuntimeUnavailableError(pullFailure(image, 'the engine reported no image'))
  return { pulled: true }
}

function pullFailure(image: string, error: unknown): string {
  const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0].replace(/^\(HTTP code \d+\)\s*[^-]*-\s*/, '').trim()
  return (
    `Cannot pull the sandbox image ${image} (${reason}). ` +
    `Build it locally instead: docker build -t ${image} resources/sandbox (in the DeskClaw source or install folder).`
  )
}

const PROGRESS_INTERVAL_MS = 500

/**
 * Turns the engine's flood of per-layer progress events into a few readable lines for the
 * timeline: one when a layer changes status, at most one every 500 ms while bytes move.
 */
export function pullProgressLines(image: string, write: (line: string) => void): (progress: ImagePullProgress) => void {
  let lastWrite = 0
  const statusById = new Map<string, string>()
  return (progress) => {
    if (statusById.size === 0) write(`Pulling the sandbox image ${image}…\n`)
    const key = progress.id ?? ''
    const changed = statusById.get(key) !== progress.status
    statusById.set(key, progress.status)
    const now = Date.now()
    if (!changed && now - lastWrite < PROGRESS_INTERVAL_MS) return
    lastWrite = now
    const bytes =
      progress.current !== undefined && progress.total ? ` ${mb(progress.current)}/${mb(progress.total)} MB` : ''
    write(`${progress.id ? `${progress.id}: ` : ''}${progress.status}${bytes}\n`)
  }
}

const mb = (bytes: number) => (bytes / 1_048_576).toFixed(1)
