/** Syntax colours for the diff view: highlight.js (the same highlighter the Markdown renderer uses), chosen by the file's extension. */
import hljs from 'highlight.js/lib/common'

/** The highlight.js language for a path, or undefined (plain text: no guessing, it is slow and often wrong). */
export function languageOf(path: string): string | undefined {
  const name = path.split('/').pop() ?? path
  const dot = name.lastIndexOf('.')
  const ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : name.toLowerCase()
  return hljs.getLanguage(ext) ? ext : undefined
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** One line as HTML: highlight.js escapes the text it colours; plain lines are escaped here. */
export function highlightLine(text: string, language: string | undefined): string {
  if (language) {
    try {
      return hljs.highlight(text, { language, ignoreIllegals: true }).value
    } catch {
      // Fall through to plain text.
    }
  }
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!)
}
