/**
 * Comparing what OCR read with what we expected on screen: a chat's name in a header, a search
 * result, a message just sent. OCR output differs from the real text in ways that never carry
 * meaning (spaces between CJK characters, full-width vs half-width punctuation, `（` read as `〈`),
 * and cannot see some of it at all (emoji, zero-width characters). `normalizeForMatch` removes
 * exactly those differences and nothing else, so `产品群` still differs from `产品群（旧）` and `张伟`
 * from `张伟 (HR)`: a verification must never accept a different chat.
 *
 * Pure string functions; nothing here loads the OCR engine.
 */

/** Keycap emoji (1️⃣ #️⃣): the digit is part of a picture OCR cannot read. */
const KEYCAP = /[0-9#*]\uFE0F?\u20E3/gu

/**
 * Characters OCR cannot see: pictographs (emoji), skin-tone modifiers, flag letters, the keycap
 * mark, and every default-ignorable code point (zero-width space/joiner/non-joiner, bidi marks,
 * word joiner, BOM, variation selectors, soft hyphen, Hangul fillers, tag characters).
 */
const INVISIBLE_OR_PICTURE = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Regional_Indicator}\p{Default_Ignorable_Code_Point}\u20E3]/gu

const WHITESPACE = /\s+/gu

/**
 * Brackets OCR confuses with each other (after NFKC, which already folds the full-width ASCII
 * forms), and runs of them: a wide CJK bracket is often read as two (`【外包】` → `【外包]】`).
 */
const OPENING_BRACKETS = /[(〈<《【[{〔〖〘〚⟨❨⦅｟]+/gu
const CLOSING_BRACKETS = /[)〉>》】\]}〕〗〙〛⟩❩⦆｠]+/gu

/** Every dash and minus, and runs of them (Chinese writes a dash as two em dashes). */
const DASHES = /[-‐‑‒–—―−﹘﹣－]+/gu

/** Straight, curly, low, prime and CJK corner quotes, single or double, and runs of them ('' read for "). */
const QUOTES = /['"‘’‚‛“”„‟′″〝〞〟「」『』«»‹›]+/gu

/**
 * The text reduced to what OCR can reliably tell apart: NFKC, no whitespace, no invisible
 * characters or emoji, OCR-confusable brackets, dashes and quotes folded to one form, lowercase.
 * Full-width `，：；！？` become `,:;!?` through NFKC.
 */
export function normalizeForMatch(text: string): string {
  return text
    .normalize('NFKC')
    .replace(KEYCAP, '')
    .replace(INVISIBLE_OR_PICTURE, '')
    .replace(WHITESPACE, '')
    .replace(OPENING_BRACKETS, '(')
    .replace(CLOSING_BRACKETS, ')')
    .replace(DASHES, '-')
    .replace(QUOTES, "'")
    .toLowerCase()
}

/** Whether OCR text and an expected text are the same once OCR's meaningless differences are removed. */
export function sameText(a: string, b: string): boolean {
  return normalizeForMatch(a) === normalizeForMatch(b)
}

/**
 * 1 − edit distance / length of the longer, over the normalised texts (code points, not UTF-16
 * units): 1 is the same text, 0 nothing in common; two empty texts are the same. For ranking
 * candidates and diagnostics — a verification decides with `sameText`, not a threshold.
 */
export function similarity(a: string, b: string): number {
  const left = Array.from(normalizeForMatch(a))
  const right = Array.from(normalizeForMatch(b))
  const longest = Math.max(left.length, right.length)
  if (longest === 0) return 1
  return 1 - levenshtein(left, right) / longest
}

/** Indexes of the lines that are exactly the target (normalised), in the order given. */
export function findExactLines(lines: readonly string[], target: string): number[] {
  const wanted = normalizeForMatch(target)
  const found: number[] = []
  lines.forEach((line, index) => {
    if (normalizeForMatch(line) === wanted) found.push(index)
  })
  return found
}

/**
 * The text without every match of each pattern, trimmed: for parts of a line that are not the
 * name being checked (an unread count, a time stamp). Patterns without the `g` flag still remove
 * every match.
 */
export function stripPatterns(text: string, patterns: readonly RegExp[]): string {
  let result = text
  for (const pattern of patterns) {
    const everywhere = pattern.global ? pattern : new RegExp(pattern.source, pattern.flags + 'g')
    result = result.replace(everywhere, '')
  }
  return result.trim()
}

/** Edit distance (insert, delete, substitute) with one row of memory. */
function levenshtein(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0) return b.length
  if (b.length === 0) return a.length
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution))
    }
    previous = current
  }
  return previous[b.length]!
}
