import type { parseHTML } from 'linkedom'

/**
 * A page as readable Markdown (docs/tools.md, web_fetch): Firefox Reader View's Readability
 * picks the article out of the page (over linkedom's DOM), Turndown writes it as Markdown. A page
 * Readability finds no article in is converted whole, without scripts, styles and navigation.
 * The three libraries load with the first page, not with the app (docs/benchmarks.md, "CLI start-up").
 */
export async function htmlToMarkdown(html: string, url: string): Promise<{ title: string; markdown: string }> {
  const [{ Readability }, { parseHTML }, { default: TurndownService }] = await Promise.all([import('@mozilla/readability'), import('linkedom'), import('turndown')])
  // linkedom reads a fragment without <html>/<body> into a broken tree: give it the frame a browser would.
  const { document } = parseHTML(/<body[\s>]/i.test(html) ? html : `<!doctype html><html><head></head><body>${html}</body></html>`)
  const title = (document.querySelector('title')?.textContent ?? '').trim()
  absolutiseLinks(document, url)
  let content: string | null = null
  let articleTitle = ''
  try {
    const article = new Readability(document.cloneNode(true) as unknown as Document).parse()
    if (article?.content && (article.textContent ?? '').trim().length > 0) {
      content = article.content
      articleTitle = (article.title ?? '').trim()
    }
  } catch {
    // Readability gives up on odd pages; the whole page is converted instead.
  }
  if (content === null) {
    for (const element of Array.from(document.querySelectorAll('script, style, noscript, nav, template, iframe, svg'))) element.remove()
    content = document.body?.innerHTML ?? html
  }
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' })
  turndown.remove(['script', 'style', 'noscript'])
  const markdown = turndown.turndown(content).replace(/\n{3,}/g, '\n\n').trim()
  return { title: articleTitle || title, markdown }
}

/** Links and images pointing where the page meant, not relative to nothing. */
function absolutiseLinks(document: ReturnType<typeof parseHTML>['document'], url: string): void {
  const base = document.querySelector('base[href]')?.getAttribute('href')
  let root = url
  try {
    if (base) root = new URL(base, url).href
  } catch {
    // A broken <base> is ignored.
  }
  for (const [selector, attribute] of [
    ['a[href]', 'href'],
    ['img[src]', 'src']
  ] as const) {
    for (const element of Array.from(document.querySelectorAll(selector))) {
      const value = element.getAttribute(attribute)
      if (!value || /^(#|javascript:|data:)/i.test(value)) continue
      try {
        element.setAttribute(attribute, new URL(value, root).href)
      } catch {
        // Left as written.
      }
    }
  }
}
