/**
 * The webPreferences of every DeskClaw window (Electron security checklist): a sandboxed renderer,
 * isolated from the preload, no Node, same-origin policy on, no mixed content, no experimental
 * features, no <webview>, and no navigation by dropping a file on the window. The main window uses
 * it; the palette window uses it too (`secureWebPreferences(preloadPath)`).
 */
import type { WebPreferences } from 'electron'

export function secureWebPreferences(preload: string): WebPreferences {
  return {
    preload,
    sandbox: true,
    contextIsolation: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false
  }
}
