/** Pure decisions about the app's life: what closing the main window does, and what a failed start says. */

export type CloseAction = 'hide' | 'close'

/**
 * Closing the main window on Linux and Windows hides it — the app keeps running in the tray — only
 * when a tray exists (keepRunning) and the app is not quitting; otherwise it closes (and on those
 * platforms the app quits). On macOS it closes: the app stays in the Dock and comes back on activate.
 */
export function closeAction({
  platform,
  quitting,
  keepRunning
}: {
  platform: NodeJS.Platform
  quitting: boolean
  keepRunning: boolean
}): CloseAction {
  if (platform === 'darwin' || quitting || !keepRunning) return 'close'
  return 'hide'
}

const MAX_REASON = 300

/** The one-line reason shown in the startup error box: the error's first line, never empty, never a wall of text. */
export function startupFailureMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : typeof error === 'string' ? error : ''
  const line = text
    .split(/\r?\n/)
    .map((part) => part.trim())
    .find((part) => part.length > 0)
  if (!line) return 'An unexpected error stopped DeskClaw from starting.'
  return line.length > MAX_REASON ? `${line.slice(0, MAX_REASON - 1)}…` : line
}
