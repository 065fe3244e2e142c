/**
 * Message versions through the real app (agent.send → store → scripted OpenAI-compatible server,
 * docs/architecture.md): what each model request carries after a regenerate, an edit, and a
 * question sent after an older answer; a regenerated question keeps its attachments.
 */
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import type { MessageAttachmentInput } from '../../src/shared'
import { scriptedApps } from '../helpers/temp-app'

const apps = scriptedApps()

/** Model request n's messages as text, system prompt left out. */
function asked(n: number): string {
  const messages = apps.server().requests[n]!.body.messages as Array<{ role: string }>
  return JSON.stringify(messages.filter((m) => m.role !== 'system'))
}

describe('message versions through agent.send', () => {
  it('regenerate, edit and a question after an older answer each send only their own path', async () => {
    const temp = await apps.setup([{ text: 'Blue' }, { text: 'Green' }, { text: 'Apple' }, { text: 'Because of the lake' }])
    const { agent, store } = temp.app
    const conversationId = store.createConversation().id

    const first = agent.send(conversationId, 'Name a colour')
    await agent.wait(first.runId)
    expect(first.question.parentRunId).toBeNull()

    const again = agent.send(conversationId, 'ignored: the stored question is asked', { regenerate: { runId: first.runId } })
    expect(again.question.id).toBe(first.question.id)
    await agent.wait(again.runId)
    expect(asked(1)).toContain('Name a colour')
    expect(asked(1)).not.toContain('Blue')
    expect(asked(1)).not.toContain('ignored')

    const edited = agent.send(conversationId, 'Name a fruit', { editOf: { messageId: first.question.id } })
    await agent.wait(edited.runId)
    expect(asked(2)).toContain('Name a fruit')
    for (const old of ['Name a colour', 'Blue', 'Green']) expect(asked(2)).not.toContain(old)

    // The chat had the first answer on screen and sends after it.
    const after = agent.send(conversationId, 'Why?', { parentRunId: first.runId })
    await agent.wait(after.runId)
    expect(asked(3)).toContain('Blue')
    for (const other of ['Green', 'fruit', 'Apple']) expect(asked(3)).not.toContain(other)

    // run_started names the question each run answers, for every front door.
    const started = temp.events.filter((event) => event.type === 'run_started')
    expect(started.map((event) => event.type === 'run_started' && event.question?.id)).toEqual([
      first.question.id,
      first.question.id,
      edited.question.id,
      after.question.id
    ])
  })

  it('refuses two placements at once, and runs of another conversation', async () => {
    const temp = await apps.setup([{ text: 'One' }])
    const { agent, store } = temp.app
    const a = store.createConversation().id
    const b = store.createConversation().id
    const first = agent.send(a, 'Hello')
    await agent.wait(first.runId)
    expect(() => agent.send(a, 'x', { parentRunId: first.runId, regenerate: { runId: first.runId } })).toThrow(/at most one/)
    expect(() => agent.send(b, 'x', { regenerate: { runId: first.runId } })).toThrow(/no question in this conversation/)
    expect(store.getConversation(b)!.messages).toEqual([])
  })

  it('a regenerated question is asked with its image and file again', async () => {
    const png = await sharp({ create: { width: 8, height: 6, channels: 3, background: '#3366ff' } }).png().toBuffer()
    const attachments: MessageAttachmentInput[] = [
      { kind: 'image', name: 'blue.png', mediaType: 'image/png', data: png.toString('base64') },
      { kind: 'text', name: 'notes.txt', text: 'logo on the left\n', bytes: 17 }
    ]
    const temp = await apps.setup([{ text: 'A blue square.' }, { text: 'Still a blue square.' }], { imageInput: 'on' })
    const { agent, store } = temp.app
    const conversationId = store.createConversation().id
    const first = agent.send(conversationId, 'What is this?', { attachments })
    await agent.wait(first.runId)
    const again = agent.send(conversationId, 'What is this?', { regenerate: { runId: first.runId } })
    await agent.wait(again.runId)

    const request = asked(1)
    expect(request).toContain(`data:image/png;base64,${png.toString('base64')}`)
    expect(request).toContain('logo on the left')
    expect(request).not.toContain('A blue square.')
    // Regenerating takes no new attachments: it asks the same question.
    expect(() => agent.send(conversationId, 'x', { regenerate: { runId: first.runId }, attachments })).toThrow(/no new attachments/)
  })
})
