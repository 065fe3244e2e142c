import { afterEach, describe, expect, it, vi } from 'vitest'
import { ConversationDetailSchema } from '../../../src/shared'
import { exportConversation, exportFileBase } from '../../../src/main/store'
import { openStore, runEvents } from './helpers'

const T0 = Date.UTC(2030, 0, 2, 9, 30) // after createConversation's Date.now(), as in real use
const USAGE = { inputTokens: 1200, outputTokens: 5, totalTokens: 1205, cachedInputTokens: 1000 }
/** What the failed second run's one finished model call used: a failed run's tokens count too. */
const FAILED_USAGE = { inputTokens: 7, outputTokens: 0, totalTokens: 7 }

afterEach(() => {
  vi.restoreAllMocks()
})

/** A conversation with a question, a tool call that ran, one that was denied, an answer, and a failed second run. */
function seeded() {
  const store = openStore()
  // The store stamps conversations and the user's messages with Date.now(); events carry their own time.
  const clock = vi.spyOn(Date, 'now').mockReturnValue(T0 - 1)
  const { id } = store.createConversation('Q3 budget: review <draft>')
  store.addUserMessage(id, 'run_1', 'Check the budget file')
  const event = runEvents(id, 'run_1', T0)
  store.recordEvent(event('run_started', { prompt: 'Check the budget file', model: 'openai:test' }))
  store.recordEvent(event('text_delta', { messageId: 'msg_a1', delta: 'Let me look.' }))
  store.recordEvent(event('tool_call_started', { callId: 'call_1', tool: 'shell', args: { command: 'cat budget.md' }, summary: 'cat budget.md' }))
  store.recordEvent(
    event('tool_call_completed', {
      callId: 'call_1',
      tool: 'shell',
      status: 'completed',
      isError: false,
      output: 'Total: 12k\n```\nnot a fence\n```\n[exit 0]',
      durationMs: 1_250
    })
  )
  store.recordEvent(event('tool_call_started', { callId: 'call_2', tool: 'file_write', args: { path: 'x.txt', content: 'x' } }))
  store.recordEvent(event('tool_call_completed', { callId: 'call_2', tool: 'file_write', status: 'denied', isError: true, output: 'denied by the user', durationMs: 3 }))
  store.recordEvent(event('text_delta', { messageId: 'msg_a2', delta: 'The total is **12k**.' }))
  store.recordEvent(event('run_completed', { text: 'The total is **12k**.', stopReason: 'final', iterations: 2, usage: USAGE }))

  clock.mockReturnValue(T0 + 999)
  store.addUserMessage(id, 'run_2', '再检查一遍产品群的预算')
  const second = runEvents(id, 'run_2', T0 + 1_000)
  store.recordEvent(second('run_started', { prompt: '再检查一遍产品群的预算', model: 'openai:test' }))
  store.recordEvent(second('run_failed', { error: { code: 'MODEL_ERROR', message: 'the server went away' }, usage: FAILED_USAGE }))
  store.saveSettings({ apiKeyEnv: 'DESKCLAW_SECRET_ENV_NAME', baseUrl: 'http://secret-host.invalid/v1' })
  return { store, id, detail: store.getConversation(id)! }
}

