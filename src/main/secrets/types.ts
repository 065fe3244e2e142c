import { AppError, type SecretsUnavailableReason } from '../../shared'

/** Why secrets cannot be stored here; the UI translates it (the `why` sentence is for logs and the CLI). */
export type { SecretsUnavailableReason }

export interface SecretsAvailability {
  ok: boolean
  /** One sentence saying why not, and what to do instead (only when !ok). */
  why?: string
  reason?: SecretsUnavailableReason
}

/**
 * Secrets the user pasted (API keys), encrypted with the operating system's keyring. Main-process
 * only: `get` is never reachable from a front door, and nothing here writes to SQLite, the audit
 * log, events or logs.
 */
export interface SecretStore {
  /** Whether `set` can encrypt here (and `get` decrypt); when not, why. */
  available(): SecretsAvailability
  /** Whether something is stored under `name` (does not decrypt). Throws SecretStoreError on a corrupt file. */
  has(name: string): boolean
  /** The stored value, or undefined; throws SecretStoreError when it is stored but cannot be read. */
  get(name: string): string | undefined
  /** Encrypts and stores; throws SecretStoreError when the store is unavailable. */
  set(name: string, value: string): void
  /** Removes the entry; false when there was none. */
  delete(name: string): boolean
}

/**
 * What the encrypted store needs from the platform: Electron's `safeStorage` has exactly this
 * shape; tests pass a fake.
 */
export interface SecretCrypto {
  isEncryptionAvailable(): boolean
  encryptString(plainText: string): Buffer
  decryptString(encrypted: Buffer): string
  /** Linux: the keyring backend Electron chose (`basic_text` means none: a fixed, public password). */
  backend?(): string
}

export type SecretStoreProblem = 'unavailable' | 'corrupt' | 'undecryptable' | 'io' | 'invalid'

/** A clear, one-line failure of the secret store; it never carries a secret. */
export class SecretStoreError extends AppError {
  constructor(
    readonly problem: SecretStoreProblem,
    message: string
  ) {
    super(problem === 'invalid' ? 'VALIDATION_FAILED' : 'NOT_CONFIGURED', message)
    this.name = 'SecretStoreError'
  }
}
