import type { SyntaxNode } from './parser'

/**
 * A shell word as bash will see it after quote removal: `value` is the literal text, or null
 * when it depends on something only known at run time (variables, substitutions, globs in names).
 * The flags record *how* it was written, because obfuscation lives in how, not what.
 */
export interface Word {
  node: SyntaxNode
  value: string | null
  start: number
  end: number
  /** Quotes of any kind were used. */
  quoted: boolean
  /** Pieces glued together (`r''m`, `"r"m`): harmless in data, a disguise in a command name. */
  spliced: boolean
  /** An unquoted backslash escape (`\rm`, `-e\xec`). */
  escaped: boolean
  /** `$'…'` with escapes (`$'\x72\x6d'`). */
  ansiC: boolean
  /** Unquoted `*`, `?` or `[`: the shell expands it to file names. */
  glob: boolean
  /** Came from `~` or `$HOME`. */
  home: boolean
  /** Parameter expansions other than $HOME, by their source text. */
  expansions: SyntaxNode[]
  /** `$(…)`, backticks, `<(…)`, `>(…)`: commands inside a word. */
  substitutions: SyntaxNode[]
  /** `${x@P}`, `${!x}`: expansions that run or redirect code (Roo, qwen-code #8582). */
  dangerousExpansion: boolean
  nonAscii: boolean
  /** The text as written, outer quotes stripped (filled on first use by the analyzer). */
  raw?: string
}

export interface WordContext {
  home: string
  /** The folder the command starts in ($PWD). */
  cwd?: string
}

const HOME_VARIABLES = new Set(['HOME'])

export function readWord(node: SyntaxNode, ctx: WordContext): Word {
  const word: Word = {
    node,
    value: '',
    start: node.startIndex,
    end: node.endIndex,
    quoted: false,
    spliced: false,
    escaped: false,
    ansiC: false,
    glob: false,
    home: false,
    expansions: [],
    substitutions: [],
    dangerousExpansion: false,
    nonAscii: /[^\x20-\x7e]/.test(node.text)
  }
  word.value = readPart(node, word, ctx, true)
  return word
}

/** Appends one node's contribution; returns null once anything in it is dynamic. */
function readPart(node: SyntaxNode, word: Word, ctx: WordContext, first: boolean): string | null {
  // `type` is a call into the parser's WASM: read it once.
  const type = node.type
  switch (type) {
    case 'word':
    case 'command_name': {
      if (type === 'command_name' || node.childCount > 0) return readChildren(node, word, ctx)
      return readUnquoted(node.text, word, ctx, first)
    }
    case 'number':
    case 'variable_name':
      return node.text
    case 'raw_string':
      word.quoted = true
      return node.text.slice(1, -1)
    case 'ansi_c_string':
      word.quoted = true
      // Any $'…' asks: it exists to spell what plain quotes cannot.
      word.ansiC = true
      return decodeAnsiC(node.text.slice(2, -1))
    case 'string':
    case 'translated_string':
      word.quoted = true
      return readDoubleQuoted(node, word, ctx)
    case 'concatenation':
      word.spliced = true
      // tree-sitter splits `/{usr,etc}` into plain words; bash expands it into several words.
      if (node.namedChildren.every((c) => c?.type === 'word') && /\{[^{}\s]*(,|\.\.)[^{}\s]*\}/.test(node.text)) return null
      return readChildren(node, word, ctx)
    case 'arithmetic_expansion': {
      // Literal arithmetic (`$((2*3))`) has one value; anything with names or substitutions does not.
      const value = literalArithmetic(node.text)
      if (value !== null) return value
      collectNested(node, word)
      return null
    }
    case 'simple_expansion':
    case 'expansion':
      return readExpansion(node, word, ctx)
    case 'command_substitution':
    case 'process_substitution':
      word.substitutions.push(node)
      return null
    default:
      // arithmetic_expansion, brace_expression, and anything this reader does not know: dynamic.
      collectNested(node, word)
      return null
  }
}

function readChildren(node: SyntaxNode, word: Word, ctx: WordContext): string | null {
  let value: string | null = ''
  let index = 0
  for (const child of node.namedChildren) {
    if (!child) continue
    const part = readPart(child, word, ctx, index === 0)
    value = value === null || part === null ? null : value + part
    index++
  }
  return value
}

