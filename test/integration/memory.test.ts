import { describe, expect, it } from 'vitest'
import type { BridgeEvent } from '../../src/shared'
import { createBridgeHandlers } from '../../src/main/bridge'
import { MEMORY_BLOCK_HEAD } from '../../src/main/agent'
import type { RecordedRequest } from '../fixtures/scripted-types'
import { runPrompt, scriptedApps } from '../helpers/temp-app'

const apps = scriptedApps()
const { setup } = apps

const ZH = '用户喜欢喝拿铁咖啡，不加糖'
const EN = 'The user prefers dark mode in every editor'

/** The system prompt and the user's message of request n (OpenAI wire format). */
function request(n: number): { system: string; user: string } {
  const messages = apps.server().requests[n]!.body.messages as Array<{ role: string; content: unknown }>
  const text = (content: unknown): string => (typeof content === 'string' ? content : JSON.stringify(content))
  return { system: text(messages.find((m) => m.role === 'system')?.content), user: text(messages.filter((m) => m.role === 'user').at(-1)?.content) }
}

/** The memory lines of a system prompt's memory block. */
function offered(system: string): string[] {
  const block = system.slice(system.indexOf(MEMORY_BLOCK_HEAD))
  return system.includes(MEMORY_BLOCK_HEAD) ? block.split('\n').filter((line) => line.startsWith('- [')) : []
}

describe('memory across conversations (scripted model)', () => {
  it('a memory saved in one conversation is offered in others, for Chinese and English questions, within the budget, never as the user\'s words', async () => {
    const app = await setup([
      { toolCalls: [{ name: 'memory_save', args: { text: ZH } }, { name: 'memory_save', args: { text: EN } }] },
      { text: 'I will remember both.' },
      { text: '拿铁，不加糖。' },
      { text: 'Dark mode.' },
      { text: 'ok' }
    ])
    // No front door: anything that asked would be denied, so the saves prove they run without a question.
    const first = await runPrompt(app, 'Remember: I like lattes without sugar, and dark mode everywhere.')
    expect(first.outcome.status).toBe('completed')
    expect(first.events.some((event) => event.type === 'approval_requested')).toBe(false)
    const saved = first.events.filter((event) => event.type === 'tool_call_completed')
    expect(saved.map((event) => event.type === 'tool_call_completed' && [event.tool, event.status, event.isError])).toEqual([
      ['memory_save', 'completed', false],
      ['memory_save', 'completed', false]
    ])
    // Unrelated memories around them, so ranking and the budget have work to do.
    for (let i = 0; i < 30; i++) app.app.memories.save({ text: `Project note ${i}: the release checklist item ${i} is done by the build bot`, scope: 'global' })

    const zh = await runPrompt(app, '我喜欢喝什么咖啡？')
    expect(zh.outcome.status).toBe('completed')
    const zhRequest = request(2)
    expect(zhRequest.user).toBe('我喜欢喝什么咖啡？')
    expect(zhRequest.user).not.toContain(ZH)
    expect(offered(zhRequest.system)[0]).toContain(ZH)
    expect(offered(zhRequest.system).join('\n')).not.toContain('release checklist')

    const en = await runPrompt(app, 'Which editor theme do I prefer?')
    expect(en.outcome.status).toBe('completed')
    const enRequest = request(3)
    expect(offered(enRequest.system)[0]).toContain(EN)
    expect(enRequest.user).toBe('Which editor theme do I prefer?')

    // A budget smaller than the two memories together: the lines stay within it, the best one first.
    await app.app.updateSettings({ memoryContextChars: 60 })
    await runPrompt(app, 'coffee 咖啡 editor dark mode')
    const lines = offered(request(4).system)
    expect(lines.length).toBeGreaterThan(0)
    expect(lines.join('\n').length).toBeLessThanOrEqual(60)
  })

  it('a workspace memory is offered only in its workspace; budget 0 offers none', async () => {
    const app = await setup([{ text: 'a' }, { text: 'b' }, { text: 'c' }])
    app.app.memories.save({ text: 'Use pnpm, not npm, in this repository', scope: 'workspace', workspace: app.workspace })
    await runPrompt(app, 'which package manager: pnpm or npm?')
    expect(offered(request(0).system).join('\n')).toContain('pnpm')

    const elsewhere = app.app.store.createConversation(undefined, `${app.workspace}-other`)
    await runPrompt(app, 'which package manager: pnpm or npm?', elsewhere.id)
    expect(offered(request(1).system)).toEqual([])

    await app.app.updateSettings({ memoryContextChars: 0 })
    await runPrompt(app, 'which package manager: pnpm or npm?')
    expect(request(2).system).not.toContain(MEMORY_BLOCK_HEAD)
  })

  it('a save is undone from the timeline through the bridge; the front doors hear of each change', async () => {
    const app = await setup([{ toolCalls: [{ name: 'memory_save', args: { text: EN, scope: 'workspace' } }] }, { text: 'Saved.' }])
    const heard: BridgeEvent[] = []
    app.app.events.subscribe((event) => heard.push(event))
    const { conversationId, events } = await runPrompt(app, 'remember my theme for this project')
    const call = events.find((event) => event.type === 'tool_call_completed')!
    const bridge = createBridgeHandlers(app.app, 'websocket')

    const { saves } = await bridge['memories.savedIn']({ conversationId })
    expect(saves).toHaveLength(1)
    expect(saves[0]!.callId).toBe(call.type === 'tool_call_completed' && call.callId)
    const memory = app.app.memories.get(saves[0]!.memoryId)!
    expect(memory).toMatchObject({ text: EN, scope: 'workspace', source: { conversationId, callId: saves[0]!.callId } })
    expect(memory.source?.messageId).toBeTruthy()
    expect(memory.workspace).toBe(app.workspace)

    expect(await bridge['memories.delete']({ id: saves[0]!.memoryId })).toEqual({ deleted: true })
    expect(await bridge['memories.savedIn']({ conversationId })).toEqual({ saves: [] })
    expect((await bridge['memories.list']({ query: 'dark mode' })).memories).toEqual([])
    expect(heard.filter((event) => event.kind === 'memories_changed')).toHaveLength(2)
  })

  it('forget and update ask in supervised mode: a denied forget keeps the memory, an allowed update changes it', async () => {
    const idIn = (request: RecordedRequest): string => /mem_\w+/.exec(JSON.stringify(request.body.messages.at(-1)))![0]
    const app = await setup([
      (request) => ({ toolCalls: [{ name: 'memory_forget', args: { id: idIn(request) } }] }),
      { text: 'Kept.' },
      (request) => ({ toolCalls: [{ name: 'memory_update', args: { id: idIn(request), text: '用户喜欢喝美式咖啡' } }] }),
      { text: 'Changed.' }
    ])
    const memory = app.app.memories.save({ text: ZH, scope: 'global' })
    app.setApprover('deny', 'keep it')
    const denied = await runPrompt(app, `forget ${memory.id}`)
    expect(denied.events.some((event) => event.type === 'approval_requested')).toBe(true)
    expect(app.app.memories.get(memory.id)?.text).toBe(ZH)

    app.setApprover('allow_once')
    const allowed = await runPrompt(app, `change ${memory.id}`)
    expect(allowed.events.some((event) => event.type === 'approval_requested')).toBe(true)
    expect(app.app.memories.get(memory.id)?.text).toBe('用户喜欢喝美式咖啡')
    expect(app.app.memories.list({ query: '美式' }).memories.map((m) => m.id)).toEqual([memory.id])
    expect(app.app.memories.list({ query: '拿铁' }).memories).toEqual([])
  })
})
