/**
 * Settings, "Web" (docs/risk.md, "Network"): the sites web_fetch and http_request may reach — each
 * pattern allowed, asked about or denied — and how much and how long a request may read. The
 * rules are a list the user edits row by row, kept here until saved: by this section's own button
 * or by the form's Save, which saves every section (pending-sections.ts).
 */
import { useId, useState } from 'react'
import type { Settings, WebDomainRule } from '../../../../shared/bridge'
import type { Verdict } from '../../../../shared/risk'
// Values, not only types: the section checks its rows with the very schema main checks them with.
import { SettingsSchema, WebDomainRuleSchema } from '../../../../shared/bridge/settings'
import { useT } from '../../i18n'
import { useSettingsStore } from '../../stores/settings'
import { AlertIcon } from '../common'
import { type PendingSections, usePendingSection } from './pending-sections'

const TEXTS = {
  en: {
    title: 'Web',
    intro:
      'Sites web_fetch and http_request may reach. A site no rule names asks before its first fetch; private, local and loopback addresses ask even when every site is allowed, unless a rule allows that exact host. http_request asks every time in supervised mode.',
    pattern: 'Site',
    patternHint: 'example.com, *.example.com (its subdomains), an IP address, or * (every site)',
    decision: 'Decision',
    allow: 'Allow',
    ask: 'Ask',
    deny: 'Deny',
    add: 'Add',
    remove: 'Remove',
    none: 'No rules: every new site asks.',
    maxKb: 'Read at most (KB)',
    timeout: 'Give up after (seconds)',
    save: 'Save web settings',
    saved: 'Saved.',
    badPattern: '"{pattern}" is not a site: write example.com, *.example.com, an IP address or *.',
    duplicate: '"{pattern}" is already in the list.',
    badNumber: '{field} must be a whole number from {min} to {max}.',
    failed: 'Could not save: {message}'
  },
  'zh-CN': {
    title: '网络',
    intro:
      'web_fetch 和 http_request 可以访问的网站。没有规则提到的网站在第一次获取前会询问；私有、本地和回环地址即使允许了所有网站也会询问，除非有规则允许该确切主机。在监督模式下，http_request 每次都会询问。',
    pattern: '网站',
    patternHint: 'example.com、*.example.com（其子域名）、IP 地址，或 *（所有网站）',
    decision: '决定',
    allow: '允许',
    ask: '询问',
    deny: '拒绝',
    add: '添加',
    remove: '删除',
    none: '没有规则：每个新网站都会询问。',
    maxKb: '最多读取（KB）',
    timeout: '超时（秒）',
    save: '保存网络设置',
    saved: '已保存。',
    badPattern: '“{pattern}”不是网站：请写 example.com、*.example.com、IP 地址或 *。',
    duplicate: '“{pattern}”已在列表中。',
    badNumber: '{field}必须是 {min} 到 {max} 之间的整数。',
    failed: '无法保存：{message}'
  }
} as const

type TextKey = keyof (typeof TEXTS)['en']
const DECISIONS: readonly Verdict[] = ['allow', 'ask', 'deny']

function useTexts() {
  const t = useT()
  const table = TEXTS[t.language] ?? TEXTS.en
  const say = (key: TextKey, vars: Record<string, string | number> = {}) =>
    table[key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole))
  return { say, t }
}

