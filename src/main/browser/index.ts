/**
 * The browser service (docs/tools.md, "Browser"): finds the installed Chromium, Chrome or Edge,
 * and keeps one persistent context per conversation, with the navigation and download guard.
 */
export { BrowserService, BrowserUnavailableError, type BrowserServiceOptions } from './service'
export { BrowserSession, type BrowserCallGuard, type CallNotes, type NavigationJudge } from './session'
export { browserCandidates, findBrowser, type FindBrowserOptions, type FoundBrowser } from './find-browser'
export { isBlankPage, siteOf } from './sites'
export { describeTarget, locate, natureOf, TargetSchema, type ElementNature, type Target } from './locate'
