/**
 * The app's SecretStore: pasted API keys encrypted with Electron's safeStorage (Keychain on macOS,
 * DPAPI on Windows, the Secret Service / KWallet on Linux) into secrets.json in the data folder.
 * On Linux without a keyring safeStorage falls back to 'basic_text' (a fixed password): the store
 * then refuses and says why (secrets/encrypted-store.ts). Call after app 'ready'.
 *
 * The synchronous safeStorage calls are used on purpose: the key is read while a run starts,
 * synchronously (DeskclawApp.apiKeyFor), and the data is a few hundred bytes.
 */
import { join } from 'node:path'
import { safeStorage } from 'electron'
import { createEncryptedSecretStore, SECRETS_FILE_NAME, type SecretCrypto, type SecretStore } from '../secrets'

export function electronSecretStore(dataDir: string): SecretStore {
  const crypto: SecretCrypto = {
    isEncryptionAvailable: () => safeStorage.isEncryptionAvailable(),
    encryptString: (plainText) => safeStorage.encryptString(plainText),
    decryptString: (encrypted) => safeStorage.decryptString(encrypted),
    ...(process.platform === 'linux' ? { backend: () => safeStorage.getSelectedStorageBackend() } : {})
  }
  return createEncryptedSecretStore({ file: join(dataDir, SECRETS_FILE_NAME), crypto })
}
