/**
 * Secrets the user pastes (API keys): encrypted with the system keyring (Electron's safeStorage,
 * injected), stored as ciphertext in secrets.json in the data folder, readable only in main.
 * Plain Node (the CLI, `deskclaw web`) has no keyring: there the store is unavailable and keys
 * come from environment variables.
 */
export { ApiKeys, apiKeySecretName, savedProviderKeySecretName, type KeyOwner } from './api-keys'
export { createEncryptedSecretStore, SECRETS_FILE_NAME, type EncryptedSecretStoreOptions } from './encrypted-store'
export { redactSecrets, REDACTED } from './redact'
export {
  SecretStoreError,
  type SecretCrypto,
  type SecretsAvailability,
  type SecretStore,
  type SecretStoreProblem,
  type SecretsUnavailableReason
} from './types'
export { PLAIN_NODE_WHY, unavailableSecretStore } from './unavailable-store'
export { isSecretFolderName, isSecretName } from './secret-names'
export {
  containsSecretValue,
  credentialFormatOf,
  describeSecretKind,
  describeSecretSpans,
  findSecretValues,
  isCredentialFile,
  redactSecretSpans,
  SECRET_SCAN_BYTES,
  SECRET_VALUE_REDACTED,
  type CredentialFormat,
  type FindSecretOptions,
  type SecretKind,
  type SecretSpan
} from './secret-content'
