import { type ReactNode, memo, useRef, useState } from 'react'
import ReactMarkdown, { type Components, type Options } from 'react-markdown'
import rehypeHighlight from 'rehype-highlight'
import 'highlight.js/styles/github.css'
import { useT } from '../../i18n'
import { CheckIcon, CopyIcon } from '../common'
import { ExternalLink } from './ExternalLink'

// Only fenced blocks that name a language are highlighted: guessing is slow and often wrong.
const rehypePlugins: Options['rehypePlugins'] = [[rehypeHighlight, { detect: false }]]

function CodeBlock({ children, language }: { children: ReactNode; language: string | null }) {
  const t = useT()
  const ref = useRef<HTMLPreElement>(null)
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(ref.current?.textContent ?? '')
      setCopied(true)
      setTimeout(() => setCopied(false), 1500)
    } catch {
      // Clipboard refused (no focus / permission): nothing useful to tell the user.
    }
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

const components: Components = {
  pre: ({ node, children }) => <CodeBlock language={languageOf(node)}>{children}</CodeBlock>,
  // Links never navigate this window; they leave the app only once the user has seen the full URL and agreed.
  a: ({ href, children }) => <ExternalLink href={href}>{children}</ExternalLink>,
  table: ({ node: _node, ...rest }) => (
    <div className="table-scroll">
      <table {...rest} />
    </div>
  )
}

/** Assistant text as Markdown: raw HTML is not rendered (react-markdown's default), code is highlighted. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown rehypePlugins={rehypePlugins} components={components}>
        {text}
      </ReactMarkdown>
    </div>
  )
})