describe('conversation export', () => {
  it('Markdown: the title, each question and answer in order, tool calls as collapsed summaries with their status', () => {
    const { detail } = seeded()
    const { filename, mediaType, content } = exportConversation(detail, 'markdown', { now: T0 + 5_000 })
    expect(filename).toBe('Q3 budget review draft.md')
    expect(mediaType).toBe('text/markdown')
    expect(content.split('\n').slice(0, 3)).toEqual([
      '# Q3 budget: review \\<draft\\>',
      '',
      '*DeskClaw conversation · created 2030-01-02 09:29 UTC · exported 2030-01-02 09:30 UTC*'
    ])
    const order = ['## You', 'Check the budget file', '## DeskClaw', 'Let me look.', '<summary><strong>shell</strong> · <code>cat budget.md</code> · Completed · 1.3 s</summary>', '<summary><strong>file_write</strong> · <code>x.txt</code> · Denied · 3 ms</summary>', 'The total is **12k**.', '## You', '再检查一遍产品群的预算', '## DeskClaw', '> The run failed: the server went away']
    let from = 0
    for (const line of order) {
      const at = content.indexOf(line, from)
      expect(at, line).toBeGreaterThanOrEqual(from)
      from = at + line.length
    }
    // The output's own ``` cannot close the block around it.
    expect(content).toContain('````text\nTotal: 12k\n```\nnot a fence\n```\n[exit 0]\n````')
    expect(content.match(/<details>/g)).toHaveLength(2)
    expect(content.match(/<\/details>/g)).toHaveLength(2)
    expect(content).toContain('"command": "cat budget.md"')
  })

  it("Markdown: each run's tokens after it (failed runs too), the conversation's total at the end", () => {
    const { detail } = seeded()
    const { content } = exportConversation(detail, 'markdown')
    const order = [
      'The total is **12k**.',
      '*Tokens: 1,200 in · 5 out · 1,000 cached · 1,205 in all*',
      '## You',
      '> The run failed: the server went away',
      '*Tokens: 7 in · 0 out · 7 in all*',
      '---',
      '*Conversation total: 1,212 tokens (1,207 in · 5 out)*'
    ]
    let from = 0
    for (const line of order) {
      const at = content.indexOf(line, from)
      expect(at, line).toBeGreaterThanOrEqual(from)
      from = at + line.length
    }
    const zh = exportConversation(detail, 'markdown', { language: 'zh-CN' }).content
    expect(zh).toContain('*Token：输入 1,200 · 输出 5 · 缓存 1,000 · 共 1,205*')
    expect(zh).toContain('*对话合计：1,212 个 token（输入 1,207 · 输出 5）*')
  })

  it('Markdown: no token lines when no run reported any', () => {
    const store = openStore()
    const { id } = store.createConversation('Quiet')
    store.addUserMessage(id, 'run_q', 'hi')
    const event = runEvents(id, 'run_q', T0)
    store.recordEvent(event('run_started', { prompt: 'hi', model: 'openai:test' }))
    store.recordEvent(event('text_delta', { messageId: 'msg_q', delta: 'Hello.' }))
    store.recordEvent(event('run_completed', { text: 'Hello.', stopReason: 'final', iterations: 1, usage: {} }))
    const { content } = exportConversation(store.getConversation(id)!, 'markdown')
    expect(content).not.toContain('Tokens')
    expect(content).not.toContain('total')
    expect(content).not.toContain('---')
  })

  it('Markdown headings follow the language asked for', () => {
    const { detail } = seeded()
    const { content } = exportConversation(detail, 'markdown', { language: 'zh-CN' })
    expect(content).toContain('## 你')
    expect(content).toContain('· 已完成 ·')
    expect(content).toContain('> 运行失败：the server went away')
  })

  it('JSON: the full ConversationDetail, the total usage, and nothing else (no settings)', () => {
    const { detail } = seeded()
    const { filename, mediaType, content } = exportConversation(detail, 'json')
    expect(filename).toBe('Q3 budget review draft.json')
    expect(mediaType).toBe('application/json')
    const { usage, ...rest } = JSON.parse(content) as Record<string, unknown>
    expect(rest).toEqual(detail)
    expect(ConversationDetailSchema.strict().safeParse(rest).success).toBe(true)
    // Each run with its model and tokens, and the conversation's total beside them.
    expect(detail.runs.map((run) => [run.model, run.usage])).toEqual([
      ['openai:test', USAGE],
      ['openai:test', FAILED_USAGE]
    ])
    expect(usage).toEqual({ inputTokens: 1207, outputTokens: 5, totalTokens: 1212, cachedInputTokens: 1000 })
    for (const text of [content, exportConversation(detail, 'markdown').content]) {
      expect(text).not.toContain('DESKCLAW_SECRET_ENV_NAME')
      expect(text).not.toContain('secret-host')
    }
  })

  it('file names: no separators or reserved characters, Chinese kept, never empty', () => {
    expect(exportFileBase('产品群 / 预算: Q3?')).toBe('产品群 预算 Q3')
    expect(exportFileBase('  ..hidden..  ')).toBe('hidden')
    expect(exportFileBase('a\u0000b\nc')).toBe('a b c')
    expect(exportFileBase('???')).toBe('conversation')
    expect(exportFileBase('CON')).toBe('conversation')
    expect(Array.from(exportFileBase('长'.repeat(200)))).toHaveLength(80)
  })
})
