/**
 * Saved providers (Settings → Model providers, docs/architecture.md "Saved providers"): a run reads
 * provider, baseUrl, apiKeyEnv and model; a saved provider is a named copy of them. Choosing one
 * (a new activeProviderId) copies its values into those fields; changing those fields while one is
 * active saves them into it too, so the list and what runs never disagree.
 */
import { ACTIVE_PROVIDER_FIELDS, activeSavedProvider, type SavedProvider, type Settings } from '../../shared'

/** The patch as it is applied: a switch brings the chosen provider's values, an edit updates the active one. */
export function withSavedProviders(current: Settings, patch: Partial<Settings>): Partial<Settings> {
  const savedProviders = patch.savedProviders ?? current.savedProviders
  const activeProviderId = patch.activeProviderId ?? current.activeProviderId
  const active = activeSavedProvider({ savedProviders, activeProviderId })
  if (activeProviderId !== '' && !active) return { ...patch, activeProviderId: '' } // it was deleted: the fields stay as they are
  if (!active) return patch
  if (patch.activeProviderId !== undefined && patch.activeProviderId !== current.activeProviderId) {
    const { provider, baseUrl, apiKeyEnv, model } = active
    return { ...patch, provider, baseUrl, apiKeyEnv, model }
  }
  if (!ACTIVE_PROVIDER_FIELDS.some((field) => patch[field] !== undefined)) return patch
  const merged = { ...current, ...patch }
  const updated: SavedProvider = { ...active, provider: merged.provider, baseUrl: merged.baseUrl, apiKeyEnv: merged.apiKeyEnv, model: merged.model }
  return { ...patch, savedProviders: savedProviders.map((saved) => (saved.id === active.id ? updated : saved)) }
}

/** Saved providers the patch removes (their stored keys go with them). */
export function removedSavedProviders(before: Settings, after: Settings): string[] {
  const kept = new Set(after.savedProviders.map((saved) => saved.id))
  return before.savedProviders.filter((saved) => !kept.has(saved.id)).map((saved) => saved.id)
}
