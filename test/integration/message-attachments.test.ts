/**
 * Attachments through the real app (agent.send → store → scripted OpenAI-compatible server): what
 * the model request carries for an image and a text file, with image input on and off, what the
 * next turn still sees, what the conversation and its export show afterwards.
 */
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import type { MessageAttachmentInput } from '../../src/shared'
import { exportConversation } from '../../src/main/store'
import { scriptedApps } from '../helpers/temp-app'

const apps = scriptedApps()

let png: Buffer
beforeAll(async () => {
  png = await sharp({ create: { width: 64, height: 40, channels: 3, background: '#e5484d' } }).png().toBuffer()
})

const attachments = (): MessageAttachmentInput[] => [
  { kind: 'image', name: 'red.png', mediaType: 'image/png', data: png.toString('base64') },
  { kind: 'text', name: 'todo.txt', text: 'buy milk\nwater plants\n', bytes: 22 }
]

/** The user messages of model request n (OpenAI wire format). */
function userMessages(n: number): Array<{ content: unknown }> {
  return apps.server().requests[n]!.body.messages.filter((m: { role: string }) => m.role === 'user')
}

describe('attachments in messages', () => {
  it('image input on: an image part and the inlined file now, the image again next turn; stored and exported by name', async () => {
    const temp = await apps.setup([{ text: 'A red rectangle and two chores.' }, { text: 'Still red.' }], { imageInput: 'on' })
    const conversationId = temp.app.store.createConversation().id
    const sent = temp.app.agent.send(conversationId, 'What do you see?', { attachments: attachments() })
    expect(sent.unseenImages).toBeUndefined()
    expect(await temp.app.agent.wait(sent.runId)).toMatchObject({ status: 'completed' })

    const [first] = userMessages(0)
    expect(first!.content).toEqual([
      { type: 'text', text: 'What do you see?\n\nAttached file “todo.txt” (22 B):\n```\nbuy milk\nwater plants\n```' },
      { type: 'text', text: '[image red.png (64×40):]' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } }
    ])
    const started = temp.events.find((event) => event.type === 'run_started')
    expect(started && started.type === 'run_started' && started.attachments?.map((a) => [a.name, a.width, a.height])).toEqual([
      ['red.png', 64, 40],
      ['todo.txt', undefined, undefined]
    ])

    // The next turn still shows the model the image, read back from the attachments table.
    const next = temp.app.agent.send(conversationId, 'And now?')
    await temp.app.agent.wait(next.runId)
    const history = userMessages(1)
    expect(history).toHaveLength(2)
    expect(JSON.stringify(history[0]!.content)).toContain(`data:image/png;base64,${png.toString('base64')}`)
    expect(history[1]!.content).toBe('And now?')

    // The question keeps its refs; the image's bytes are one fetch away.
    const detail = temp.app.store.getConversation(conversationId)!
    const question = detail.messages.find((m) => m.role === 'user' && m.content === 'What do you see?')!
    expect(question.attachments?.map((a) => [a.kind, a.name, a.mediaType, a.bytes])).toEqual([
      ['image', 'red.png', 'image/png', png.byteLength],
      ['file', 'todo.txt', 'text/plain', 22]
    ])
    expect(temp.app.store.getAttachment(question.attachments![0]!.id)!.data.equals(png)).toBe(true)
    expect(detail.messages.find((m) => m.content === 'And now?')!.attachments).toBeUndefined()

    const markdown = exportConversation(detail, 'markdown').content
    expect(markdown).toContain('*Attached: red.png (image/png, ')
    expect(markdown).toContain('todo.txt (text/plain, 22 B)*')
    expect(exportConversation(detail, 'markdown', { language: 'zh-CN' }).content).toContain('*附件: red.png')
  })

  it('image input off: the model gets a note instead, and the answer says how many it did not see', async () => {
    const temp = await apps.setup([{ text: 'I cannot see it.' }], { imageInput: 'off' })
    const conversationId = temp.app.store.createConversation().id
    const sent = temp.app.agent.send(conversationId, 'What do you see?', { attachments: attachments() })
    expect(sent.unseenImages).toBe(1)
    await temp.app.agent.wait(sent.runId)
    const [first] = userMessages(0)
    expect(first!.content).toBe(
      'What do you see?\n\nAttached file “todo.txt” (22 B):\n```\nbuy milk\nwater plants\n```\n[image red.png (64×40) attached; this model cannot see images]'
    )
    expect(JSON.stringify(apps.server().requests[0]!.body)).not.toContain('image_url')
  })

  it('refuses bytes that are no image before anything is stored', async () => {
    const temp = await apps.setup([{ text: 'never' }], { imageInput: 'on' })
    const conversationId = temp.app.store.createConversation().id
    const fake: MessageAttachmentInput = { kind: 'image', name: 'fake.png', mediaType: 'image/png', data: Buffer.from('hello').toString('base64') }
    expect(() => temp.app.agent.send(conversationId, 'look', { attachments: [fake] })).toThrow(/not a PNG, JPEG, WebP or GIF/)
    expect(temp.app.store.getConversation(conversationId)!.messages).toEqual([])
    expect(apps.server().requests).toHaveLength(0)
  })
})
