/** Quitting: the first before-quit is held back until the cleanups have run and the app has closed. */
import { app } from 'electron'
import type { DeskclawApp } from '../app'

/** On the first before-quit: run the cleanups, close the app (store, runs), then quit for real. */
export function setupQuit(deskclaw: DeskclawApp, cleanups: ReadonlyArray<() => void>): void {
  let closing = false
  app.on('before-quit', (event) => {
    if (closing) return
    closing = true
    event.preventDefault()
    for (const cleanup of cleanups) cleanup()
    void deskclaw.close().finally(() => app.quit())
  })
}
