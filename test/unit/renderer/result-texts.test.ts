import { describe, expect, it } from 'vitest'
import { makeTranslator } from '../../../src/renderer/src/i18n/translator'
import { catalogueByName } from '../../../src/renderer/src/stores/reducers'
import { formatToolText, type ToolInfo } from '../../../src/shared/tool-text'

/** Result lines and errors from main, translated (docs/architecture.md, "Texts from main"). */
const messages = {
  en: { 'result.wrote': 'Wrote {bytes} bytes to {path}.' },
  'zh-CN': { 'result.wrote': '已写入 {bytes} 字节到 {path}。' }
}
const catalogue = catalogueByName([{ name: 'file_write', category: 'fs', access: 'write', messages } satisfies ToolInfo])

describe('formatToolText with params', () => {
  it('substitutes string and number params in the language asked for, English as the fallback', () => {
    const wrote = { key: 'result.wrote', params: { bytes: 12, path: 'notes/a.txt' } }
    expect(formatToolText(wrote, messages, 'zh-CN')).toBe('已写入 12 字节到 notes/a.txt。')
    expect(formatToolText(wrote, messages, 'en')).toBe('Wrote 12 bytes to notes/a.txt.')
    expect(formatToolText(wrote, { en: messages.en, 'zh-CN': {} }, 'zh-CN')).toBe('Wrote 12 bytes to notes/a.txt.')
  })

  it('leaves a placeholder without a param as it is, and never reads inherited params', () => {
    expect(formatToolText({ key: 'result.wrote', params: { bytes: 0 } }, messages, 'en')).toBe('Wrote 0 bytes to {path}.')
    expect(formatToolText({ key: 'result.wrote', params: {} }, messages, 'en')).toBe('Wrote {bytes} bytes to {path}.')
    expect(formatToolText({ key: 'x', params: { constructor: 'no' } }, { en: { x: '{toString}' }, 'zh-CN': {} }, 'en')).toBe('{toString}')
  })
})

describe("t.toolDisplay: a tool's result line or the runner's own", () => {
  it("takes a tool's key from its messages", () => {
    const display = { key: 'result.wrote', params: { bytes: 3, path: 'a.txt' } }
    expect(makeTranslator('zh-CN', catalogue).toolDisplay('file_write', display)).toBe('已写入 3 字节到 a.txt。')
    expect(makeTranslator('en', catalogue).toolDisplay('file_write', display)).toBe('Wrote 3 bytes to a.txt.')
  })

  it("takes a toolRun key from the UI's dictionaries, the denial's finding translated by its rule", () => {
    const denied = { key: 'toolRun.deniedByPolicy', params: { rule: 'shell.critical.rm-root', reason: 'Deletes the root folder recursively.' } }
    expect(makeTranslator('zh-CN', catalogue).toolDisplay('shell', denied)).toBe('安全规则不允许：递归删除根目录、系统目录或你的主目录。 未运行。')
    expect(makeTranslator('en', catalogue).toolDisplay('shell', denied)).toBe(
      'Not allowed by the safety rules: Deletes the root folder recursively. It did not run.'
    )
    expect(makeTranslator('zh-CN').toolDisplay('shell', { key: 'toolRun.deniedByUserReason', params: { reason: 'not now' } })).toBe(
      '你拒绝了这次调用（not now），未运行。'
    )
    expect(makeTranslator('en').toolDisplay('x', { key: 'toolRun.noSuchKey' })).toBe('toolRun.noSuchKey')
  })
})

describe('t.error: message codes first, the English message as the fallback', () => {
  const unreachable = {
    code: 'MODEL_UNREACHABLE',
    message: 'Cannot reach the model server at http://127.0.0.1:9/v1 (ECONNREFUSED).',
    key: 'errors.model.unreachable',
    params: { url: 'http://127.0.0.1:9/v1', reason: 'ECONNREFUSED' }
  }

  it('translates a known key with its params', () => {
    expect(makeTranslator('zh-CN').error(unreachable)).toBe('无法连接模型服务器 http://127.0.0.1:9/v1（ECONNREFUSED）')
    expect(makeTranslator('en').error(unreachable)).toBe('Cannot reach the model server at http://127.0.0.1:9/v1 (ECONNREFUSED)')
  })

  it("appends a server's own words untranslated", () => {
    const auth = { code: 'MODEL_AUTH', message: 'x', key: 'errors.model.auth', params: { status: 401, detail: 'Incorrect API key provided' } }
    expect(makeTranslator('zh-CN').error(auth)).toBe('模型服务器拒绝了 API 密钥（401）：Incorrect API key provided')
    expect(makeTranslator('en').error(auth)).toBe('The model server rejected the API key (401): Incorrect API key provided')
  })

  it('falls back to the code’s label and the English message for an unknown or missing key', () => {
    expect(makeTranslator('zh-CN').error({ code: 'BUSY', message: 'Busy.', key: 'errors.nope' })).toBe(
      `${makeTranslator('zh-CN')('error.BUSY')}: Busy.`
    )
    expect(makeTranslator('en').error({ code: 'NOT_FOUND', message: 'Gone.' })).toBe('Not found: Gone.')
  })
})
