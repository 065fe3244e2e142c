/**
 * Session- and contents-wide security (docs/architecture.md, "Security of the front doors"); the
 * rules are pure modules in policy/, this file only wires them to Electron:
 * - permissions: only 'clipboard-sanitized-write', only for the app's own top frame (policy/navigation.ts);
 * - every webContents (main window, palette, anything later): navigation and redirects only to the
 *   app's own pages, no <webview>, no new windows — a link is opened in the browser only after the
 *   user has seen its full URL in a native dialog and chosen Open (policy/link-dialog.ts);
 * - in development, the dev server's responses carry the electron-dev CSP (policy/dev-csp.ts).
 */
import { app, BrowserWindow, dialog, session, shell, type WebContents } from 'electron'
import { externalLinkDecision } from '../../shared/external-links'
import { devServerResponseHeaders } from './policy/dev-csp'
import { LINK_DIALOG_OPEN, linkDialogOptions, type LinkDialogLanguage } from './policy/link-dialog'
import { navigationAllowed, permissionAllowed } from './policy/navigation'
import { devServerUrl, trustedOrigins } from './renderer-source'

export interface SecurityOptions {
  /** The language of the native link dialog (settings.language). */
  language: () => LinkDialogLanguage
}

/** Call once the app is ready, before any window is created. */
export function setupSecurity(options: SecurityOptions): void {
  const ses = session.defaultSession
  ses.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(permissionAllowed(permission, { requestingUrl: details.requestingUrl, isMainFrame: details.isMainFrame }, trustedOrigins))
  )
  ses.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) =>
    permissionAllowed(permission, { requestingUrl: details.requestingUrl ?? requestingOrigin, isMainFrame: details.isMainFrame }, trustedOrigins)
  )
  if (devServerUrl) {
    const dev = devServerUrl
    ses.webRequest.onHeadersReceived((details, callback) => {
      const responseHeaders = devServerResponseHeaders(details.url, details.responseHeaders, dev)
      callback(responseHeaders ? { responseHeaders } : {})
    })
  }
  app.on('web-contents-created', (_event, contents) => guardContents(contents, options))
}

function guardContents(contents: WebContents, options: SecurityOptions): void {
  const refuseNavigation = (event: { preventDefault(): void; url: string }): void => {
    if (navigationAllowed(event.url, trustedOrigins)) return
    event.preventDefault()
    console.warn(`[deskclaw] navigation to ${event.url} blocked`)
  }
  contents.on('will-navigate', refuseNavigation)
  contents.on('will-redirect', refuseNavigation)
  contents.on('will-attach-webview', (event) => event.preventDefault())
  let asking = false
  contents.setWindowOpenHandler(({ url }) => {
    // Never a new window. One question at a time: a page cannot pile dialogs up.
    if (!asking) {
      asking = true
      void askToOpen(contents, url, options.language()).finally(() => (asking = false))
    }
    return { action: 'deny' }
  })
}

/** Shows the full URL and opens it in the browser only on Open; anything but http(s) and mailto is never opened. */
async function askToOpen(contents: WebContents, href: string, language: LinkDialogLanguage): Promise<void> {
  const decision = externalLinkDecision(href)
  if (!decision.allowed) {
    console.warn(`[deskclaw] not opening ${JSON.stringify(href.slice(0, 200))} (${decision.reason})`)
    return
  }
  const options = linkDialogOptions(decision, language)
  const parent = contents.isDestroyed() ? null : BrowserWindow.fromWebContents(contents)
  const { response } = parent ? await dialog.showMessageBox(parent, options) : await dialog.showMessageBox(options)
  if (response === LINK_DIALOG_OPEN) await shell.openExternal(decision.url)
}
