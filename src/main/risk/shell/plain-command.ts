/** Text both parsers read alike, so the cross-check need not compare it (docs/risk.md, "A second, independent parser"). */

/**
 * Whether `text` is plain: words of letters, digits and `_./,:=+@%~^*?-`, single-quoted strings
 * and double-quoted ones without `$`, `` ` `` or `\\`, separated by spaces and `;`, `&`, `|`, `&&`,
 * `||`, `|&`, every command named by an ordinary word that is not a reserved word. Both parsers
 * read such text alike (the fuzz test checks it); anything else — `=` or a lone `-` in a program's
 * name, which tree-sitter takes for an assignment, included — is compared.
 */
export function isPlainCommand(text: string): boolean {
  const n = text.length
  /** A command's name comes next. */
  let atStart = true
  /** The text may not end here: nothing yet, or after `|`, `&&`, `||`. */
  let open = true
  let i = 0
  while (i < n) {
    const code = text.charCodeAt(i)
    if (code === 0x20) {
      i++
      continue
    }
    if (code === 0x3b || code === 0x26 || code === 0x7c) {
      // `;` `&` `|`: an operator must follow a command; `;;` and `;&` belong to case statements.
      const next = text.charCodeAt(i + 1)
      if (atStart || (code === 0x3b && (next === 0x3b || next === 0x26))) return false
      const pair = (code === 0x26 && next === 0x26) || (code === 0x7c && (next === 0x7c || next === 0x26))
      open = code === 0x7c || pair
      i += pair ? 2 : 1
      atStart = true
      continue
    }
    const start = i
    let quoted = false
    while (i < n) {
      const c = text.charCodeAt(i)
      if (c < 128 && PLAIN_CHARS[c] === 1) i++
      else if (c === 0x27) {
        const close = text.indexOf("'", i + 1)
        if (close < 0) return false
        i = close + 1
        quoted = true
      } else if (c === 0x22) {
        let j = i + 1
        for (; j < n; j++) {
          const d = text.charCodeAt(j)
          if (d === 0x22) break
          if (d === 0x24 || d === 0x60 || d === 0x5c) return false
        }
        if (j >= n) return false
        i = j + 1
        quoted = true
      } else if (c === 0x20 || c === 0x3b || c === 0x26 || c === 0x7c) break
      else return false
    }
    if (atStart) {
      const name = text.slice(start, i)
      if (quoted || !PLAIN_NAME.test(name) || RESERVED.has(name)) return false
      atStart = false
    }
    open = false
  }
  return !open
}

/** What a plain word is made of, besides quotes: letters, digits and `_./,:=+@%~^*?-`. */
const PLAIN_CHARS = new Uint8Array(128)
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./,:=+@%~^*?-') PLAIN_CHARS[c.charCodeAt(0)] = 1
const PLAIN_NAME = /^[A-Za-z0-9_./][A-Za-z0-9_./,:+@%^-]*$/
const RESERVED = new Set(['!', '{', '}', 'if', 'then', 'elif', 'else', 'fi', 'do', 'done', 'while', 'until', 'case', 'esac', 'for', 'select', 'function', 'in', '[[', ']]'])
