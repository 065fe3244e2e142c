import { create } from 'zustand'
import type { BridgeResult, Language, Settings } from '../../../shared/bridge'
import type { AppErrorShape } from '../../../shared/errors'
import { getDeskclawApi } from '../bridge'
import { getLanguage, setLanguage } from '../i18n'

interface SettingsState {
  settings: Settings | null
  loadError: AppErrorShape | null
  load(): Promise<void>
  update(patch: Partial<Settings>): Promise<BridgeResult<Settings>>
  /** Switch the UI at once and persist it; reverts if main refuses. */
  changeLanguage(language: Language): Promise<void>
  /** settings_changed from main (another window, the CLI). */
  applyRemote(settings: Settings): void
}

export const useSettingsStore = create<SettingsState>((set, get) => ({
  settings: null,
  loadError: null,

  async load() {
    const result = await getDeskclawApi().invoke('settings.get', {})
    if (result.ok) {
      setLanguage(result.data.language)
      set({ settings: result.data, loadError: null })
    } else {
      set({ loadError: result.error })
    }
  },

  async update(patch) {
    const result = await getDeskclawApi().invoke('settings.update', patch)
    if (result.ok) {
      setLanguage(result.data.language)
      set({ settings: result.data })
    }
    return result
  },

  async changeLanguage(language) {
    const previous = getLanguage()
    setLanguage(language)
    if (!get().settings) return
    const result = await getDeskclawApi().invoke('settings.update', { language })
    if (result.ok) set({ settings: result.data })
    else if (getLanguage() === language) setLanguage(previous)
  },

  applyRemote(settings) {
    setLanguage(settings.language)
    set({ settings })
  }
}))
