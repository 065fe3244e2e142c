/**
 * redactSecrets finds a key in the encodings servers echo it back in: base64 (standard and
 * url-safe, the key at any of the 3 offsets inside a larger blob, `Bearer KEY`, `Basic
 * base64(user:KEY)`), percent-encoding and hex — with random keys in random text. Text without
 * the key is returned unchanged.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { REDACTED, redactSecrets } from '../../../src/main/secrets/redact'

/** Keys as providers issue them: printable ASCII without spaces, 12–80 characters. */
const key = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~+/=:!$'), minLength: 12, maxLength: 80 })
/** Words around it, any characters but the delimiters the tests put around the encoded part. */
const prose = fc.string({ unit: fc.oneof(fc.constantFrom(...'abc xyz,.:;!?{}[]()<>\n\t'), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 })), maxLength: 60 })
/** What a larger encoded blob holds before and after the key (any bytes' worth of text). */
const padding = fc.string({ unit: 'grapheme', maxLength: 20 })

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64')
const b64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url')
const hex = (text: string) => Buffer.from(text, 'utf8').toString('hex')

/**
 * The encoded blob stands between quotes in the text: all of it goes, the words around it and an
 * auth scheme before it (`Basic `, `Bearer `) stay.
 */
function expectRedacted(before: string, encoded: string, after: string, secret: string): void {
  const scheme = /^(Basic |Bearer )?/.exec(encoded)?.[0] ?? ''
  const text = `${before}"${encoded}"${after}`
  expect(redactSecrets(text, [secret])).toBe(`${redactSecrets(before, [secret])}"${scheme}${REDACTED}"${redactSecrets(after, [secret])}`)
}

const ENCODINGS: Array<[string, (secret: string, pre: string, post: string) => string]> = [
  ['base64 of KEY', (secret) => b64(secret)],
  ['base64 of "Bearer KEY"', (secret) => b64(`Bearer ${secret}`)],
  ['base64 of a blob holding KEY', (secret, pre, post) => b64(`${pre}${secret}${post}`)],
  ['url-safe base64 of a blob holding KEY', (secret, pre, post) => b64url(`${pre}${secret}${post}`)],
  ['Basic base64(user:KEY)', (secret, pre) => `Basic ${b64(`${pre.replace(/:/g, '')}:${secret}`)}`],
  ['Bearer base64(KEY)', (secret) => `Bearer ${b64(secret)}`],
  ['hex of a blob holding KEY', (secret, pre, post) => hex(`${pre}${secret}${post}`)],
  ['HEX of KEY', (secret) => hex(secret).toUpperCase()]
]

describe('redactSecrets in the encodings a server echoes a key in', () => {
  for (const [name, encode] of ENCODINGS) {
    it(`redacts a random key as ${name}, at any offset, leaving the text around it`, () => {
      fc.assert(
        fc.property(key, prose, prose, padding, padding, (secret, before, after, pre, post) => {
          expectRedacted(before, encode(secret, pre, post), after, secret)
        }),
        { numRuns: 300 }
      )
    })
  }

  it('covers all 3 offsets of the key inside a base64 blob explicitly', () => {
    fc.assert(
      fc.property(key, fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 }), (secret, lead, trail) => {
        const blob = b64(`${'x'.repeat(lead)}${secret}${'y'.repeat(trail)}`)
        expect(redactSecrets(`auth: ${blob};`, [secret])).toBe(`auth: ${REDACTED};`)
      })
    )
  })

  it('redacts the key percent-encoded (any case, fully or partly encoded, + for a space)', () => {
    const percentAll = (text: string, upper: boolean) =>
      [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')[upper ? 'toUpperCase' : 'toLowerCase']()}`).join('')
    fc.assert(
      fc.property(key, prose, prose, fc.boolean(), (secret, before, after, upper) => {
        for (const encoded of [encodeURIComponent(secret), percentAll(secret, upper), encodeURI(secret)]) {
          const text = `${before}?api_key=${encoded}&x=1${after}`
          expect(redactSecrets(text, [secret])).toBe(`${redactSecrets(before, [secret])}?api_key=${REDACTED}&x=1${redactSecrets(after, [secret])}`)
        }
      }),
      { numRuns: 300 }
    )
    expect(redactSecrets('q=my+pass+phrase+long', ['my pass phrase long'])).toBe(`q=${REDACTED}`)
  })

  it('still redacts the key verbatim, and as "Bearer KEY"', () => {
    fc.assert(
      fc.property(key, prose, prose, (secret, before, after) => {
        const out = redactSecrets(`${before}Authorization: Bearer ${secret}${after}`, [secret])
        expect(out).toContain(`Bearer ${REDACTED}`)
        expect(out).not.toContain(secret)
      })
    )
  })

  it('leaves text that does not hold the key unchanged', () => {
    fc.assert(
      fc.property(key, prose, padding, (secret, text, other) => {
        fc.pre(!text.includes(secret) && !other.includes(secret) && other.length > 0)
        const body = `${text} ${b64(other)} ${hex(other)} ${encodeURIComponent(other)}`
        expect(redactSecrets(body, [secret])).toBe(body)
      }),
      { numRuns: 500 }
    )
  })

  it('leaves short values alone in every encoding', () => {
    expect(redactSecrets(`ok ${b64('ok')} ${hex('ok')}`, ['ok'])).toBe(`ok ${b64('ok')} ${hex('ok')}`)
  })
})