function readUnquoted(text: string, word: Word, ctx: WordContext, first: boolean): string | null {
  let value = ''
  let i = 0
  if (first && (text === '~' || text.startsWith('~/'))) {
    word.home = true
    value = ctx.home
    i = 1
  }
  for (; i < text.length; i++) {
    const c = text[i]!
    if (c === '\\' && i + 1 < text.length) {
      word.escaped = true
      value += text[++i]
      continue
    }
    if (c === '*' || c === '?' || c === '[') word.glob = true
    if (c === '{' && /\{[^{}]*(,|\.\.)[^{}]*\}/.test(text.slice(i))) return null // brace expansion
    value += c
  }
  return value
}

function readDoubleQuoted(node: SyntaxNode, word: Word, ctx: WordContext): string | null {
  let value: string | null = ''
  for (const child of node.namedChildren) {
    if (!child) continue
    let part: string | null
    if (child.type === 'string_content') part = child.text.replace(/\\([$`"\\])/g, '$1')
    else part = readPart(child, word, ctx, false)
    value = value === null || part === null ? null : value + part
  }
  return value
}

function readExpansion(node: SyntaxNode, word: Word, ctx: WordContext): string | null {
  const text = node.text
  if (/^\$\{!|@[PEAQKaku]\}$/.test(text)) word.dangerousExpansion = true
  collectNested(node, word)
  word.expansions.push(node)
  // $HOME is known: `rm -rf "$HOME"` must be judged as what it is. Other variables are not.
  // `${HOME:?}` and `${HOME?msg}` are $HOME or an error: the same target.
  const name = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)(?::?\?[^}]*)?\}?$/.exec(text)?.[1]
  if (name && HOME_VARIABLES.has(name)) {
    word.home = true
    return ctx.home
  }
  // $PWD is the folder the command starts in: `rm -rf $PWD/..` is judged as the parent of the workspace.
  if (name === 'PWD' && ctx.cwd) return ctx.cwd
  return null
}

/** Substitutions can hide inside expansions (`${x:-$(rm -rf ~)}`) and arithmetic. */
function collectNested(node: SyntaxNode, word: Word): void {
  for (const child of node.namedChildren) {
    if (!child) continue
    if (child.type === 'command_substitution' || child.type === 'process_substitution') word.substitutions.push(child)
    else collectNested(child, word)
  }
}

const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?'
}

/** bash's `$'…'` escapes: \xHH, \NNN, \uHHHH, \UHHHHHHHH, \cX and the letters. */
export function decodeAnsiC(body: string): string {
  let out = ''
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!
    if (c !== '\\' || i + 1 >= body.length) {
      out += c
      continue
    }
    const next = body[++i]!
    if (next in SIMPLE_ESCAPES) out += SIMPLE_ESCAPES[next]
    else if (next === 'x') {
      const hex = /^[0-9a-fA-F]{1,2}/.exec(body.slice(i + 1))?.[0] ?? ''
      out += hex ? String.fromCharCode(parseInt(hex, 16)) : '\\x'
      i += hex.length
    } else if (next === 'u' || next === 'U') {
      const hex = (next === 'u' ? /^[0-9a-fA-F]{1,4}/ : /^[0-9a-fA-F]{1,8}/).exec(body.slice(i + 1))?.[0] ?? ''
      out += hex ? String.fromCodePoint(Math.min(parseInt(hex, 16), 0x10ffff)) : `\\${next}`
      i += hex.length
    } else if (/[0-7]/.test(next)) {
      const oct = /^[0-7]{1,3}/.exec(body.slice(i))![0]
      out += String.fromCharCode(parseInt(oct, 8) & 0xff)
      i += oct.length - 1
    } else if (next === 'c' && i + 1 < body.length) {
      out += String.fromCharCode(body.charCodeAt(++i) & 0x1f)
    } else out += `\\${next}`
  }
  return out
}

/** The value of `$((…))` when it holds only numbers and operators; null otherwise. */
function literalArithmetic(text: string): string | null {
  const raw = /^\$\(\(([\s\S]*)\)\)$/.exec(text)?.[1]
  // bash's BASE#DIGITS (`16#ff`) becomes a plain number first.
  const body = raw?.replace(/\b(\d{1,2})#([0-9a-zA-Z]+)\b/g, (whole, base: string, digits: string) => {
    const value = parseInt(digits, Number(base))
    return Number(base) >= 2 && Number(base) <= 36 && Number.isFinite(value) ? String(value) : whole
  })
  if (body === undefined || !/^[\d\s+\-*/%()<>&|^~!]+$/.test(body) || body.length > 200) return null
  try {
    const value: unknown = new Function(`"use strict"; return (${body.replace(/\*\*/g, '**')})`)()
    return typeof value === 'number' && Number.isFinite(value) ? String(Math.trunc(value)) : null
  } catch {
    return null
  }
}
