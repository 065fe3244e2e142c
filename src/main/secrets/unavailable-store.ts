import { SecretStoreError, type SecretsUnavailableReason, type SecretStore } from './types'

/** Why a plain Node process (the CLI, `deskclaw web`) stores no secrets. */
export const PLAIN_NODE_WHY =
  'DeskClaw is running outside the desktop app (the command line or `deskclaw web`), where there is no system keyring to ' +
  'encrypt a key with: set the key in an environment variable instead.'

/** A store that holds nothing and refuses to store: where no system encryption exists (plain Node). */
export function unavailableSecretStore(why: string = PLAIN_NODE_WHY, reason: SecretsUnavailableReason = 'no-safe-storage'): SecretStore {
  return {
    available: () => ({ ok: false, why, reason }),
    has: () => false,
    get: () => undefined,
    set: () => {
      throw new SecretStoreError('unavailable', why)
    },
    delete: () => false
  }
}
