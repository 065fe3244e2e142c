/**
 * The web host's token: read once from the page's `?token=`, then taken out of the address bar
 * (so it is not in the history shown to others, a screenshot, a bookmark or a copied link) and
 * kept in memory and in sessionStorage, so a reload of the same tab still connects
 * (docs/architecture.md, "Security of the front doors").
 */

const STORAGE_KEY = 'deskclaw.bridgeToken'

/** The parts of `window` this uses (so tests can run it under plain Node). */
export interface TokenPlace {
  location: { pathname: string; search: string; hash: string }
  history: { readonly state: unknown; replaceState(data: unknown, unused: string, url?: string): void }
  /** sessionStorage; null when the browser refuses storage. */
  storage: { getItem(key: string): string | null; setItem(key: string, value: string): void } | null
}

/**
 * The token from the address (which then loses it) or, after a reload, from this tab's
 * sessionStorage; '' when there is none (the host then refuses the connection). Never throws.
 */
export function takeBridgeToken(place: TokenPlace): string {
  const params = new URLSearchParams(place.location.search)
  const fromUrl = params.get('token')
  if (fromUrl === null) {
    try {
      return place.storage?.getItem(STORAGE_KEY) ?? ''
    } catch {
      return ''
    }
  }
  try {
    place.storage?.setItem(STORAGE_KEY, fromUrl)
  } catch {
    // No storage: the token lives in memory only, and a reload needs the printed URL again.
  }
  params.delete('token')
  const search = params.toString()
  try {
    place.history.replaceState(place.history.state, '', `${place.location.pathname}${search ? `?${search}` : ''}${place.location.hash}`)
  } catch {
    // A page that cannot rewrite its own address keeps the token there; it still connects.
  }
  return fromUrl
}

/**
 * This window's token place (through globalThis, so the module also compiles for the Node tests);
 * storage is null when the browser refuses it (reading sessionStorage can throw).
 */
export function windowTokenPlace(): TokenPlace {
  const win = globalThis as unknown as {
    location: TokenPlace['location']
    history: TokenPlace['history']
    sessionStorage?: TokenPlace['storage']
  }
  let storage: TokenPlace['storage'] = null
  try {
    storage = win.sessionStorage ?? null
  } catch {
    storage = null
  }
  return { location: win.location, history: win.history, storage }
}
