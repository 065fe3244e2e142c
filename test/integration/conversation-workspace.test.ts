import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { BridgeEvent } from '../../src/shared'
import { createBridgeHandlers } from '../../src/main/bridge'
import { scriptedApps } from '../helpers/temp-app'

// The palette starts a task in a folder the user picks: that conversation's tools work there, the
// folder shows among the recent ones, and "open in DeskClaw" asks the main window to show it.
describe('a conversation with its own workspace', () => {
  const apps = scriptedApps()
  const folders: string[] = []
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
  })

  it('runs its tools in its own folder, lists the folder as recent, and can be shown in the main window', async () => {
    const temp = await apps.setup([{ toolCalls: [{ name: 'file_write', args: { path: 'note.txt', content: 'here' } }] }, { text: 'Written.' }], { autonomy: 'full' })
    const elsewhere = mkdtempSync(join(tmpdir(), 'deskclaw-elsewhere-'))
    folders.push(elsewhere)
    const target = join(elsewhere, 'project')
    const handlers = createBridgeHandlers(temp.app, 'websocket')

    const conversation = await handlers['conversations.create']({ title: 'From the palette', workspace: target })
    expect(conversation.workspace).toBe(target)
    const { runId } = await handlers['agent.send']({ conversationId: conversation.id, text: 'write a note' })
    await temp.app.agent.wait(runId)
    expect(readFileSync(join(target, 'note.txt'), 'utf8')).toBe('here')
    expect(existsSync(join(temp.workspace, 'note.txt'))).toBe(false)

    const plain = await handlers['conversations.create']({})
    expect(plain.workspace).toBeNull()
    expect((await handlers['workspaces.recent']({})).workspaces).toEqual([temp.workspace, target])
    expect((await handlers['conversations.list']({})).find((c) => c.id === conversation.id)?.workspace).toBe(target)

    const events: BridgeEvent[] = []
    temp.app.events.subscribe((event) => events.push(event))
    expect(await handlers['app.showConversation']({ conversationId: conversation.id })).toEqual({ shown: true })
    expect(events).toContainEqual({ kind: 'show_conversation', conversationId: conversation.id })
    expect(() => handlers['app.showConversation']({ conversationId: 'conv_missing' })).toThrow(/does not exist/)
    expect(() => handlers['conversations.create']({ workspace: 'relative/folder' })).toThrow(/must be an absolute folder/)
  })
})

describe('the untitled conversation', () => {
  const apps = scriptedApps()

  it('is stored untitled (the UI names it in its language), and the first question names it', async () => {
    const temp = await apps.setup([{ text: 'Hi.' }], { language: 'zh-CN' })
    const handlers = createBridgeHandlers(temp.app, 'websocket')
    const conversation = await handlers['conversations.create']({})
    expect(conversation.title).toBe('')
    const { runId } = await handlers['agent.send']({ conversationId: conversation.id, text: '整理一下周报' })
    await temp.app.agent.wait(runId)
    expect((await handlers['conversations.list']({})).find((c) => c.id === conversation.id)?.title).toBe('整理一下周报')
    temp.app.updateSettings({ language: 'en' })
    expect((await handlers['conversations.create']({})).title).toBe('')
    expect((await handlers['conversations.create']({ title: '  Named  ' })).title).toBe('Named')
  })
})
