/**
 * How a model's answer becomes HTML: GitHub-flavoured Markdown (tables, ~~strikethrough~~, task
 * lists, autolinks, footnotes) through remark-gfm, TeX math ($…$ and $$…$$) through remark-math and
 * KaTeX, code highlighted by highlight.js. Raw HTML stays text (react-markdown's default), and
 * KaTeX runs untrusted (no \href, \url, \includegraphics). No React and no DOM here, so the unit
 * tests run this exact pipeline (test/unit/renderer/markdown.test.ts); Markdown.tsx adds the
 * React components (code blocks with Copy, links that ask before they open).
 */
import type { Options } from 'react-markdown'
import rehypeHighlight from 'rehype-highlight'
import rehypeKatex from 'rehype-katex'
import remarkGfm from 'remark-gfm'
import remarkMath from 'remark-math'

/** The words the pipeline writes into the page itself (from the UI's translator). */
export interface MarkdownLabels {
  /** The accessible name of the scrolling box around each table. */
  table: string
  /** The (visually hidden) heading above footnotes. */
  footnotes: string
  /** The accessible name of a footnote's "back to the text" link; n counts from 1. */
  footnoteBack(n: number): string
}

/** The plugin configuration react-markdown takes, in the UI's language. */
export function markdownOptions(labels: MarkdownLabels): Pick<Options, 'remarkPlugins' | 'rehypePlugins' | 'remarkRehypeOptions'> {
  return {
    remarkPlugins: [remarkGfm, remarkMath, remarkDollarGuard],
    remarkRehypeOptions: {
      footnoteLabel: labels.footnotes,
      footnoteBackLabel: (referenceIndex, rereferenceIndex) =>
        labels.footnoteBack(referenceIndex + 1) + (rereferenceIndex > 1 ? `-${rereferenceIndex}` : '')
    },
    rehypePlugins: [
      // Before highlighting: KaTeX replaces the `language-math` code that highlight.js does not know.
      [rehypeKatex, { strict: 'ignore', trust: false, maxSize: 50, maxExpand: 1000 }],
      // Only fenced blocks that name a language are highlighted: guessing is slow and often wrong.
      [rehypeHighlight, { detect: false }],
      [rehypeTableScroll, { label: labels.table }]
    ]
  }
}

// ---------------------------------------------------------------------------------------------
// Minimal structural types of the syntax trees (mdast, hast) — only what the two plugins touch.

interface TreeNode {
  type: string
  value?: string
  tagName?: string
  properties?: Record<string, unknown>
  children?: TreeNode[]
  position?: { start: { offset?: number }; end: { offset?: number } }
}

/**
 * Prices are not math: "$5 and $10" would otherwise typeset "5 and " as a formula. Pandoc's rule
 * decides what is math: inline math may not start or end with a space, and its closing $ may not be
 * followed by a digit. The opening $ of a span that breaks it is escaped in the source and the
 * answer parsed again (so "$20 each, $n=3$ costs $60" still finds n=3); the parser itself says where
 * code is, so dollars in code are never touched. Most answers have no such span and parse once.
 */
export function remarkDollarGuard(this: { parse(document: string): unknown }) {
  const parse = (document: string) => this.parse(document) as TreeNode
  return (tree: TreeNode, file: { value?: unknown }) => {
    let source = typeof file.value === 'string' ? file.value : String(file.value ?? '')
    let current = tree
    for (let round = 0; round < MAX_REPARSES; round++) {
      const found = notMath(current, source)
      if (found.length === 0) break
      // Dollars before a number are prices; when none is, only the first culprit (its $ may be a closer's partner).
      const prices = found.filter((span) => /\d/.test(source.charAt(span.start + 1)))
      for (const { start } of (prices.length > 0 ? prices : found.slice(0, 1)).sort((a, b) => b.start - a.start)) {
        source = `${source.slice(0, start)}\\${source.slice(start)}`
      }
      current = parse(source)
    }
    // Past the limit (a page of prices): what is still not math is shown as written.
    for (const { parent, index, start, end } of notMath(current, source)) {
      parent.children![index] = { type: 'text', value: source.slice(start, end) }
    }
    if (current !== tree) tree.children = current.children
  }
}

const MAX_REPARSES = 12

interface Span {
  parent: TreeNode
  index: number
  start: number
  end: number
}

/** Every inline math span that Pandoc's rule says is not math, in source order. */
function notMath(tree: TreeNode, source: string): Span[] {
  const found: Span[] = []
  const walk = (node: TreeNode) => {
    node.children?.forEach((child, index) => {
      if (child.type !== 'inlineMath') return walk(child)
      const start = child.position?.start.offset
      const end = child.position?.end.offset
      if (start === undefined || end === undefined) return
      const fence = /^\$+/.exec(source.slice(start, end))?.[0].length ?? 1
      const inner = source.slice(start + fence, end - fence)
      if (/^\s|\s$/.test(inner) || /\d/.test(source.charAt(end))) found.push({ parent: node, index, start, end })
    })
  }
  walk(tree)
  return found
}

/**
 * Each table inside a box that scrolls sideways, so a wide table never widens the conversation. The
 * box is focusable and named, so the keyboard can scroll it too.
 */
export function rehypeTableScroll(options: { label: string }) {
  return (tree: TreeNode) => {
    const walk = (node: TreeNode) => {
      const children = node.children
      if (!children) return
      for (let i = 0; i < children.length; i++) {
        const child = children[i]!
        if (child.type === 'element' && child.tagName === 'table') {
          children[i] = {
            type: 'element',
            tagName: 'div',
            properties: { className: ['table-scroll'], tabIndex: 0, role: 'region', ariaLabel: options.label },
            children: [child]
          }
        } else {
          walk(child)
        }
      }
    }
    walk(tree)
  }
}
