/**
 * The encrypted SecretStore over a fake safeStorage (AES-GCM under a test key): the file holds
 * ciphertext only, get() gives the key back, delete removes it, and every way the file or the
 * keyring can go wrong is a clear SecretStoreError instead of a crash or a silently empty store.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  createEncryptedSecretStore,
  PLAIN_NODE_WHY,
  SECRETS_FILE_NAME,
  SecretStoreError,
  unavailableSecretStore,
  type SecretStore
} from '../../../src/main/secrets'
import { fakeCrypto, type FakeCrypto } from './fake-crypto'

const KEY = 'sk-proj-Z3JlYXQtc2VjcmV0LXRoYXQtbXVzdC1uZXZlci1sZWFr-0123456789abcdef'

/** The key in every form a careless writer might use. */
function forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8')
  return [secret, bytes.toString('base64'), bytes.toString('base64url'), bytes.toString('hex'), JSON.stringify(secret)]
}

function expectNoTrace(bytes: Buffer, secret: string): void {
  for (const form of forms(secret)) expect(bytes.includes(Buffer.from(form, 'utf8')), `found ${form.slice(0, 12)}…`).toBe(false)
  // Also a long slice of it (a truncated copy).
  expect(bytes.includes(Buffer.from(secret.slice(8, 40), 'utf8'))).toBe(false)
}

function thrown(run: () => unknown): SecretStoreError {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(SecretStoreError)
    return error as SecretStoreError
  }
  throw new Error('expected a SecretStoreError')
}

let dir: string
let file: string
let crypto: FakeCrypto
let store: SecretStore

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'deskclaw-secrets-'))
  file = join(dir, SECRETS_FILE_NAME)
  crypto = fakeCrypto()
  store = createEncryptedSecretStore({ file, crypto })
})

afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('createEncryptedSecretStore', () => {
  it('stores ciphertext only, and get() gives the key back', () => {
    expect(store.available()).toEqual({ ok: true })
    expect(store.has('api-key.openai')).toBe(false)
    expect(store.get('api-key.openai')).toBeUndefined()

    store.set('api-key.openai', KEY)
    expect(store.has('api-key.openai')).toBe(true)
    expect(store.get('api-key.openai')).toBe(KEY)

    const bytes = readFileSync(file)
    expectNoTrace(bytes, KEY)
    const json = JSON.parse(bytes.toString('utf8'))
    expect(json).toMatchObject({ format: 'deskclaw-secrets', version: 1 })
    expect(Object.keys(json.secrets)).toEqual(['api-key.openai'])
    expect(json.secrets['api-key.openai']).toMatch(/^[A-Za-z0-9+/]+=*$/)
    expect(Buffer.from(json.secrets['api-key.openai'], 'base64').subarray(0, 3).toString()).toBe('v10')
  })

  it('writes the file owner-only and atomically (no temporary files left behind)', () => {
    store.set('api-key.openai', KEY)
    store.set('api-key.anthropic', `${KEY}-2`)
    store.delete('api-key.openai')
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(readdirSync(dir)).toEqual([SECRETS_FILE_NAME])
  })

  it('keeps several secrets apart, replaces one on set, and delete removes only it', () => {
    store.set('api-key.openai', KEY)
    store.set('api-key.anthropic', 'sk-ant-api03-another-key-entirely')
    store.set('api-key.openai', `${KEY}-rotated`)
    expect(store.get('api-key.openai')).toBe(`${KEY}-rotated`)
    expect(store.get('api-key.anthropic')).toBe('sk-ant-api03-another-key-entirely')

    expect(store.delete('api-key.openai')).toBe(true)
    expect(store.has('api-key.openai')).toBe(false)
    expect(store.get('api-key.openai')).toBeUndefined()
    expect(store.delete('api-key.openai')).toBe(false)
    expect(store.get('api-key.anthropic')).toBe('sk-ant-api03-another-key-entirely')
    expectNoTrace(readFileSync(file), `${KEY}-rotated`)
    expect(readFileSync(file, 'utf8')).not.toContain('api-key.openai')
  })

  it('survives a restart: a new store over the same file and keyring reads it', () => {
    store.set('api-key.openai', KEY)
    const again = createEncryptedSecretStore({ file, crypto })
    expect(again.get('api-key.openai')).toBe(KEY)
  })

  it('refuses to store when the system cannot encrypt, and says why', () => {
    crypto.encryptionAvailable = false
    const state = store.available()
    expect(state).toMatchObject({ ok: false, reason: 'encryption-unavailable' })
    expect(state.why).toMatch(/environment variable/)
    const error = thrown(() => store.set('api-key.openai', KEY))
    expect(error.problem).toBe('unavailable')
    expect(error.code).toBe('NOT_CONFIGURED')
    expect(crypto.calls.encrypt).toBe(0)
    expect(() => readFileSync(file)).toThrow(/ENOENT/)
  })

  it("refuses Linux's basic_text backend (no keyring: a fixed, public password)", () => {
    const linux = fakeCrypto(randomBytes(32), { backendName: 'basic_text' })
    const onLinux = createEncryptedSecretStore({ file, crypto: linux })
    const state = onLinux.available()
    expect(state).toMatchObject({ ok: false, reason: 'no-keyring' })
    expect(state.why).toMatch(/keyring/i)
    expect(thrown(() => onLinux.set('api-key.openai', KEY)).message).toMatch(/keyring/i)
    expect(linux.calls.encrypt).toBe(0)

    linux.backendName = 'gnome_libsecret'
    expect(onLinux.available()).toEqual({ ok: true })
    onLinux.set('api-key.openai', KEY)
    expect(onLinux.get('api-key.openai')).toBe(KEY)
  })

  it('a stored key that cannot be read now (encryption gone, keyring changed) is a clear error, not a crash', () => {
    store.set('api-key.openai', KEY)
    crypto.encryptionAvailable = false
    const unavailable = thrown(() => store.get('api-key.openai'))
    expect(unavailable.problem).toBe('unavailable')
    expect(unavailable.message).toMatch(/stored but cannot be read/)

    // Another keyring (the file copied to another machine, the keyring reset).
    const other = createEncryptedSecretStore({ file, crypto: fakeCrypto() })
    expect(other.has('api-key.openai')).toBe(true)
    const undecryptable = thrown(() => other.get('api-key.openai'))
    expect(undecryptable.problem).toBe('undecryptable')
    expect(undecryptable.message).toMatch(/cannot be decrypted.*paste it again/)
    // Removing it is the way out, and works without decrypting.
    expect(other.delete('api-key.openai')).toBe(true)
    expect(other.has('api-key.openai')).toBe(false)
  })

  it('a tampered entry does not decrypt: a clear error', () => {
    store.set('api-key.openai', KEY)
    const json = JSON.parse(readFileSync(file, 'utf8'))
    const bytes = Buffer.from(json.secrets['api-key.openai'], 'base64')
    bytes[bytes.length - 1] ^= 0xff
    json.secrets['api-key.openai'] = bytes.toString('base64')
    writeFileSync(file, JSON.stringify(json))
    expect(thrown(() => store.get('api-key.openai')).problem).toBe('undecryptable')
  })

  it.each([
    ['not JSON', '{"format":"deskclaw-secrets",'],
    ['an empty file', ''],
    ['another JSON shape', '["api-key.openai"]'],
    ['another format', JSON.stringify({ format: 'other', version: 1, secrets: {} })],
    ['a future version', JSON.stringify({ format: 'deskclaw-secrets', version: 2, secrets: {} })],
    ['an entry that is not base64', JSON.stringify({ format: 'deskclaw-secrets', version: 1, secrets: { 'api-key.openai': 'not base64!' } })],
    ['an entry that is not a string', JSON.stringify({ format: 'deskclaw-secrets', version: 1, secrets: { 'api-key.openai': 42 } })]
  ])('a damaged file (%s) is a clear error that names the file', (_name, content) => {
    writeFileSync(file, content)
    for (const read of [() => store.has('api-key.openai'), () => store.get('api-key.openai')]) {
      const error = thrown(read)
      expect(error.problem).toBe('corrupt')
      expect(error.message).toContain(file)
      expect(error.message).toMatch(/damaged/)
    }
  })

  it('saving over a damaged file moves it aside and starts a new one', () => {
    writeFileSync(file, 'garbage')
    store.set('api-key.openai', KEY)
    expect(store.get('api-key.openai')).toBe(KEY)
    const aside = readdirSync(dir).filter((name) => name.startsWith(`${SECRETS_FILE_NAME}.damaged-`))
    expect(aside).toHaveLength(1)
    expect(readFileSync(join(dir, aside[0]!), 'utf8')).toBe('garbage')
  })

  it('removing from a damaged file starts a new, empty one', () => {
    writeFileSync(file, 'garbage')
    expect(store.delete('api-key.openai')).toBe(true)
    expect(store.has('api-key.openai')).toBe(false)
    expect(JSON.parse(readFileSync(file, 'utf8')).secrets).toEqual({})
  })

  it('an unreadable file (not missing) is an io error', () => {
    rmSync(file, { force: true })
    // A folder where the file should be: reading it fails with EISDIR.
    const folderStore = createEncryptedSecretStore({ file: dir, crypto })
    expect(thrown(() => folderStore.has('api-key.openai')).problem).toBe('io')
  })

  it('never writes the plain text, even if the cipher hands it back', () => {
    const identity = { isEncryptionAvailable: () => true, encryptString: (text: string) => Buffer.from(text), decryptString: (b: Buffer) => b.toString() }
    const broken = createEncryptedSecretStore({ file, crypto: identity })
    expect(thrown(() => broken.set('api-key.openai', KEY)).message).toMatch(/unencrypted/)
    expect(() => readFileSync(file)).toThrow(/ENOENT/)
  })

  it('refuses names that are not names and empty values', () => {
    for (const name of ['', '../etc/passwd', 'a b', 'x'.repeat(101), '__proto__/x']) {
      expect(thrown(() => store.set(name, KEY)).problem).toBe('invalid')
    }
    expect(thrown(() => store.set('api-key.openai', '')).problem).toBe('invalid')
  })

  it('does not confuse an entry with Object.prototype members', () => {
    expect(store.has('constructor')).toBe(false)
    expect(store.get('toString')).toBeUndefined()
  })

  it('a failing availability probe says so instead of throwing', () => {
    const throwing = createEncryptedSecretStore({
      file,
      crypto: { ...crypto, isEncryptionAvailable: () => { throw new Error('keyring locked') } }
    })
    expect(throwing.available()).toMatchObject({ ok: false, reason: 'failed', why: expect.stringContaining('keyring locked') })
  })
})

describe('unavailableSecretStore (plain Node: the CLI, deskclaw web)', () => {
  it('holds nothing, refuses to store, and says to use an environment variable', () => {
    const store = unavailableSecretStore()
    expect(store.available()).toEqual({ ok: false, why: PLAIN_NODE_WHY, reason: 'no-safe-storage' })
    expect(PLAIN_NODE_WHY).toMatch(/environment variable/)
    expect(store.has('api-key.openai')).toBe(false)
    expect(store.get('api-key.openai')).toBeUndefined()
    expect(store.delete('api-key.openai')).toBe(false)
    expect(thrown(() => store.set('api-key.openai', KEY)).problem).toBe('unavailable')
  })
})