export function WebDomainsSection({ settings, pending }: { settings: Settings; pending?: PendingSections }) {
  const { say, t } = useTexts()
  const id = useId()
  const update = useSettingsStore((state) => state.update)
  const [rules, setRules] = useState<WebDomainRule[]>(settings.webDomains)
  const [pattern, setPattern] = useState('')
  const [decision, setDecision] = useState<Verdict>('allow')
  const [maxKb, setMaxKb] = useState(String(Math.round(settings.webMaxBytes / 1024)))
  const [timeout, setTimeoutText] = useState(String(settings.webTimeoutSec))
  const [problem, setProblem] = useState<string | null>(null)
  const [status, setStatus] = useState<'idle' | 'saving' | 'saved'>('idle')

  const addRule = () => {
    const parsed = WebDomainRuleSchema.safeParse({ pattern, decision })
    if (!parsed.success) return setProblem(say('badPattern', { pattern }))
    if (rules.some((rule) => rule.pattern.toLowerCase() === parsed.data.pattern.toLowerCase())) return setProblem(say('duplicate', { pattern: parsed.data.pattern }))
    setRules([...rules, { pattern: parsed.data.pattern.toLowerCase(), decision }])
    setPattern('')
    setProblem(null)
    setStatus('idle')
  }

  const dirty =
    JSON.stringify(rules) !== JSON.stringify(settings.webDomains) ||
    maxKb !== String(Math.round(settings.webMaxBytes / 1024)) ||
    timeout !== String(settings.webTimeoutSec)

  const save = async (): Promise<boolean> => {
    const kb = Number(maxKb)
    const seconds = Number(timeout)
    const shape = SettingsSchema.shape
    const fail = (message: string) => (setProblem(message), false)
    if (!Number.isInteger(kb) || !shape.webMaxBytes.safeParse(kb * 1024).success) return fail(say('badNumber', { field: say('maxKb'), min: 1, max: 51200 }))
    if (!Number.isInteger(seconds) || !shape.webTimeoutSec.safeParse(seconds).success) return fail(say('badNumber', { field: say('timeout'), min: 1, max: 300 }))
    setStatus('saving')
    const result = await update({ webDomains: rules, webMaxBytes: kb * 1024, webTimeoutSec: seconds })
    if (result.ok) {
      setProblem(null)
      setStatus('saved')
      return true
    }
    setStatus('idle')
    return fail(say('failed', { message: t.error(result.error) }))
  }
  usePendingSection(pending, 'web', dirty, save)

  return (
    <section className="chat-apps web-domains" data-testid="web-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{say('title')}</h3>
      <p className="field-hint chat-apps-intro">{say('intro')}</p>
      {rules.length === 0 ? (
        <p className="field-hint" data-testid="web-rules-none">
          {say('none')}
        </p>
      ) : (
        <ul className="chat-app-list" data-testid="web-rules">
          {rules.map((rule, index) => (
            <li key={rule.pattern} className="chat-app-head" data-testid="web-rule">
              <span className="mono">{rule.pattern}</span>
              <select
                className="text-input"
                aria-label={`${say('decision')} ${rule.pattern}`}
                value={rule.decision}
                onChange={(event) => {
                  setRules(rules.map((r, i) => (i === index ? { ...r, decision: event.target.value as Verdict } : r)))
                  setStatus('idle')
                }}
              >
                {DECISIONS.map((d) => (
                  <option key={d} value={d}>
                    {say(d)}
                  </option>
                ))}
              </select>
              <button
                type="button"
                className="btn btn-small"
                onClick={() => {
                  setRules(rules.filter((_, i) => i !== index))
                  setStatus('idle')
                }}
              >
                {say('remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="chat-app-head">
        <label className="field" htmlFor={`${id}-pattern`}>
          <span className="field-label">{say('pattern')}</span>
          <input
            id={`${id}-pattern`}
            className="text-input mono"
            data-testid="web-rule-pattern"
            value={pattern}
            spellCheck={false}
            autoComplete="off"
            placeholder="*.example.com"
            onChange={(event) => setPattern(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault()
                addRule()
              }
            }}
          />
          <span className="field-hint">{say('patternHint')}</span>
        </label>
        <label className="field" htmlFor={`${id}-decision`}>
          <span className="field-label">{say('decision')}</span>
          <select id={`${id}-decision`} className="text-input" data-testid="web-rule-decision" value={decision} onChange={(event) => setDecision(event.target.value as Verdict)}>
            {DECISIONS.map((d) => (
              <option key={d} value={d}>
                {say(d)}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="btn btn-small" data-testid="web-rule-add" onClick={addRule}>
          {say('add')}
        </button>
      </div>
      <div className="chat-app-head">
        <label className="field" htmlFor={`${id}-max`}>
          <span className="field-label">{say('maxKb')}</span>
          <input id={`${id}-max`} className="text-input" inputMode="numeric" data-testid="web-max-kb" value={maxKb} onChange={(event) => setMaxKb(event.target.value)} />
        </label>
        <label className="field" htmlFor={`${id}-timeout`}>
          <span className="field-label">{say('timeout')}</span>
          <input id={`${id}-timeout`} className="text-input" inputMode="numeric" data-testid="web-timeout" value={timeout} onChange={(event) => setTimeoutText(event.target.value)} />
        </label>
      </div>
      {problem && (
        <div className="chat-apps-status failed" role="alert" data-testid="web-error">
          <AlertIcon size={12} /> {problem}
        </div>
      )}
      <div className="chat-app-head">
        <button type="button" className="btn btn-small" data-testid="web-save" disabled={status === 'saving'} onClick={() => void save()}>
          {say('save')}
        </button>
        {status === 'saved' && (
          <span className="field-hint" role="status" data-testid="web-saved">
            {say('saved')}
          </span>
        )}
      </div>
    </section>
  )
}
