import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'

/** The browser DeskClaw drives (docs/tools.md, "Browser"): the user's own, never one downloaded. */
export type FoundBrowser = { ok: true; path: string } | { ok: false; reason: string }

export interface FindBrowserOptions {
  platform?: NodeJS.Platform
  env?: NodeJS.ProcessEnv
  /** Whether a file may be run (tests pass a fake). */
  isExecutable?: (path: string) => boolean
}

const LINUX_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'microsoft-edge', 'microsoft-edge-stable']

/** Where Chromium, Chrome and Edge are installed by default, in the order they are tried. */
export function browserCandidates(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string[] {
  if (platform === 'darwin') {
    return ['Google Chrome', 'Chromium', 'Microsoft Edge'].map((app) => `/Applications/${app}.app/Contents/MacOS/${app}`)
  }
  if (platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter((root): root is string => Boolean(root))
    return roots.flatMap((root) => [
      join(root, 'Google', 'Chrome', 'Application', 'chrome.exe'),
      join(root, 'Microsoft', 'Edge', 'Application', 'msedge.exe'),
      join(root, 'Chromium', 'Application', 'chrome.exe')
    ])
  }
  const folders = [...(env.PATH ?? '').split(delimiter).filter(Boolean), '/usr/bin', '/usr/local/bin', '/snap/bin']
  return [...new Set(LINUX_NAMES.flatMap((name) => folders.map((folder) => join(folder, name))))]
}

const executable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** The chosen browser (`Settings.browserPath`) when set, else the first installed candidate; a reason when none is. */
export function findBrowser(chosen: string, options: FindBrowserOptions = {}): FoundBrowser {
  const isExecutable = options.isExecutable ?? executable
  if (chosen.trim() !== '') {
    return isExecutable(chosen) ? { ok: true, path: chosen } : { ok: false, reason: `The browser chosen in Settings (${chosen}) is not an executable file.` }
  }
  const found = browserCandidates(options.platform ?? process.platform, options.env ?? process.env).find(isExecutable)
  return found
    ? { ok: true, path: found }
    : { ok: false, reason: 'No Chromium, Google Chrome or Microsoft Edge was found; install one (Debian: apt-get install chromium) or choose it in Settings.' }
}
