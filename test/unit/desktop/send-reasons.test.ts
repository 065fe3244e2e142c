import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SEND_REASONS, reasonText, type SendReasonCode } from '../../../src/main/chat-apps'
import { createMessagingTools, type MessagingToolServices } from '../../../src/main/tools'

/**
 * Every reason the send-text task can give is a message code with an English and a Simplified
 * Chinese text naming the same parameters (docs/desktop.md, "Sending messages"). Generated over the
 * table and over the codes the task's source really emits — no example list.
 */
const TASKS_DIR = join(process.cwd(), 'src', 'main', 'chat-apps', 'send')
const codes = Object.keys(SEND_REASONS) as SendReasonCode[]
const paramsOf = (template: string) => [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort()

/** `sendReason('code'` anywhere in the tasks' source: what the task can emit. */
function emittedCodes(): Set<string> {
  const found = new Set<string>()
  for (const file of readdirSync(TASKS_DIR).filter((f) => f.endsWith('.ts'))) {
    const source = readFileSync(join(TASKS_DIR, file), 'utf8')
    for (const match of source.matchAll(/sendReason\(\s*'(\w+)'/g)) found.add(match[1]!)
  }
  return found
}

describe('send-text reasons', () => {
  it.each(codes)('%s: English and Chinese, the same parameters', (code) => {
    const { en, 'zh-CN': zh } = SEND_REASONS[code]
    expect(en.trim()).not.toBe('')
    expect(zh).toMatch(/\p{Script=Han}/u)
    expect(paramsOf(zh), `${code}: ${zh}`).toEqual(paramsOf(en))
    // Rendered with its parameters, nothing is left unfilled in either language.
    const params = Object.fromEntries(paramsOf(en).map((p) => [p, `<${p}>`]))
    for (const language of ['en', 'zh-CN'] as const) expect(reasonText({ code, params }, language)).not.toMatch(/\{\w+\}/)
  })

  it('every code the task emits is in the table, and every code in the table is emitted', () => {
    const emitted = emittedCodes()
    expect(emitted.size).toBeGreaterThan(10)
    expect([...emitted].filter((code) => !codes.includes(code as SendReasonCode))).toEqual([])
    expect(codes.filter((code) => !emitted.has(code))).toEqual([])
  })

  it('desktop_send_text says each reason as its result line in both languages', () => {
    const tool = [...createMessagingTools({} as MessagingToolServices).tools()].find((t) => t.name === 'desktop_send_text')!
    for (const code of codes) {
      for (const status of ['notSent', 'unknown']) {
        const key = `${status}.${code}`
        expect(tool.messages.en[key], key).toBeTruthy()
        expect(tool.messages['zh-CN'][key], key).toMatch(/^(未发送|未知)：/)
        expect(paramsOf(tool.messages['zh-CN'][key]!)).toEqual(paramsOf(tool.messages.en[key]!))
      }
    }
  })

  it("every step detail with words of its own, and every failed step's reason, is a text of desktop_send_text in both languages", () => {
    const tool = [...createMessagingTools({} as MessagingToolServices).tools()].find((t) => t.name === 'desktop_send_text')!
    const keys = new Set<string>(codes.map((code) => `reason.${code}`))
    for (const file of readdirSync(TASKS_DIR).filter((f) => f.endsWith('.ts'))) {
      const source = readFileSync(join(TASKS_DIR, file), 'utf8')
      for (const match of source.matchAll(/key: '(step\.[\w.]+)'/g)) keys.add(match[1]!)
    }
    expect([...keys].filter((key) => key.startsWith('step.')).length).toBeGreaterThanOrEqual(5)
    for (const key of keys) {
      expect(tool.messages.en[key], key).toBeTruthy()
      expect(tool.messages['zh-CN'][key], key).toMatch(/\p{Script=Han}/u)
      expect(paramsOf(tool.messages['zh-CN'][key]!), key).toEqual(paramsOf(tool.messages.en[key]!))
    }
  })
})
