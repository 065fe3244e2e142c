/**
 * API keys over the bridge contract and in error text: set validates (trim, empty, length,
 * spaces) without ever repeating the key, status never carries it, and a model server that echoes
 * the key in an error body has it redacted from what describeModelError says.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { APICallError, RetryError } from 'ai'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { API_KEY_MAX_LENGTH, bridgeCalls } from '../../../src/shared'
import { describeModelError } from '../../../src/main/providers'
import { ApiKeys, createEncryptedSecretStore, REDACTED, redactSecrets, SECRETS_FILE_NAME, SecretStoreError, unavailableSecretStore } from '../../../src/main/secrets'
import { fakeCrypto } from './fake-crypto'

const KEY = 'sk-test-0123456789abcdefghijklmnopqrstuvwxyzABCDEF'

let dir: string
let keys: ApiKeys

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'deskclaw-api-keys-'))
  keys = new ApiKeys(createEncryptedSecretStore({ file: join(dir, SECRETS_FILE_NAME), crypto: fakeCrypto() }))
})

afterEach(() => rmSync(dir, { recursive: true, force: true }))

function failure(run: () => unknown): SecretStoreError {
  try {
    run()
  } catch (error) {
    return error as SecretStoreError
  }
  throw new Error('expected a failure')
}

describe('ApiKeys', () => {
  it('status says per provider whether a key is stored, never the key', () => {
    expect(keys.status()).toEqual({ available: true, providers: { openai: false, anthropic: false, 'openai-compatible': false } })
    const after = keys.set('anthropic', `  ${KEY}\n`)
    expect(after.providers).toEqual({ openai: false, anthropic: true, 'openai-compatible': false })
    expect(JSON.stringify(after)).not.toContain(KEY)
    // Trimmed before it was stored.
    expect(keys.stored('anthropic')).toBe(KEY)
    expect(keys.stored('openai')).toBeUndefined()
    expect(keys.delete('anthropic').providers.anthropic).toBe(false)
    expect(keys.stored('anthropic')).toBeUndefined()
  })

  it.each([
    ['empty', '   ', /empty/],
    ['too long', 'k'.repeat(API_KEY_MAX_LENGTH + 1), /at most 4096/],
    ['with a space inside', `${KEY} ${KEY}`, /without spaces/],
    ['with a line break inside', `${KEY}\n${KEY}`, /line breaks/],
    ['not ASCII', `${KEY}é`, /letters, digits/]
  ])('refuses a key that is %s, without repeating it', (_name, key, message) => {
    const error = failure(() => keys.set('openai', key))
    expect(error).toBeInstanceOf(SecretStoreError)
    expect(error.code).toBe('VALIDATION_FAILED')
    expect(error.message).toMatch(message)
    expect(error.message).not.toContain(KEY)
    expect(keys.status().providers.openai).toBe(false)
  })

  it('the bridge contract validates the same way, and its messages never carry the key', () => {
    const input = bridgeCalls['secrets.setApiKey'].input
    expect(input.parse({ provider: 'openai', key: `\t${KEY}  ` })).toEqual({ provider: 'openai', key: KEY })
    for (const key of ['', `${KEY} ${KEY}`, `${KEY}\r\n`.repeat(2), KEY.repeat(100)]) {
      const parsed = input.safeParse({ provider: 'openai', key })
      expect(parsed.success).toBe(false)
      expect(JSON.stringify(parsed.error?.issues.map((issue) => issue.message))).not.toContain(KEY)
    }
    // The status answer has no field a key could travel in.
    expect(Object.keys(bridgeCalls['secrets.status'].output.shape).sort()).toEqual(['available', 'problem', 'providers', 'reason', 'saved', 'why'])
  })

  it('where keys cannot be stored, status says why and set refuses', () => {
    const plain = new ApiKeys(unavailableSecretStore())
    expect(plain.status()).toMatchObject({ available: false, reason: 'no-safe-storage', providers: { openai: false } })
    expect(failure(() => plain.set('openai', KEY)).message).toMatch(/environment variable/)
    expect(plain.stored('openai')).toBeUndefined()
  })
})

describe('redaction', () => {
  it('redactSecrets replaces every occurrence, raw and trimmed, and leaves short values alone', () => {
    expect(redactSecrets(`a ${KEY} b ${KEY}`, [KEY])).toBe(`a ${REDACTED} b ${REDACTED}`)
    expect(redactSecrets(`key=${KEY}`, [` ${KEY}\n`])).toBe(`key=${REDACTED}`)
    expect(redactSecrets('ollama says ok', ['ok', undefined])).toBe('ollama says ok')
  })

  const config = { provider: 'openai' as const, model: 'gpt-4.1-mini', baseUrl: 'http://127.0.0.1:9/v1', apiKey: KEY }
  const apiError = (statusCode: number, message: string) =>
    new APICallError({ message, url: 'http://127.0.0.1:9/v1/chat/completions', requestBodyValues: {}, statusCode, responseBody: JSON.stringify({ error: { message } }) })

  it('a 401 body that echoes the key is redacted from the message', () => {
    const described = describeModelError(apiError(401, `Incorrect API key provided: ${KEY}. You can find your API key at …`), config)
    expect(described.code).toBe('MODEL_AUTH')
    expect(described.message).not.toContain(KEY)
    expect(described.message).toContain(REDACTED)
  })

  it('redacted before the long server message is cut (no prefix of the key survives the cut)', () => {
    const message = `${'x'.repeat(280)} Bearer ${KEY} and more`
    const described = describeModelError(apiError(500, message), config)
    expect(described.message).not.toContain(KEY.slice(0, 10))
  })

  it('also through a RetryError, a network error that quotes the header, and an unknown error', () => {
    const retry = new RetryError({ message: 'retries', reason: 'maxRetriesExceeded', errors: [apiError(429, `slow down ${KEY}`), apiError(429, `slow down ${KEY}`)] })
    const header = Object.assign(new TypeError(`Headers.append: "Bearer ${KEY}" is an invalid header value.`), {})
    for (const error of [retry, header, new Error(`weird ${KEY}`)]) {
      expect(describeModelError(error, config).message).not.toContain(KEY)
    }
  })
})
