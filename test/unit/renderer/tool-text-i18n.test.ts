import { describe, expect, it } from 'vitest'
import { NativeRuntime } from '../../../src/main/runtime'
import { createShellTools } from '../../../src/main/tools'
import { dictionaries, makeTranslator } from '../../../src/renderer/src/i18n/translator'
import { attachmentDataUrl, catalogueByName, isShownImageType } from '../../../src/renderer/src/stores/reducers'
import type { ToolInfo } from '../../../src/shared/tool-text'

const shell = createShellTools({ runtime: new NativeRuntime() }).tools()[0]!
const catalogue = catalogueByName([
  { name: shell.name, category: shell.category, access: shell.access, messages: shell.messages } satisfies ToolInfo
])

describe('t.toolText: a tool’s texts through the catalogue', () => {
  it('renders the shell tool’s preview keys in the UI language, or in the language asked for', () => {
    const zh = makeTranslator('zh-CN', catalogue)
    expect(zh.toolText('shell', { key: 'title' })).toBe('运行 shell 命令')
    expect(zh.toolText('shell', { key: 'command' })).toBe('命令')
    // data-label in the approval modal: always the English label.
    expect(zh.toolText('shell', { key: 'command' }, 'en')).toBe('Command')
    expect(zh.toolText('shell', { key: 'runtime.native' })).toMatch(/^native（无沙箱/)
    expect(makeTranslator('en', catalogue).toolText('shell', { key: 'runsIn' })).toBe('Runs in')
  })

  it('shows the key for a tool or key it does not know, and substitutes params', () => {
    const t = makeTranslator('zh-CN', catalogue)
    expect(t.toolText('gone_tool', { key: 'title' })).toBe('title')
    expect(t.toolText('shell', { key: 'nope' })).toBe('nope')
    expect(makeTranslator('en').toolText('shell', { key: 'title' })).toBe('title')
    const withParams = catalogueByName([
      { name: 'x', category: 'fs', access: 'write', messages: { en: { title: 'Write {path}' }, 'zh-CN': {} } }
    ])
    expect(makeTranslator('zh-CN', withParams).toolText('x', { key: 'title', params: { path: 'a.md' } })).toBe('Write a.md')
    // Inherited object keys are not tools, and no tool name reaches the prototype.
    expect(makeTranslator('en', withParams).toolText('toString', { key: 'title' })).toBe('title')
    const odd = catalogueByName([{ name: '__proto__', category: 'mcp', access: 'write', messages: { en: { title: 'Odd' }, 'zh-CN': {} } }])
    expect(Object.getPrototypeOf(odd)).toBe(Object.prototype)
    expect(makeTranslator('en', odd).toolText('__proto__', { key: 'title' })).toBe('Odd')
  })
})

describe('t.alwaysBlocked: why "always allow" is not offered', () => {
  const none = { alwaysRule: null }
  it('translates the code, with the program', () => {
    const zh = makeTranslator('zh-CN')
    expect(zh.alwaysBlocked({ ...none, alwaysBlocked: { code: 'always.runs-other-code', program: 'python3' } })).toBe(
      '无法始终允许：“python3”会运行其他代码，因此从不允许“始终允许”。'
    )
    expect(zh.alwaysBlocked({ ...none, alwaysBlocked: { code: 'always.single-only' }, alwaysBlockedReason: 'Only a single…' })).toContain(
      '只有单个普通命令'
    )
    expect(makeTranslator('en').alwaysBlocked({ ...none, alwaysBlocked: { code: 'always.runs-other-code', program: 'bash' } })).toBe(
      'Always allow is not available: "bash" runs other code, so it is never allowed always.'
    )
  })

  it('falls back to the English reason of older records, then to the generic sentence; null when offered', () => {
    const zh = makeTranslator('zh-CN')
    expect(zh.alwaysBlocked({ ...none, alwaysBlockedReason: 'Old reason.' })).toBe('无法始终允许：Old reason.')
    expect(zh.alwaysBlocked({ ...none, alwaysBlocked: { code: 'always.runs-other-code' }, alwaysBlockedReason: 'R.' })).toBe(
      '无法始终允许：R.'
    )
    expect(zh.alwaysBlocked(none)).toBe(dictionaries['zh-CN']['approval.alwaysUnavailable'])
    expect(zh.alwaysBlocked({ alwaysRule: { tool: 'shell', match: ['ls'], decision: 'allow' } })).toBeNull()
  })
})

describe('attachments', () => {
  it('makes data: URLs for raster images only', () => {
    expect(attachmentDataUrl('image/png', 'AAAA')).toBe('data:image/png;base64,AAAA')
    expect(attachmentDataUrl('image/svg+xml', 'AAAA')).toBeNull()
    expect(isShownImageType('IMAGE/JPEG')).toBe(true)
    expect(isShownImageType('text/html')).toBe(false)
  })

  it('sizes read in both languages', () => {
    expect(makeTranslator('en').fileSize(512)).toBe('512 B')
    expect(makeTranslator('en').fileSize(1536)).toBe('1.5 KB')
    expect(makeTranslator('zh-CN').fileSize(3 * 1024 * 1024)).toBe('3 MB')
  })
})
