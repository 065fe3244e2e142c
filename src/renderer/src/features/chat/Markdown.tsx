import { type MouseEvent, type ReactNode, memo, useEffect, useMemo, useRef, useState } from 'react'
import ReactMarkdown, { type Components } from 'react-markdown'
import 'highlight.js/styles/github.css'
// KaTeX's stylesheet and fonts are bundled (out/renderer/assets): the CSP allows fonts from 'self' and data: only.
import 'katex/dist/katex.min.css'
import { useT } from '../../i18n'
import { CheckIcon, CopyIcon } from '../common'
import { ExternalLink } from './ExternalLink'
import { copyText } from './markdown/clipboard'
import { markdownOptions } from './markdown/pipeline'

function CodeBlock({ children, language }: { children: ReactNode; language: string | null }) {
  const t = useT()
  const ref = useRef<HTMLPreElement>(null)
  const [copied, setCopied] = useState(false)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])
  const copy = async () => {
    // Refused by both ways (no focus / permission): nothing useful to tell the user.
    if (!(await copyText(ref.current?.textContent ?? ''))) return
    setCopied(true)
    clearTimeout(timer.current)
    timer.current = setTimeout(() => setCopied(false), 1500)
  }
  return (
    <div className="code-block">
      <div className="code-block-bar">
        <span className="code-block-lang">{language ?? ''}</span>
        <button type="button" className="code-copy" onClick={() => void copy()} aria-label={t('chat.copy')}>
          {copied ? <CheckIcon size={13} /> : <CopyIcon size={13} />}
          <span>{copied ? t('chat.copied') : t('chat.copy')}</span>
        </button>
      </div>
      <pre ref={ref}>{children}</pre>
    </div>
  )
}

function languageOf(node: unknown): string | null {
  const code = (node as { children?: Array<{ tagName?: string; properties?: { className?: unknown } }> })?.children?.find(
    (child) => child.tagName === 'code'
  )
  const classes = code?.properties?.className
  if (!Array.isArray(classes)) return null
  const tag = classes.map(String).find((c) => c.startsWith('language-'))
  return tag ? tag.slice('language-'.length) : null
}

/**
 * A link inside the same answer (a footnote and its way back): it scrolls to its target within this
 * message — every message numbers its footnotes from 1, so the page-wide id is not unique.
 */
function InPageLink({ href, children }: { href: string; children: ReactNode }) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault()
    const id = decodeURIComponent(href.slice(1))
    const scope = event.currentTarget.closest('.markdown')
    const target = Array.from(scope?.querySelectorAll('[id]') ?? []).find((element) => element.id === id)
    target?.scrollIntoView({ block: 'nearest', behavior: 'smooth' })
  }
  return (
    <a href={href} onClick={onClick}>
      {children}
    </a>
  )
}

const components: Components = {
  pre: ({ node, children }) => <CodeBlock language={languageOf(node)}>{children}</CodeBlock>,
  // Links never navigate this window; they leave the app only once the user has seen the full URL and agreed.
  a: ({ href, children }) =>
    href?.startsWith('#') ? <InPageLink href={href}>{children}</InPageLink> : <ExternalLink href={href}>{children}</ExternalLink>
}

/**
 * Assistant text as GitHub-flavoured Markdown with math (markdown/pipeline.ts): raw HTML is not
 * rendered (react-markdown's default), code is highlighted, tables scroll sideways in their own box.
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const t = useT()
  const options = useMemo(
    () =>
      markdownOptions({
        table: t('markdown.table'),
        footnotes: t('markdown.footnotes'),
        footnoteBack: (n) => t('markdown.footnoteBack', { n })
      }),
    [t]
  )
  return (
    <div className="markdown">
      <ReactMarkdown {...options} components={components}>
        {text}
      </ReactMarkdown>
    </div>
  )
})
