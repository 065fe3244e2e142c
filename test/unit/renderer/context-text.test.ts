/** The context meter's and the compaction marker's words in both languages (features/usage/context-text.ts), and what the chat store keeps for them. */
import { describe, expect, it } from 'vitest'
import { makeTranslator } from '../../../src/renderer/src/i18n/translator'
import { buildTimeline, emptySnapshot, reduceChat } from '../../../src/renderer/src/stores/reducers'
import { compactionLine, contextMeterDetail, contextMeterLine, contextPercent } from '../../../src/renderer/src/features/usage/context-text'

const en = makeTranslator('en')
const zh = makeTranslator('zh-CN')

describe('context meter', () => {
  it('the latest request’s share of the window, and its counts and source in the tooltip', () => {
    const fill = { inputTokens: 12_300, window: 32_768, source: 'model-list' as const }
    expect(contextPercent(fill)).toBe(38)
    expect(contextMeterLine(en, fill)).toBe('38 %')
    expect(contextMeterDetail(en, fill)).toBe('Context: 12.3k of 32.8k tokens (38 %) · window from the model list')
    expect(contextMeterLine(zh, fill)).toBe('38%')
    expect(contextMeterDetail(zh, fill)).toBe('上下文：已用 1.23万 / 3.28万 token（38%） · 窗口大小来自模型列表')
    expect(contextMeterDetail(en, { inputTokens: 900, window: 8192, source: 'setting' })).toBe('Context: 900 of 8,192 tokens (11 %) · window from Settings')
    expect(contextMeterDetail(en, { inputTokens: 900, window: 8192, source: 'default' })).toContain('default window')
  })
})

describe('compaction marker', () => {
  it('says what was summarised and shortened, and the prompt before and after', () => {
    const compaction = { summarised: 24, elided: 3, tokensBefore: 6300, tokensAfter: 2100, window: 8192 }
    expect(compactionLine(en, compaction)).toBe('Context compacted to fit the model’s window: 24 earlier messages summarised, 3 old outputs shortened (6,300 → 2,100 tokens)')
    expect(compactionLine(zh, compaction)).toBe('上下文已压缩，以适应模型的窗口：24 条较早的消息已概括，3 个旧输出已缩短（6,300 → 2,100 token）')
    expect(compactionLine(en, { ...compaction, summarised: 0, forced: true })).toBe('The model refused a request as too long; context compacted: 3 old outputs shortened (6,300 → 2,100 tokens)')
  })
})

describe('the chat store and the timeline', () => {
  const scope = { runId: 'run_1', conversationId: 'c1' }
  it('keeps the latest fill for the meter, and marks only compactions that summarised or were forced', () => {
    let state = reduceChat(emptySnapshot('c1'), { type: 'run_started', ...scope, at: 1, prompt: 'go', model: 'openai-compatible:m' })
    state = reduceChat(state, { type: 'context_usage', ...scope, at: 2, inputTokens: 5000, window: 8192, source: 'setting' })
    state = reduceChat(state, { type: 'context_compacted', ...scope, at: 3, summarised: 0, elided: 1, tokensBefore: 7300, tokensAfter: 6400, window: 8192 })
    state = reduceChat(state, { type: 'context_compacted', ...scope, at: 4, summarised: 12, elided: 1, tokensBefore: 7800, tokensAfter: 6600, window: 8192 })
    state = reduceChat(state, { type: 'context_usage', ...scope, at: 5, inputTokens: 6600, window: 8192, source: 'setting' })
    expect(state.runs[0]!.context).toEqual({ inputTokens: 6600, window: 8192, source: 'setting' })
    expect(state.runs[0]!.compactions).toHaveLength(2)
    const markers = buildTimeline(state).filter((item) => item.kind === 'compaction')
    expect(markers.map((item) => item.kind === 'compaction' && item.compaction.summarised)).toEqual([12])
  })
})
