import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { errorMessage } from '../../shared'
import { findBrowser, type FoundBrowser } from './find-browser'
import { BrowserSession, type NavigationJudge } from './session'

export interface BrowserServiceOptions {
  /** The data folder: each conversation's profile is a folder under `browser-profiles/` there. */
  dataDir: string
  /** `Settings.browserPath`: empty means find Chromium, Chrome or Edge. */
  browserPath: () => string
  /** Headless unless a person is meant to watch (the desktop app may show it); tests run headless. */
  headless?: boolean
  /** Whether this process runs as root (Chromium's sandbox then cannot start). */
  isRoot?: boolean
  /** Judges every address a page goes to; a denied one is refused (the composition root passes the URL guardian). */
  judgeNavigation?: NavigationJudge
}

/** Why the browser could not start, for the model and the timeline. */
export class BrowserUnavailableError extends Error {}

/**
 * The browser service (docs/tools.md, "Browser"): the user's installed Chromium, Chrome or Edge
 * through playwright-core, one persistent context per conversation with its own profile folder in
 * the data folder, closed with the conversation and with the app.
 */
export class BrowserService {
  private readonly sessions = new Map<string, Promise<BrowserSession>>()
  private closed = false

  constructor(private readonly options: BrowserServiceOptions) {}

  /** Which browser would be used, or why none can be (the `doctor` line). */
  find(): FoundBrowser {
    return findBrowser(this.options.browserPath())
  }

  /** The conversation's open browser, if it has one, without starting it. */
  async existing(conversationId: string): Promise<BrowserSession | null> {
    const session = this.sessions.get(conversationId)
    return session ? session.catch(() => null) : null
  }

  /** The conversation's browser, started on first use. */
  session(conversationId: string): Promise<BrowserSession> {
    if (this.closed) return Promise.reject(new BrowserUnavailableError('The app is closing.'))
    let session = this.sessions.get(conversationId)
    if (!session) {
      session = this.launch(conversationId)
      this.sessions.set(conversationId, session)
      // A failed start is forgotten, so the next call tries again (a browser installed meanwhile).
      session.catch(() => this.sessions.delete(conversationId))
    }
    return session
  }

  private async launch(conversationId: string): Promise<BrowserSession> {
    const found = this.find()
    if (!found.ok) throw new BrowserUnavailableError(found.reason)
    const profile = this.profileFolder(conversationId)
    mkdirSync(profile, { recursive: true, mode: 0o700 })
    const isRoot = this.options.isRoot ?? process.getuid?.() === 0
    try {
      // Playwright loads with the first browser, not with the app (docs/benchmarks.md, "CLI start-up").
      const { chromium } = await import('playwright-core')
      const context = await chromium.launchPersistentContext(profile, {
        executablePath: found.path,
        headless: this.options.headless ?? true,
        acceptDownloads: true,
        viewport: { width: 1280, height: 800 },
        // Chromium's sandbox cannot start as root; the flags keep it from calling home (test/helpers/browser.ts).
        args: [...(isRoot ? ['--no-sandbox'] : []), '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run']
      })
      context.setDefaultTimeout(15_000)
      return new BrowserSession(context, this.options.judgeNavigation)
    } catch (error) {
      throw new BrowserUnavailableError(`${found.path} did not start: ${errorMessage(error).split('\n')[0]}`)
    }
  }

  /** Each conversation's own profile (cookies, storage), so two conversations never share a login. */
  profileFolder(conversationId: string): string {
    return join(this.options.dataDir, 'browser-profiles', conversationId.replace(/[^\w-]/g, '_'))
  }

  /** Closes the conversation's browser (the `browser_close` tool, a deleted conversation). */
  async close(conversationId: string, options: { forget?: boolean } = {}): Promise<boolean> {
    const session = this.sessions.get(conversationId)
    this.sessions.delete(conversationId)
    const open = session ? await session.catch(() => null) : null
    await open?.context.close().catch(() => {})
    // A deleted conversation leaves no cookies or storage behind.
    if (options.forget) rmSync(this.profileFolder(conversationId), { recursive: true, force: true })
    return open !== null
  }

  async shutdown(): Promise<void> {
    this.closed = true
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id)))
  }
}
