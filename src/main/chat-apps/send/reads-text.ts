/**
 * Whether an OCR reading shows a text (docs/desktop.md, "Verification: OCR"): the draft after the
 * paste, and the newest message after the send key. Both ways of sending use these checks.
 */
import { normalizeForMatch, similarity, type OcrLine } from '../../desktop'

/** How close an OCR reading must be to the text to count as "it reads the text" (0..1). */
const READS_THE_TEXT = 0.85
/** After the send key, with the draft emptied and the conversation changed, the newest message must read this close. */
const ARRIVED_CLOSELY = 0.75

/**
 * Whether an OCR reading shows the text. OCR misreads a few characters, and an emoji it cannot
 * read often comes back as one stray character (a missing-glyph box read as `因`), so each picture
 * in the text allows one more difference on top of the 15 % (at least two from eight characters).
 */
export function readsText(reading: string, text: string): boolean {
  const expected = normalizeForMatch(text)
  const seen = normalizeForMatch(reading)
  if (expected === '') return seen === ''
  if (seen === '') return false
  const pictures = (text.match(/\p{Extended_Pictographic}/gu) ?? []).length
  // Short texts still get two differences (a draft's caret often costs one: `]|` read as nothing).
  const allowed = Math.max(Math.floor(expected.length * (1 - READS_THE_TEXT)), expected.length >= 8 ? 2 : 1) + pictures
  const distance = Math.round((1 - similarity(seen, expected)) * Math.max(seen.length, expected.length))
  return distance <= allowed
}

/**
 * Characters OCR takes for one another in a sent message without changing what it says: the CJK
 * `一` for a dash (multi-line text was reported unknown for it), `|` for `l`/`I`.
 */
function foldLookAlikes(text: string): string {
  return normalizeForMatch(text).replace(/[一ー—]/gu, '-').replace(/[|丨]/gu, 'l')
}

/**
 * Whether the newest message is the text, once the draft emptied and the conversation changed: the
 * strict reading, or one this close after folding look-alikes. Never a different message: a text
 * that did not arrive leaves the draft full or the conversation unchanged, and then this is not asked.
 */
export function readsSentMessage(reading: string, text: string): boolean {
  if (readsText(reading, text)) return true
  const seen = foldLookAlikes(reading)
  const expected = foldLookAlikes(text)
  if (seen === '' || expected === '') return false
  return similarity(seen, expected) >= ARRIVED_CLOSELY
}

/** The newest message's text: the last lines of the conversation, as many as the text needs. */
export function newestText(lines: OcrLine[], text: string): string {
  const want = normalizeForMatch(text).length
  const taken: string[] = []
  let length = 0
  let best = ''
  let bestScore = -1
  for (let i = lines.length - 1; i >= 0 && length < want * 1.5 + 4; i--) {
    const line = lines[i]!.text.trim()
    if (!line) continue
    taken.unshift(line)
    length += normalizeForMatch(line).length
    const candidate = taken.join('\n')
    const score = similarity(normalizeForMatch(candidate), normalizeForMatch(text))
    if (score > bestScore) {
      best = candidate
      bestScore = score
    }
  }
  return best
}
