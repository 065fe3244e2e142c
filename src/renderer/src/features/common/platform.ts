/** ⌘ on macOS, Ctrl elsewhere: for shortcut hints and for matching the "mod" key. */
export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent)

export const modKeyLabel = isMac ? '⌘' : 'Ctrl'

export function isModKey(event: { ctrlKey: boolean; metaKey: boolean }): boolean {
  return isMac ? event.metaKey : event.ctrlKey
}
