/**
 * The translator itself, without React, stores or the DOM (so it is unit-tested under plain Node):
 * the dictionaries, `translate`, and `makeTranslator(language, tools)` behind `useT()`.
 */
import type { ToolText } from '../../../shared/agent-events'
import type { Language } from '../../../shared/bridge'
import type { AppErrorShape } from '../../../shared/errors'
import type { RiskAssessment } from '../../../shared/risk'
import { formatToolText, isRunnerText, type ToolMessages } from '../../../shared/tool-text'
import { findingText } from './findings'
import { en, type Dictionary, type MessageKey } from './en'
import { zhCN } from './zh-CN'

export const dictionaries: Record<Language, Dictionary> = { en, 'zh-CN': zhCN }
export const languages: readonly Language[] = ['en', 'zh-CN']

export type Vars = Record<string, string | number>

/** Each tool's message tables by tool name (what the tool catalogue holds; ToolInfo fits). */
export type ToolCatalogue = Readonly<Record<string, { readonly messages: ToolMessages }>>

export const NO_TOOLS: ToolCatalogue = {}

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
  /**
   * An error from main in this language: its message code with params when it has a known one
   * (`errors.*`, a server's own `detail` appended untranslated), else "Label: English message" by its code.
   */
  error(error: { code: string; message: string; key?: string; params?: Vars } | AppErrorShape): string
  /** "3 min ago", "刚刚" … */
  relativeTime(at: number, now: number): string
  duration(ms: number): string
  /** A risk finding in this language: the rule's meaning in Chinese; the engine's message in English. */
  finding(finding: { rule: string; message: string; params?: Record<string, string | number> }): string
  /**
   * A tool's text (preview title, field label, …): `text.key` looked up in the message tables of
   * `tool` (the tool that made it), in `language` (default: this translator's), else English, else
   * the key itself.
   */
  toolText(tool: string, text: ToolText, language?: Language): string
  /**
   * A tool call's result line (tool_call_completed.display): the runner's own outcomes
   * (`toolRun.*`) from these dictionaries, a tool's from its message tables.
   */
  toolDisplay(tool: string, display: ToolText): string
  /** Why "always allow" is not offered for this assessment, as one sentence; null when it is offered. */
  alwaysBlocked(assessment: Pick<RiskAssessment, 'alwaysRule' | 'alwaysBlocked' | 'alwaysBlockedReason'>): string | null
  /** "812 B", "1.4 MB" */
  fileSize(bytes: number): string
  /**
   * A text with a count, by the language's plural rules (Intl.PluralRules): `${base}.${rule}`,
   * else `${base}.other` — "1 model", "2 models"; Chinese has one form. `n` is a var too.
   */
  count(base: PluralBase, n: number, vars?: Vars): string
}

/** The keys that have a `.other` form: the bases `t.count` takes. */
export type PluralBase = MessageKey extends infer K ? (K extends `${infer B}.other` ? B : never) : never

export function makeTranslator(language: Language, tools: ToolCatalogue = NO_TOOLS): Translator {
  const t = ((key: MessageKey, vars?: Vars) => translate(language, key, vars)) as Translator
  t.language = language
  t.finding = (finding) => findingText(finding.rule, language, finding.params) ?? finding.message
  t.toolText = (tool, text, inLanguage = language) =>
    formatToolText(text, Object.hasOwn(tools, tool) ? tools[tool]!.messages : undefined, inLanguage)
  t.alwaysBlocked = (assessment) => {
    if (assessment.alwaysRule) return null
    const blocked = assessment.alwaysBlocked
    // The code, translated; the engine's English sentence only for records from before codes existed.
    if (blocked && (blocked.code !== 'always.runs-other-code' || blocked.program)) {
      const reason = translate(language, blocked.code, { program: blocked.program ?? '' })
      return translate(language, 'approval.alwaysBlocked', { reason })
    }
    if (assessment.alwaysBlockedReason) {
      return translate(language, 'approval.alwaysBlocked', { reason: assessment.alwaysBlockedReason })
    }
    return translate(language, 'approval.alwaysUnavailable')
  }
  const number = new Intl.NumberFormat(language, { maximumFractionDigits: 1 })
  const plural = new Intl.PluralRules(language)
  t.count = (base, n, vars) => {
    const key = `${base}.${plural.select(n)}`
    return translate(language, (Object.hasOwn(en, key) ? key : `${base}.other`) as MessageKey, { ...vars, n })
  }
  t.fileSize = (bytes) => {
    if (bytes < 1024) return translate(language, 'size.B', { n: number.format(Math.max(0, bytes)) })
    if (bytes < 1024 * 1024) return translate(language, 'size.KB', { n: number.format(bytes / 1024) })
    return translate(language, 'size.MB', { n: number.format(bytes / (1024 * 1024)) })
  }
  const rtf = new Intl.RelativeTimeFormat(language, { numeric: 'auto', style: 'short' })
  t.toolDisplay = (tool, display) => (isRunnerText(display) ? runnerText(language, display) : t.toolText(tool, display))
  t.error = (error) => {
    if (error.key && Object.hasOwn(en, error.key)) {
      const { detail, ...params } = error.params ?? {}
      const text = translate(language, error.key as MessageKey, params)
      return detail === undefined || detail === '' ? text : translate(language, 'errors.withDetail', { text, detail })
    }
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

/**
 * The runner's outcome in `language`. A policy denial names its decisive finding: the rule's meaning
 * in this language where there is one (findings.ts), else the engine's English message.
 */
function runnerText(language: Language, display: ToolText): string {
  if (!Object.hasOwn(en, display.key)) return display.key
  const params: Vars = { ...display.params }
  if (typeof params.rule === 'string' && typeof params.reason === 'string') {
    params.reason = findingText(params.rule, language) ?? params.reason
  }
  return translate(language, display.key as MessageKey, params)
}
