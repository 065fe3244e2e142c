/**
 * The pre-pass before parsing (docs/risk.md): bash joins `\`-newline before it tokenises, outside
 * single quotes and comments, but tree-sitter-bash does not — it reads `"$\<NL>(touch x)"` as plain
 * text while bash runs `touch`. So we splice exactly where bash does, and keep a map back to the
 * original offsets so every finding still points at what the user sees.
 */
export interface PreparedSource {
  /** What the parser sees. */
  text: string
  /** offsets[i] = index in the original of text[i]; offsets[text.length] = original length. */
  offsets: number[]
  /** At least one continuation was joined. */
  spliced: boolean
}

export function prepareSource(original: string): PreparedSource {
  if (!original.includes('\\\n')) {
    return { text: original, offsets: identity(original.length), spliced: false }
  }
  let text = ''
  const offsets: number[] = []
  let state: 'plain' | 'single' | 'double' | 'ansi' | 'comment' = 'plain'
  let spliced = false
  const keep = (i: number): void => {
    text += original[i]
    offsets.push(i)
  }
  for (let i = 0; i < original.length; i++) {
    const c = original[i]!
    if (state === 'single') {
      keep(i)
      if (c === "'") state = 'plain'
      continue
    }
    if (state === 'comment') {
      keep(i)
      if (c === '\n') state = 'plain'
      continue
    }
    if (c === '\\' && state !== 'ansi') {
      const next = original[i + 1]
      // Only backslash-LF continues a line. Before CR LF the backslash escapes the CR (a word
      // character for bash) and the LF still ends the command: `echo a\<CR><LF>rm x` runs rm.
      if (next === '\n') {
        i += 1
        spliced = true
        continue
      }
      keep(i)
      if (next !== undefined) keep(++i)
      continue
    }
    if (state === 'ansi') {
      keep(i)
      if (c === '\\' && original[i + 1] !== undefined) keep(++i)
      else if (c === "'") state = 'plain'
      continue
    }
    if (state === 'double') {
      keep(i)
      if (c === '"') state = 'plain'
      continue
    }
    // plain
    if (c === "'") state = original[i - 1] === '$' ? 'ansi' : 'single'
    else if (c === '"') state = 'double'
    else if (c === '#' && (i === 0 || /[\s;&|()]/.test(original[i - 1]!))) state = 'comment'
    keep(i)
  }
  offsets.push(original.length)
  return { text, offsets, spliced }
}

function identity(length: number): number[] {
  const offsets = new Array<number>(length + 1)
  for (let i = 0; i <= length; i++) offsets[i] = i
  return offsets
}

/** Maps a [start, end) range of the prepared text back to the original. */
export function originalRange(source: PreparedSource, start: number, end: number): { start: number; end: number } {
  const from = source.offsets[start] ?? source.offsets[source.offsets.length - 1]!
  const to = end > start ? (source.offsets[end - 1] ?? from) + 1 : from
  return { start: from, end: Math.max(from, to) }
}
