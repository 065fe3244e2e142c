/**
 * A tool pack from the test tree (test/fixtures/tools/stamp) plugs into the real app: judged by its
 * declared access and subject, approved, run, stored with its summary and image, and its image
 * reaches the scripted model server as an image part (or as a note for a text-only model).
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { previewAsText, type AgentEventOf } from '../../../src/shared'
import { createStampTools } from '../../fixtures/tools/stamp'
import { STAMP_PNG } from '../../fixtures/tools/stamp/stamp-note'
import { runPrompt, scriptedApps } from '../../helpers/temp-app'

const apps = scriptedApps()
const STAMP_CALL = { toolCalls: [{ name: 'stamp_note', args: { file: 'notes/stamped.txt', note: 'ship it' } }] }

type Message = { role: string; content: unknown }
const messagesOf = (request: number): Message[] => apps.server().requests[request]!.body.messages
const imageParts = (messages: Message[]) =>
  messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as Array<{ type: string; image_url?: { url: string } }>) : [])).filter((p) => p.type === 'image_url')

describe('a tool pack outside src/', () => {
  it('is judged by its access and subject, approved, run and stored; its PNG reaches a vision model as an image part', async () => {
    const app = await apps.setup([STAMP_CALL, { text: 'Stamped.' }], { imageInput: 'on' }, { toolSources: [createStampTools()] })
    app.setApprover('allow_once')
    const { events, conversationId } = await runPrompt(app, 'stamp a note')

    // Judged: a write of a path in the workspace asks, and the finding points into the tool's own argument.
    const judged = events.find((e): e is AgentEventOf<'risk_assessed'> => e.type === 'risk_assessed')!
    expect(judged.assessment.verdict).toBe('ask')
    expect(judged.assessment.findings.map((f) => f.rule)).toContain('tool.fs_write')
    expect(judged.assessment.alwaysRule).toEqual({ tool: 'stamp_note', match: ['notes', 'stamped.txt'], decision: 'allow', why: 'Allowed always by the user' })

    // Asked with the tool's own preview, in its own words (English and Chinese), image included.
    const question = events.find((e): e is AgentEventOf<'approval_requested'> => e.type === 'approval_requested')!
    const messages = app.app.registry.get('stamp_note')!.messages
    expect(previewAsText(question.preview, messages, 'en').title).toBe('Stamp a note into notes/stamped.txt')
    expect(previewAsText(question.preview, messages, 'zh-CN')).toEqual({
      title: '在 notes/stamped.txt 中盖章便签',
      fields: [
        { label: '便签文件', value: 'notes/stamped.txt' },
        { label: '便签内容', value: 'ship it' }
      ]
    })
    expect(Buffer.from(question.preview.image!.data, 'base64').equals(STAMP_PNG)).toBe(true)

    // Run.
    expect(readFileSync(join(app.workspace, 'notes/stamped.txt'), 'utf8')).toBe('ship it\n')
    const started = events.find((e) => e.type === 'tool_call_started')
    expect(started).toMatchObject({ tool: 'stamp_note', summary: 'notes/stamped.txt ← ship it' })
    const completed = events.find((e): e is AgentEventOf<'tool_call_completed'> => e.type === 'tool_call_completed')!
    expect(completed).toMatchObject({ status: 'completed', attachments: [{ kind: 'image', mediaType: 'image/png', name: 'stamp.png', width: 48, height: 32, bytes: STAMP_PNG.length }] })

    // Stored: the record keeps the summary and the attachment, and the bytes come back exactly.
    const record = app.app.store.getConversation(conversationId)!.toolCalls[0]!
    expect(record).toMatchObject({ tool: 'stamp_note', status: 'completed', summary: 'notes/stamped.txt ← ship it' })
    const stored = app.app.store.getAttachment(record.attachments![0]!.id)!
    expect(stored).toMatchObject({ conversationId, kind: 'image', mediaType: 'image/png' })
    expect(stored.data.equals(STAMP_PNG)).toBe(true)

    // The model's next request: the tool result text, then the image as an image part.
    const second = messagesOf(1)
    const toolMessage = second.find((m) => m.role === 'tool')!
    expect(toolMessage.content).toContain('Stamped notes/stamped.txt.')
    expect(toolMessage.content).toContain('1 image attached in the next message')
    const images = imageParts(second)
    expect(images).toHaveLength(1)
    expect(images[0]!.image_url!.url).toBe(`data:image/png;base64,${STAMP_PNG.toString('base64')}`)
    // The image follows the tool message, in a user message.
    const imageMessage = second.findIndex((m) => m.role === 'user' && Array.isArray(m.content))
    expect(imageMessage).toBeGreaterThan(second.indexOf(toolMessage))
  })

  it('a model configured as text-only gets a note instead of the image', async () => {
    const app = await apps.setup([STAMP_CALL, { text: 'Stamped.' }], { imageInput: 'off' }, { toolSources: [createStampTools()] })
    app.setApprover('allow_once')
    await runPrompt(app, 'stamp a note')
    const second = messagesOf(1)
    expect(imageParts(second)).toEqual([])
    const toolMessage = second.find((m) => m.role === 'tool')!
    expect(toolMessage.content).toContain('that you cannot see: this model is configured as text-only')
    expect(JSON.stringify(second)).not.toContain(STAMP_PNG.toString('base64'))
  })

  it('auto sends no image to a model whose name does not say vision on an OpenAI-compatible server', async () => {
    const app = await apps.setup([STAMP_CALL, { text: 'Stamped.' }], { imageInput: 'auto' }, { toolSources: [createStampTools()] })
    app.setApprover('allow_once')
    await runPrompt(app, 'stamp a note')
    expect(imageParts(messagesOf(1))).toEqual([])
  })

  it('denied, the tool does not run and nothing is stored', async () => {
    const app = await apps.setup([STAMP_CALL, { text: 'ok' }], { imageInput: 'on' }, { toolSources: [createStampTools()] })
    app.setApprover('deny', 'not now')
    const { conversationId } = await runPrompt(app, 'stamp a note')
    expect(existsSync(join(app.workspace, 'notes/stamped.txt'))).toBe(false)
    const record = app.app.store.getConversation(conversationId)!.toolCalls[0]!
    expect(record).toMatchObject({ status: 'denied' })
    expect(record.attachments).toBeUndefined()
  })
})
