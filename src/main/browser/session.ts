import type { BrowserContext, Download, Page, Route } from 'playwright-core'
import { setTimeout as delay } from 'node:timers/promises'
import { isBlankPage, siteOf } from './sites'

/**
 * What the tool being run can ask mid-run (docs/risk.md, "Browser"): a page that goes to a new
 * site or starts a download on its own (a link, a script, a form) is held until the person answers.
 */
export interface BrowserCallGuard {
  /** A navigation to a site this conversation has not visited. */
  confirmSite(url: string): Promise<boolean>
  /** A form sent with POST, unless the call already asked for it. */
  confirmSubmission(url: string, fields: string[]): Promise<boolean>
  /** A download: saved into the workspace only when allowed. */
  confirmDownload(name: string, url: string): Promise<boolean>
  /** Saves an allowed download into the workspace; returns where, or why not. */
  saveDownload(name: string, data: Uint8Array): Promise<{ saved: string } | { failed: string }>
  /** The call already asked about sending a form (its own question); the page may submit. */
  submissionApproved?: boolean
}

/**
 * The app's judgement of an address a page goes to (the URL guardian's scheme, domain rules and
 * private addresses, docs/risk.md "Network"): deny refuses it without a question.
 */
export type NavigationJudge = (url: string) => Promise<{ verdict: 'allow' | 'ask' | 'deny'; reason: string }>

/** What happened during one call besides its own action: blocked pages, saved or refused downloads. */
export interface CallNotes {
  blocked: string[]
  downloads: string[]
}

/**
 * One conversation's browser: a persistent context (its own profile folder), its tabs, the
 * sites the person let it visit, and the secrets typed in it (kept only here, to scrub them
 * from what the tools return).
 */
export class BrowserSession {
  private readonly sites = new Set<string>()
  private readonly secrets = new Set<string>()
  private current = 0
  private guard: BrowserCallGuard | null = null
  private notes: CallNotes = { blocked: [], downloads: [] }
  private readonly pendingDownloads: Promise<void>[] = []
  /** Actions run one at a time: calls of one model step may run in parallel, and the guard is one per action. */
  private queue: Promise<unknown> = Promise.resolve()
  /** Top-level navigations being fetched by the guard, and how many began during the current action. */
  private inFlight = 0
  private routedThisAction = 0

  constructor(
    readonly context: BrowserContext,
    private readonly judge?: NavigationJudge
  ) {
    // Every top-level navigation passes here: a new site is held for a question (or refused between calls).
    void context.route('**/*', (route) => this.routed(route))
    context.on('page', (page) => this.watch(page))
    for (const page of context.pages()) this.watch(page)
  }

  get pages(): Page[] {
    return this.context.pages()
  }

  /** The tab the tools act on; a new one when all were closed. */
  async page(): Promise<Page> {
    const pages = this.pages
    if (pages.length === 0) {
      this.current = 0
      return this.context.newPage()
    }
    if (this.current >= pages.length) this.current = pages.length - 1
    return pages[this.current]!
  }

  select(index: number): Page | null {
    const page = this.pages[index]
    if (!page) return null
    this.current = index
    return page
  }

  get currentIndex(): number {
    return Math.min(this.current, Math.max(0, this.pages.length - 1))
  }

  knows(url: string): boolean {
    const site = siteOf(url)
    return site !== null && this.sites.has(site)
  }

  allowSite(url: string): void {
    const site = siteOf(url)
    if (site) this.sites.add(site)
  }

  /** A secret typed into a page: never returned by a tool (replaced by ••••). */
  rememberSecret(value: string): void {
    if (value.length > 0) this.secrets.add(value)
  }

