/**
 * A stand-in for Electron's safeStorage with the same interface: AES-256-GCM under a test key
 * (so ciphertexts are real ciphertexts, and tampering or another key fails to decrypt), with
 * switches for the cases the store must refuse.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import type { SecretCrypto } from '../../../src/main/secrets'

export interface FakeCrypto extends SecretCrypto {
  encryptionAvailable: boolean
  /** What backend() answers (Linux's safeStorage); undefined: no backend() at all, as on macOS/Windows. */
  backendName?: string
  calls: { encrypt: number; decrypt: number }
}

export function fakeCrypto(key: Buffer = randomBytes(32), options: { backendName?: string } = {}): FakeCrypto {
  const crypto: FakeCrypto = {
    encryptionAvailable: true,
    backendName: options.backendName,
    calls: { encrypt: 0, decrypt: 0 },
    isEncryptionAvailable: () => crypto.encryptionAvailable,
    encryptString(plainText) {
      crypto.calls.encrypt++
      if (!crypto.encryptionAvailable) throw new Error('Encryption is not available.')
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const body = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()])
      return Buffer.concat([Buffer.from('v10'), iv, cipher.getAuthTag(), body])
    },
    decryptString(encrypted) {
      crypto.calls.decrypt++
      if (encrypted.subarray(0, 3).toString() !== 'v10') throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.')
      const iv = encrypted.subarray(3, 15)
      const tag = encrypted.subarray(15, 31)
      const decipher = createDecipheriv('aes-256-gcm', key, iv)
      decipher.setAuthTag(tag)
      return Buffer.concat([decipher.update(encrypted.subarray(31)), decipher.final()]).toString('utf8')
    }
  }
  if (options.backendName !== undefined) crypto.backend = () => crypto.backendName ?? 'unknown'
  return crypto
}
