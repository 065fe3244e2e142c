/**
 * The answers' Markdown pipeline (src/renderer/src/features/chat/markdown/pipeline.ts) through
 * react-markdown exactly as the chat renders it, to static HTML: GitHub-flavoured Markdown, KaTeX
 * math, the table's scrolling box, and prices that stay prices.
 */
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import ReactMarkdown from 'react-markdown'
import { describe, expect, it } from 'vitest'
import { markdownOptions, type MarkdownLabels } from '../../../src/renderer/src/features/chat/markdown/pipeline'

const LABELS: MarkdownLabels = { table: 'Table', footnotes: 'Footnotes', footnoteBack: (n) => `Back to reference ${n}` }

const render = (text: string, labels: MarkdownLabels = LABELS): string =>
  renderToStaticMarkup(createElement(ReactMarkdown, markdownOptions(labels), text))

/** The text of the HTML with the tags taken out (entities left as they are). */
const textOf = (html: string): string => html.replace(/<[^>]*>/g, '')

describe('answers in GitHub-flavoured Markdown', () => {
  it('renders a table as a real <table> inside a focusable, named box that scrolls', () => {
    const html = render('| Name | Size |\n| :--- | ---: |\n| a.txt | 12 |\n| b.txt | 3 |\n')
    expect(html).toMatch(/^<div class="table-scroll" tabindex="0" role="region" aria-label="Table"><table>/)
    expect(html).toContain('<thead><tr><th style="text-align:left">Name</th><th style="text-align:right">Size</th></tr></thead>')
    expect(html).toContain('<tbody><tr><td style="text-align:left">a.txt</td><td style="text-align:right">12</td></tr>')
    expect(html.match(/<tr>/g)).toHaveLength(3)
    expect(html).toMatch(/<\/table><\/div>$/)
  })

  it('names the table box in the UI language', () => {
    const html = render('| a |\n| - |\n| 1 |\n', { ...LABELS, table: '表格' })
    expect(html).toContain('aria-label="表格"')
  })

  it('wraps every table, also one inside a list', () => {
    const html = render('- first\n\n  | a |\n  | - |\n  | 1 |\n\n| b |\n| - |\n| 2 |\n')
    expect(html.match(/<div class="table-scroll"[^>]*><table>/g)).toHaveLength(2)
  })

  it('renders ~~strikethrough~~ as <del>', () => {
    expect(render('This is ~~wrong~~ right.')).toBe('<p>This is <del>wrong</del> right.</p>')
  })

  it('renders a task list with checked and unchecked, read-only checkboxes', () => {
    const html = render('- [x] build it\n- [ ] ship it\n')
    expect(html).toContain('<ul class="contains-task-list">')
    expect(html).toContain('<li class="task-list-item"><input type="checkbox" disabled="" checked=""/> build it</li>')
    expect(html).toContain('<li class="task-list-item"><input type="checkbox" disabled=""/> ship it</li>')
  })

  it('turns a bare URL, a www. address and an e-mail address into links', () => {
    const html = render('See https://example.com/docs?a=1, www.example.org and help@example.com.')
    expect(html).toContain('<a href="https://example.com/docs?a=1">https://example.com/docs?a=1</a>')
    expect(html).toContain('<a href="http://www.example.org">www.example.org</a>')
    expect(html).toContain('<a href="mailto:help@example.com">help@example.com</a>')
  })

  it('renders footnotes with the labels it is given', () => {
    const html = render('A claim.[^1]\n\n[^1]: The source.\n', { ...LABELS, footnotes: '脚注', footnoteBack: (n) => `返回引用处 ${n}` })
    expect(html).toMatch(/<sup><a href="#user-content-fn-1" id="user-content-fnref-1" data-footnote-ref="true"[^>]*>1<\/a><\/sup>/)
    expect(html).toContain('<section data-footnotes="true" class="footnotes"><h2 class="sr-only" id="footnote-label">脚注</h2>')
    expect(html).toContain('aria-label="返回引用处 1"')
  })

  it('keeps raw HTML as text', () => {
    const html = render('<img src=x onerror=alert(1)> and <script>alert(2)</script>')
    expect(html).not.toContain('<img')
    expect(html).not.toContain('<script')
  })

  it('still highlights a fenced block that names its language', () => {
    const html = render('```js\nconst a = 1\n```\n')
    expect(html).toContain('<pre><code class="hljs language-js"><span class="hljs-keyword">const</span>')
  })
})

describe('math through KaTeX', () => {
  it('renders inline $…$ as KaTeX inside the paragraph, with MathML for screen readers', () => {
    const html = render('Energy: $E=mc^2$, famously.')
    expect(html).toMatch(/^<p>Energy: <span class="katex">/)
    expect(html).toContain('<math xmlns="http://www.w3.org/1998/Math/MathML">')
    expect(html).toContain('<annotation encoding="application/x-tex">E=mc^2</annotation>')
    expect(html).toContain('<span class="katex-html" aria-hidden="true">')
    expect(html).not.toContain('katex-display')
    expect(html).not.toContain('$')
  })

  it('renders a $$…$$ block as display math, not as a code block', () => {
    const html = render('Area:\n\n$$\n\\int_0^1 x^2\\,dx = \\frac{1}{3}\n$$\n')
    expect(html).toContain('<span class="katex-display"><span class="katex">')
    expect(html).toContain('<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">')
    expect(html).toContain('<mo>∫</mo>')
    expect(html).toContain('<mfrac>')
    expect(html).not.toContain('<pre')
    expect(html).not.toContain('<code')
  })

  it('renders a ```math fence as display math too', () => {
    expect(render('```math\na^2 + b^2 = c^2\n```\n')).toContain('<span class="katex-display">')
  })

  it('shows bad TeX as a marked error instead of throwing', () => {
    const html = render('Broken: $\\frac{1}{$ here')
    expect(html).toContain('katex-error')
    expect(textOf(html)).toContain('\\frac{1}{')
  })

  it('does not follow \\href (KaTeX runs untrusted)', () => {
    const html = render('$\\href{javascript:alert(1)}{x}$')
    expect(html).not.toMatch(/href=/)
    expect(html).not.toMatch(/<a[\s>]/)
  })

  it('leaves prices alone: "$5 and $10" is text, not a formula', () => {
    expect(render('It costs $5 and $10 with tax.')).toBe('<p>It costs $5 and $10 with tax.</p>')
    expect(render('Between $5, or $ 7.')).toBe('<p>Between $5, or $ 7.</p>')
    expect(render('Spaced: $ x $ is not math, $x$ is.').match(/class="katex"/g)).toHaveLength(1)
  })

  it('keeps every price in a long list of them as text', () => {
    const text = Array.from({ length: 40 }, (_, i) => `$${i + 1} and`).join(' ')
    const html = render(text)
    expect(html).not.toContain('katex')
    expect(html).toBe(`<p>${text}</p>`)
  })

  it('still renders math next to prices and digits inside the formula', () => {
    const html = render('At $20 each, $n=3$ cost $60.')
    expect(html).toContain('<annotation encoding="application/x-tex">n=3</annotation>')
    expect(textOf(html)).toContain('At $20 each,')
    expect(textOf(html)).toContain('cost $60.')
    expect(render('$x_1 = 2$')).toContain('<annotation encoding="application/x-tex">x_1 = 2</annotation>')
  })

  it('leaves dollars in code alone', () => {
    expect(render('Run `echo $HOME $PATH`.')).toBe('<p>Run <code>echo $HOME $PATH</code>.</p>')
  })
})
