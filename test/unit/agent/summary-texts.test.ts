/**
 * Issue 22, item 5: a tool's one-line summary that needs words ("the whole screen", "whole page")
 * is a message code of the tool's own table, said in the UI's language; the English stays the
 * `summary` the CLI, the store and exports show. Over every built-in pack: each `summary…` key is
 * in both languages with the same placeholders, and the Chinese is Chinese.
 */
import { describe, expect, it } from 'vitest'
import { describeCall } from '../../../src/main/agent/tool-call-texts'
import { NativeRuntime } from '../../../src/main/runtime'
import type { BrowserToolServices, DesktopToolServices, HardwareToolServices, MessagingToolServices, WebToolServices } from '../../../src/main/tools'
import { createBrowserTools, createDesktopTools, createFileTools, createHardwareTools, createMessagingTools, createShellTools, createWebTools } from '../../../src/main/tools'
import { formatToolText } from '../../../src/shared'

const unused = {} as never
const TOOLS = [
  ...createFileTools().tools(),
  ...createShellTools({ runtime: new NativeRuntime() }).tools(),
  ...createDesktopTools(unused as DesktopToolServices).tools(),
  ...createBrowserTools(unused as BrowserToolServices).tools(),
  ...createHardwareTools(unused as HardwareToolServices).tools(),
  ...createMessagingTools(unused as MessagingToolServices).tools(),
  ...createWebTools(unused as WebToolServices).tools()
]
const tool = (name: string) => TOOLS.find((t) => t.name === name)!
const placeholders = (template: string) => [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()

describe('tool summaries as message codes', () => {
  it('every summary key of every built-in tool is in English and Chinese, with the same placeholders', () => {
    let keys = 0
    for (const { name, messages } of TOOLS) {
      for (const key of Object.keys(messages.en).filter((k) => /^summary(\.|$)/.test(k))) {
        keys++
        const zh = messages['zh-CN'][key]
        expect(zh, `${name}: ${key}`).toBeDefined()
        expect(placeholders(zh!), `${name}: ${key}`).toEqual(placeholders(messages.en[key]!))
        expect(zh!.replace(/\{\w+\}/g, ''), `${name}: ${key}`).toMatch(/\p{Script=Han}/u)
      }
    }
    expect(keys).toBeGreaterThanOrEqual(10)
  })

  it('a screenshot of the whole screen says so in the UI language; the CLI keeps the English', () => {
    const screenshot = tool('screenshot')
    const screen = describeCall(screenshot, {})
    expect(screen).toEqual({ summary: 'the whole screen', summaryText: { key: 'summary.screen' } })
    expect(formatToolText(screen.summaryText!, screenshot.messages, 'zh-CN')).toBe('整个屏幕')
    const window = describeCall(screenshot, { window: 'Notes' })
    expect(window.summary).toBe('window "Notes"')
    expect(formatToolText(window.summaryText!, screenshot.messages, 'zh-CN')).toBe('窗口“Notes”')
  })

  it('a summary of the call’s own values stays plain text, with no code', () => {
    expect(describeCall(tool('shell'), { command: 'ls -la' })).toEqual({ summary: 'ls -la' })
    expect(describeCall(tool('file_read'), { path: 'a.txt' })).toEqual({ summary: 'a.txt' })
    expect(describeCall(tool('mouse_click'), { x: 3, y: 4, button: 'right', double: true })).toMatchObject({ summary: 'double right at (3, 4)' })
    expect(describeCall(tool('browser_close'), {})).toEqual({ summary: 'close the browser', summaryText: { key: 'summary' } })
  })
})
