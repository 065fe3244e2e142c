/**
 * Every user-visible string goes through here (docs/architecture.md). `useT()` gives `t(key, vars)` in the
 * current language (settings.language, else the browser's), plus locale-aware helpers
 * (translator.ts). This module depends on no store: the settings store pushes the language in with
 * `setLanguage`, the tool catalogue store pushes each tool's message tables in with `setToolCatalogue`.
 */
import { useMemo } from 'react'
import { create } from 'zustand'
import type { Language } from '../../../shared/bridge'
import { browserLanguage } from './detect'
import { makeTranslator, NO_TOOLS, type ToolCatalogue, type Translator } from './translator'

export type { Dictionary, MessageKey } from './en'
export { detectLanguage, browserLanguage } from './detect'
export { findingText } from './findings'
export {
  dictionaries,
  languages,
  makeTranslator,
  translate,
  type ToolCatalogue,
  type Translator,
  type Vars
} from './translator'

/**
 * The UI language: the browser's until settings arrive, then settings.language (stores/settings
 * sets it); and the tool catalogue's message tables (stores/tools sets them).
 */
const useLanguageStore = create<{ language: Language; tools: ToolCatalogue }>(() => ({
  language: browserLanguage(),
  tools: NO_TOOLS
}))

export function getLanguage(): Language {
  return useLanguageStore.getState().language
}

export function setLanguage(language: Language): void {
  if (getLanguage() !== language) useLanguageStore.setState({ language })
}

export function useLanguage(): Language {
  return useLanguageStore((s) => s.language)
}

/** The tools' message tables `t.toolText` uses (the tool catalogue store calls this after each `tools.list`). */
export function setToolCatalogue(tools: ToolCatalogue): void {
  if (useLanguageStore.getState().tools !== tools) useLanguageStore.setState({ tools })
}

export function useT(): Translator {
  const language = useLanguage()
  const tools = useLanguageStore((s) => s.tools)
  return useMemo(() => makeTranslator(language, tools), [language, tools])
}