  /** Text with every secret typed in this conversation replaced, in the forms a page may show it. */
  scrub(text: string): string {
    let out = text
    for (const secret of this.secrets) {
      for (const form of new Set([secret, encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2)])) {
        out = out.split(form).join('••••')
      }
    }
    return out
  }

  /** Runs one tool call's action with its guard; what the page did on its own comes back as notes. */
  during<T>(guard: BrowserCallGuard, action: () => Promise<T>): Promise<{ value: T | undefined; notes: CallNotes }> {
    const run = this.queue.then(() => this.guarded(guard, action))
    this.queue = run.catch(() => {})
    return run
  }

  private async guarded<T>(guard: BrowserCallGuard, action: () => Promise<T>): Promise<{ value: T | undefined; notes: CallNotes }> {
    this.guard = guard
    this.notes = { blocked: [], downloads: [] }
    this.routedThisAction = 0
    try {
      let value: T | undefined
      try {
        value = await action()
      } catch (error) {
        // A navigation the guard refused fails the action; the notes say what was refused.
        if (this.notes.blocked.length === 0 || !String(error).includes('ERR_BLOCKED_BY_CLIENT')) throw error
      }
      // A download or a late navigation the action started arrives after it returns: wait for the page to go quiet.
      const page = this.pages[this.currentIndex]
      await page?.waitForLoadState('networkidle', { timeout: 2000 }).catch(() => {})
      // A page the guard is still fetching (a slow answer, a download) is waited for, and the download it becomes.
      // Bounded by the approval timeout (a question) and Playwright's fetch timeout (30 s).
      for (const deadline = Date.now() + 10 * 60_000; this.inFlight > 0 && Date.now() < deadline; ) await delay(50)
      if (this.routedThisAction > 0) await delay(250)
      await Promise.all(this.pendingDownloads.splice(0))
      // A refused page leaves the tab on the browser's error page: back to where it was.
      if (page && this.notes.blocked.length > 0 && page.url().startsWith('chrome-error:')) {
        await page.goBack({ waitUntil: 'domcontentloaded' }).catch(() => null)
      }
      return { value, notes: this.notes }
    } finally {
      this.guard = null
    }
  }

  private watch(page: Page): void {
    page.on('download', (download) => {
      this.pendingDownloads.push(this.download(download))
    })
  }

  private async download(download: Download): Promise<void> {
    const guard = this.guard
    const name = download.suggestedFilename()
    if (!guard || !(await guard.confirmDownload(name, download.url()))) {
      this.notes.downloads.push(`refused: ${name}`)
      await download.cancel().catch(() => {})
      return
    }
    try {
      const stream = await download.createReadStream()
      const chunks: Buffer[] = []
      for await (const chunk of stream) chunks.push(chunk as Buffer)
      const result = await guard.saveDownload(name, Buffer.concat(chunks))
      this.notes.downloads.push('saved' in result ? `saved: ${result.saved}` : `not saved: ${result.failed}`)
    } catch (error) {
      this.notes.downloads.push(`not saved: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  private async routed(route: Route): Promise<void> {
    const request = route.request()
    const frame = request.frame()
    const topLevel = request.isNavigationRequest() && frame.parentFrame() === null
    if (!topLevel) return route.fallback()
    const url = request.url()
    if (siteOf(url) === null) {
      if (isBlankPage(url)) return route.fallback()
      this.notes.blocked.push(url)
      return route.abort('blockedbyclient')
    }
    // Counted from the start: the action waits for its questions, the fetch and the download it becomes.
    this.inFlight++
    this.routedThisAction++
    try {
      await this.judged(route, url)
    } finally {
      this.inFlight--
    }
  }

  private async judged(route: Route, url: string): Promise<void> {
    const request = route.request()
    const guard = this.guard
    if (request.method() === 'POST' && !guard?.submissionApproved) {
      const fields = [...new URLSearchParams(request.postData() ?? '').keys()]
      if (!guard || !(await guard.confirmSubmission(url, fields))) {
        this.notes.blocked.push(url)
        return route.abort('blockedbyclient')
      }
    }
    if (!(await this.siteAllowed(url, guard))) return route.abort('blockedbyclient')
    // Fetched here, redirects not followed: a redirect to a new site is asked about like a link
    // (the browser does not route the hops of a redirect it follows itself).
    let response: Awaited<ReturnType<Route['fetch']>>
    try {
      response = await route.fetch({ maxRedirects: 0 })
    } catch {
      // Unreachable, refused, timed out: the page fails to load as it would without the guard.
      return route.abort('failed')
    }
    const location = response.status() >= 300 && response.status() < 400 ? response.headers()['location'] : undefined
    if (location !== undefined) {
      const next = new URL(location, url).href
      if (siteOf(next) === null || !(await this.siteAllowed(next, guard))) {
        if (siteOf(next) === null) this.notes.blocked.push(next)
        return route.abort('blockedbyclient')
      }
    }
    return route.fulfill({ response })
  }

  /** A site already visited, or one the person allows now; a refusal is noted for the call's result. */
  private async siteAllowed(url: string, guard: BrowserCallGuard | null): Promise<boolean> {
    const judged = await this.judge?.(url).catch(() => ({ verdict: 'ask' as const, reason: '' }))
    if (judged?.verdict === 'deny') {
      this.notes.blocked.push(`${url} (${judged.reason})`)
      return false
    }
    const site = siteOf(url)
    if (site !== null && this.sites.has(site)) return true
    if (site === null || !guard || !(await guard.confirmSite(url))) {
      this.notes.blocked.push(url)
      return false
    }
    this.sites.add(site)
    return true
  }
}
