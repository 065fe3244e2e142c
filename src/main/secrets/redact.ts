/** What a secret is replaced with in text that may be shown, stored or logged. */
export const REDACTED = '[redacted]'

/** Shorter values are not redacted: replacing every "abc" in a message would say nothing useful. */
const MIN_REDACTED_LENGTH = 4
/** Base64 and hex are looked for only from this many bytes: a shorter needle would match by chance. */
const MIN_ENCODED_BYTES = 8

/** Characters of a base64 run (standard and url-safe alphabets, padding). */
const BASE64_CHAR = /[A-Za-z0-9+/_=-]/
const HEX_CHAR = /[0-9A-Fa-f]/

/**
 * `text` with each secret replaced by [redacted] wherever it appears — verbatim, percent-encoded,
 * as hex, or inside base64 (standard or url-safe, at any offset: `Bearer KEY`, `Basic
 * base64(user:KEY)`, a JSON blob that quotes the key). A server that echoes the key it was sent,
 * in whatever encoding, must not get it stored, printed or exported (docs/architecture.md).
 */
export function redactSecrets(text: string, secrets: ReadonlyArray<string | undefined>): string {
  // As given and trimmed; the longest first, so a key that contains another is replaced whole.
  const values = [...new Set(secrets.flatMap((secret) => (secret ? [secret, secret.trim()] : [])))]
    .filter((value) => value.length >= MIN_REDACTED_LENGTH)
    .sort((a, b) => b.length - a.length)
  if (values.length === 0) return text
  const spans: Array<[number, number]> = []
  for (const value of values) {
    for (const match of text.matchAll(percentEncodedPattern(value))) spans.push([match.index, match.index + match[0].length])
    for (const needle of base64Needles(value)) spans.push(...runsAround(text, new RegExp(escapeRegExp(needle), 'g'), BASE64_CHAR))
    for (const needle of hexNeedles(value)) spans.push(...runsAround(text, new RegExp(needle, 'gi'), HEX_CHAR))
  }
  return replaceSpans(text, spans)
}

/**
 * The secret with each character written as itself or percent-encoded (its UTF-8 bytes as %XX,
 * either case): verbatim, encodeURIComponent's and a form encoder's output all match.
 */
function percentEncodedPattern(secret: string): RegExp {
  const parts = [...secret].map((char) => {
    const encoded = [...new TextEncoder().encode(char)]
      .map((byte) => `%${hexDigitClass(byte >> 4)}${hexDigitClass(byte & 15)}`)
      .join('')
    const literal = char === ' ' ? '(?: |\\+)' : escapeRegExp(char)
    return `(?:${literal}|${encoded})`
  })
  return new RegExp(parts.join(''), 'g')
}

/**
 * What base64 of a larger text that holds the secret always contains: the secret's bytes start at
 * one of 3 offsets within a 3-byte group, and for each the whole groups inside the secret encode
 * the same way whatever surrounds them (the stable inner substring), in both alphabets.
 */
function base64Needles(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8')
  const needles = new Set<string>()
  for (let skip = 0; skip < 3; skip++) {
    const whole = Math.floor((bytes.length - skip) / 3) * 3
    if (whole < MIN_ENCODED_BYTES - 2) continue
    const inner = bytes.subarray(skip, skip + whole).toString('base64')
    needles.add(inner)
    needles.add(inner.replace(/\+/g, '-').replace(/\//g, '_'))
  }
  return [...needles]
}

/** Hex encodes whole bytes, so the secret's hex is always there whole (matched in either case). */
function hexNeedles(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8')
  return bytes.length >= MIN_ENCODED_BYTES ? [bytes.toString('hex')] : []
}

/**
 * Every match of `needle`, widened to the run of `runChar` around it: the whole encoded blob goes,
 * not only the part that decodes to the secret (its edges still hold a few of its bits).
 */
function runsAround(text: string, needle: RegExp, runChar: RegExp): Array<[number, number]> {
  const spans: Array<[number, number]> = []
  for (const match of text.matchAll(needle)) {
    let start = match.index
    let end = start + match[0].length
    while (start > 0 && runChar.test(text[start - 1])) start--
    while (end < text.length && runChar.test(text[end])) end++
    spans.push([start, end])
  }
  return spans
}

/** Each span (overlapping ones merged) replaced by one [redacted]. */
function replaceSpans(text: string, spans: Array<[number, number]>): string {
  if (spans.length === 0) return text
  spans.sort((a, b) => a[0] - b[0])
  let result = ''
  let cursor = 0
  let current: [number, number] | undefined
  for (const span of spans) {
    if (current && span[0] <= current[1]) {
      current[1] = Math.max(current[1], span[1])
      continue
    }
    if (current) result += text.slice(cursor, current[0]) + REDACTED
    if (current) cursor = current[1]
    current = [span[0], span[1]]
  }
  if (current) result += text.slice(cursor, current[0]) + REDACTED + text.slice(current[1])
  return result
}

function hexDigitClass(nibble: number): string {
  const digit = nibble.toString(16)
  return /[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')
}
