/**
 * Every user-visible string goes through here (DESIGN §9). `useT()` gives `t(key, vars)` in the
 * current language (settings.language, else the browser's), plus locale-aware helpers. This module
 * depends on no store; the settings store pushes the language in with `setLanguage`.
 */
import { useMemo } from 'react'
import { create } from 'zustand'
import type { Language } from '../../../shared/bridge'
import type { AppErrorShape } from '../../../shared/errors'
import { browserLanguage } from './detect'
import { findingText } from './findings'
import { en, type Dictionary, type MessageKey } from './en'
import { zhCN } from './zh-CN'

export type { Dictionary, MessageKey } from './en'
export { detectLanguage, browserLanguage } from './detect'
export { alwaysBlockedText, findingText, previewText, previewValue } from './findings'

export const dictionaries: Record<Language, Dictionary> = { en, 'zh-CN': zhCN }
export const languages: readonly Language[] = ['en', 'zh-CN']

export type Vars = Record<string, string | number>

export function translate(language: Language, key: MessageKey, vars?: Vars): string {
  const template = dictionaries[language][key] ?? en[key]
  if (!vars) return template
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in vars ? String(vars[name]) : whole
  )
}

export interface Translator {
  (key: MessageKey, vars?: Vars): string
  language: Language
  /** "Model service cannot be reached: connect ECONNREFUSED…" — code translated, detail kept. */
  error(error: { code: string; message: string } | AppErrorShape): string
  /** "3 min ago", "刚刚" … */
  relativeTime(at: number, now: number): string
  duration(ms: number): string
  /** A risk finding in this language: the rule's meaning in Chinese; the engine's message in English. */
  finding(finding: { rule: string; message: string }): string
}

export function makeTranslator(language: Language): Translator {
  const t = ((key: MessageKey, vars?: Vars) => translate(language, key, vars)) as Translator
  t.language = language
  t.finding = (finding) => findingText(finding.rule, language) ?? finding.message
  const rtf = new Intl.RelativeTimeFormat(language, { numeric: 'auto', style: 'short' })
  t.error = (error) => {
    const key = `error.${error.code}` as MessageKey
    const detail = (error.message ?? '').split('\n')[0]?.trim() ?? ''
    if (!(key in en)) return detail || translate(language, 'error.unknown')
    const label = translate(language, key)
    return detail && detail !== label ? `${label}: ${detail}` : label
  }
  t.relativeTime = (at, now) => {
    const seconds = Math.round((at - now) / 1000)
    if (Math.abs(seconds) < 45) return translate(language, 'time.justNow')
    const minutes = Math.round(seconds / 60)
    if (Math.abs(minutes) < 60) return rtf.format(minutes, 'minute')
    const hours = Math.round(minutes / 60)
    if (Math.abs(hours) < 24) return rtf.format(hours, 'hour')
    const days = Math.round(hours / 24)
    if (Math.abs(days) < 7) return rtf.format(days, 'day')
    return new Intl.DateTimeFormat(language, { month: 'short', day: 'numeric' }).format(at)
  }
  t.duration = (ms) => {
    if (ms < 1000) return translate(language, 'duration.ms', { n: Math.max(0, Math.round(ms)) })
    if (ms < 60_000) {
      const s = ms < 10_000 ? (ms / 1000).toFixed(1) : String(Math.round(ms / 1000))
      return translate(language, 'duration.s', { n: s })
    }
    const total = Math.round(ms / 1000)
    return translate(language, 'duration.m', { m: Math.floor(total / 60), s: total % 60 })
  }
  return t
}

/** The UI language: the browser's until settings arrive, then settings.language (stores/settings sets it). */
const useLanguageStore = create<{ language: Language }>(() => ({ language: browserLanguage() }))

export function getLanguage(): Language {
  return useLanguageStore.getState().language
}

export function setLanguage(language: Language): void {
  if (getLanguage() !== language) useLanguageStore.setState({ language })
}

export function useLanguage(): Language {
  return useLanguageStore((s) => s.language)
}

export function useT(): Translator {
  const language = useLanguage()
  return useMemo(() => makeTranslator(language), [language])
}
