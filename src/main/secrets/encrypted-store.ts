import { randomBytes } from 'node:crypto'
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { errorMessage } from '../../shared'
import { SecretStoreError, type SecretCrypto, type SecretsAvailability, type SecretStore } from './types'

/** The file in the data folder. Its name also makes the path guardian ask before a tool reads it (risk/paths.ts). */
export const SECRETS_FILE_NAME = 'secrets.json'

const FORMAT = 'deskclaw-secrets'
const VERSION = 1
const NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/** secrets.json: ciphertexts only, base64, by name. */
interface SecretsFile {
  format: typeof FORMAT
  version: typeof VERSION
  secrets: Record<string, string>
}

export interface EncryptedSecretStoreOptions {
  /** The JSON file the ciphertexts live in (created 0600, replaced atomically). */
  file: string
  crypto: SecretCrypto
}

/**
 * A SecretStore over an injected cipher (Electron's safeStorage in the app, a fake in tests): each
 * value is encrypted on its own and stored base64 in one small JSON file. The plain text is never
 * written anywhere, and a file that does not parse, or an entry that does not decrypt, is a
 * SecretStoreError that says what to do — never a crash, never a silently empty store.
 */
export function createEncryptedSecretStore(options: EncryptedSecretStoreOptions): SecretStore {
  const { file, crypto } = options

  const available = (): SecretsAvailability => {
    try {
      if (crypto.backend?.() === 'basic_text') {
        return {
          ok: false,
          reason: 'no-keyring',
          why:
            'No system keyring was found (GNOME Keyring, KWallet or another Secret Service): without one a key could only be ' +
            'obfuscated with a fixed password, so DeskClaw does not store it. Install or unlock a keyring and restart DeskClaw, ' +
            'or set the key in an environment variable.'
        }
      }
      if (!crypto.isEncryptionAvailable()) {
        return {
          ok: false,
          reason: 'encryption-unavailable',
          why: "The system's encryption for app secrets (keychain, credential store or keyring) is not available, so DeskClaw cannot store a key. Set the key in an environment variable instead."
        }
      }
      return { ok: true }
    } catch (error) {
      return { ok: false, reason: 'failed', why: `The system's encryption for app secrets failed: ${errorMessage(error)}` }
    }
  }

  /** The file's entries; an empty table when there is no file yet. */
  const read = (): Record<string, string> => {
    let text: string
    try {
      text = readFileSync(file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {}
      throw new SecretStoreError('io', `Cannot read the secrets file ${file}: ${errorMessage(error)}`)
    }
    const parsed = parseFile(text)
    if (!parsed) {
      throw new SecretStoreError(
        'corrupt',
        `The secrets file ${file} is damaged. Remove the stored key in Settings (or delete the file) and paste it again.`
      )
    }
    return parsed
  }

  /** Like read(), but a damaged file is moved aside (secrets.json.damaged-…) so a new one can be written. */
  const readForWrite = (): Record<string, string> => {
    try {
      return read()
    } catch (error) {
      if (!(error instanceof SecretStoreError) || error.problem !== 'corrupt') throw error
      try {
        renameSync(file, `${file}.damaged-${Date.now()}`)
      } catch (moveError) {
        throw new SecretStoreError('io', `Cannot move the damaged secrets file ${file} aside: ${errorMessage(moveError)}`)
      }
      return {}
    }
  }

  const write = (secrets: Record<string, string>): void => {
    const content: SecretsFile = { format: FORMAT, version: VERSION, secrets }
    try {
      writeAtomically(file, `${JSON.stringify(content, null, 2)}\n`)
    } catch (error) {
      throw new SecretStoreError('io', `Cannot write the secrets file ${file}: ${errorMessage(error)}`)
    }
  }

  const checkName = (name: string): void => {
    if (!NAME.test(name)) throw new SecretStoreError('invalid', `"${name.slice(0, 100)}" is not a secret name.`)
  }

  return {
    available,

    has(name) {
      checkName(name)
      return Object.hasOwn(read(), name)
    },

    get(name) {
      checkName(name)
      const entries = read()
      if (!Object.hasOwn(entries, name)) return undefined
      const state = available()
      if (!state.ok) throw new SecretStoreError('unavailable', `A secret "${name}" is stored but cannot be read now. ${state.why ?? ''}`.trim())
      let value: string
      try {
        value = crypto.decryptString(Buffer.from(entries[name]!, 'base64'))
      } catch {
        // The cipher's own error says nothing more useful, and must not be shown raw.
        throw new SecretStoreError(
          'undecryptable',
          `The stored secret "${name}" cannot be decrypted (the system keyring changed, or the file came from another computer): remove it in Settings and paste it again.`
        )
      }
      return value
    },

    set(name, value) {
      checkName(name)
      if (value.length === 0) throw new SecretStoreError('invalid', 'An empty secret is not stored.')
      const state = available()
      if (!state.ok) throw new SecretStoreError('unavailable', state.why ?? 'Secrets cannot be stored here.')
      let encrypted: Buffer
      try {
        encrypted = crypto.encryptString(value)
      } catch (error) {
        throw new SecretStoreError('unavailable', `The system could not encrypt the secret: ${errorMessage(error)}`)
      }
      // A cipher that hands back the plain text (a broken or fake backend) must not put it on disk.
      if (encrypted.length === 0 || encrypted.includes(Buffer.from(value, 'utf8'))) {
        throw new SecretStoreError('unavailable', 'The system encryption returned the secret unencrypted; it was not stored.')
      }
      const entries = readForWrite()
      entries[name] = encrypted.toString('base64')
      write(entries)
    },

    delete(name) {
      checkName(name)
      let entries: Record<string, string>
      try {
        entries = read()
      } catch (error) {
        // Nothing in a damaged file can be read: removing a secret starts a new, empty file.
        if (error instanceof SecretStoreError && error.problem === 'corrupt') {
          write(readForWrite())
          return true
        }
        throw error
      }
      if (!Object.hasOwn(entries, name)) return false
      delete entries[name]
      write(entries)
      return true
    }
  }
}

function parseFile(text: string): Record<string, string> | null {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    return null
  }
  if (typeof data !== 'object' || data === null) return null
  const { format, version, secrets } = data as Partial<SecretsFile>
  if (format !== FORMAT || version !== VERSION || typeof secrets !== 'object' || secrets === null || Array.isArray(secrets)) return null
  const entries: Record<string, string> = {}
  for (const [name, value] of Object.entries(secrets)) {
    if (!NAME.test(name) || typeof value !== 'string' || value === '' || !BASE64.test(value)) return null
    entries[name] = value
  }
  return entries
}

/**
 * Writes a temporary file beside the target (0600, flushed), then renames it over: a crash leaves
 * the old file or the new one, never half of one.
 */
function writeAtomically(file: string, text: string): void {
  const folder = dirname(file)
  mkdirSync(folder, { recursive: true, mode: 0o700 })
  const temp = join(folder, `.${basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`)
  const fd = openSync(temp, 'wx', 0o600)
  try {
    try {
      writeSync(fd, text)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(temp, file)
  } catch (error) {
    try {
      unlinkSync(temp)
    } catch {
      // already renamed or never created
    }
    throw error
  }
}
