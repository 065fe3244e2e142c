import { resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

export interface SenderFacts {
  /** 'webview' senders are never trusted. */
  senderType: string
  /** The sending frame's URL; null when the frame is gone. */
  frameUrl: string | null
  isTopFrame: boolean
}

export interface TrustedOrigins {
  /** The built renderer folder (file:// pages must be inside it). */
  rendererDir: string
  /** electron-vite's dev server in development. */
  devServerUrl?: string
}

/**
 * Only our own renderer's top frame may call the bridge (Electron security checklist #17).
 * Pure so it is tested without Electron; URLs are parsed, never prefix-matched as strings.
 */
export function isTrustedSender(facts: SenderFacts, trusted: TrustedOrigins): boolean {
  if (facts.senderType === 'webview' || !facts.isTopFrame || !facts.frameUrl) return false
  let url: URL
  try {
    url = new URL(facts.frameUrl)
  } catch {
    return false
  }
  if (url.protocol === 'file:') {
    const file = resolve(fileURLToPath(url))
    const root = resolve(trusted.rendererDir)
    return file.startsWith(root + sep)
  }
  if (trusted.devServerUrl) {
    try {
      return url.origin === new URL(trusted.devServerUrl).origin
    } catch {
      return false
    }
  }
  return false
}
