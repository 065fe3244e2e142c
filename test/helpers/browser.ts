import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { requireCapability } from './capability'

/** Debian's Chromium, driven by playwright-core (its own browser download is not reachable here). */
export const chromiumPath = process.env.DESKCLAW_CHROMIUM ?? '/usr/bin/chromium'
export const rendererDir = join(process.cwd(), 'out', 'renderer')
/** Screenshots go to test-results/; DESKCLAW_UPDATE_SCREENSHOTS=1 refreshes the ones in docs/. */
export const screenshotDir =
  process.env.DESKCLAW_UPDATE_SCREENSHOTS === '1' ? join(process.cwd(), 'docs', 'screenshots') : join(process.cwd(), 'test-results')

export const hasChromium = (): boolean =>
  requireCapability('Chromium', existsSync(chromiumPath), 'apt-get install chromium, or set DESKCLAW_CHROMIUM')

/** A headless browser with the flags this closed network needs, and one page that logs page errors. */
export async function openBrowser(pageOptions: Parameters<Browser['newPage']>[0] = {}): Promise<{ browser: Browser; page: Page }> {
  if (!existsSync(join(rendererDir, 'index.html'))) throw new Error('The renderer is not built: run `npm run build`.')
  mkdirSync(screenshotDir, { recursive: true })
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run']
  })
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, locale: 'en-US', ...pageOptions })
  page.on('pageerror', (error) => console.error('[page error]', error.message))
  return { browser, page }
}

/** Waits until CSS transitions and animations have finished, so screenshots show the final frame. */
export async function settled(page: Page): Promise<void> {
  // A function, not a string: the app's CSP forbids eval. It runs in the page, where document exists.
  await page.waitForFunction(() => {
    const doc = (globalThis as { document?: { getAnimations(): Array<{ playState: string }> } }).document
    return doc !== undefined && doc.getAnimations().every((animation) => animation.playState !== 'running')
  })
}
