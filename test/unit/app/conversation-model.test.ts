/**
 * A conversation's own model (the chat header's picker): stored in the conversations table
 * (schema 5), kept across reopening, sent to the server instead of the model in Settings, and
 * reset to it with null. Plus the bridge calls around it: conversations.setModel, providers.listModels /
 * testConnection on the server Settings name (or the one the form shows), and settings.update
 * refusing a base URL that is not one.
 */
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { createBridgeHandlers, dispatchCall } from '../../../src/main/bridge'
import { SqliteConversationStore } from '../../../src/main/store'
import { migrations } from '../../../src/main/store/migrations'
import { settingsProblems, type BridgeEvent } from '../../../src/shared'
import { startScriptedOpenAI } from '../../fixtures/scripted-openai'
import { createTempApp, runPrompt, scriptedApps } from '../../helpers/temp-app'
import { openStore, tempDbPath } from '../store/helpers'

describe('a conversation’s own model in the store', () => {
  it('is absent until set, kept across reopening, and null goes back to Settings’', () => {
    const dbPath = tempDbPath()
    const store = openStore(dbPath)
    const conversation = store.createConversation('Pick a model')
    expect(conversation.model).toBeUndefined()
    expect(store.setConversationModel(conversation.id, '  qwen3:8b ')).toMatchObject({ id: conversation.id, model: 'qwen3:8b' })
    expect(store.getConversation(conversation.id)?.conversation.model).toBe('qwen3:8b')
    store.close()

    const reopened = SqliteConversationStore.open(dbPath)
    try {
      expect(reopened.listConversations()[0]).toMatchObject({ id: conversation.id, model: 'qwen3:8b', updatedAt: conversation.updatedAt })
      const reset = reopened.setConversationModel(conversation.id, null)
      expect(reset).not.toHaveProperty('model')
      expect(reopened.setConversationModel('conv_missing', 'x')).toBeNull()
    } finally {
      reopened.close()
    }
  })

  it('adds the column in its own step, after the workspace one', () => {
    const dbPath = tempDbPath()
    openStore(dbPath).close()
    const db = new Database(dbPath, { readonly: true })
    try {
      const columns = db.prepare(`SELECT name FROM pragma_table_info('conversations')`).pluck().all()
      expect(columns).toContain('model')
      expect(migrations[4]).toContain('ADD COLUMN model TEXT')
    } finally {
      db.close()
    }
  })
})

describe('a conversation’s own model in a run', () => {
  const apps = scriptedApps()

  it('is the model sent to the server; other conversations keep the one in Settings', async () => {
    const temp = await apps.setup([{ text: 'from the big one' }, { text: 'from the default' }, { text: 'default again' }])
    const handlers = createBridgeHandlers(temp.app, 'websocket')
    const events: BridgeEvent[] = []
    temp.app.events.subscribe((event) => events.push(event))

    const own = temp.app.store.createConversation('Own model')
    const updated = await handlers['conversations.setModel']({ id: own.id, model: 'scripted-large' })
    expect(updated).toMatchObject({ id: own.id, model: 'scripted-large' })
    expect(events).toContainEqual({ kind: 'conversations_changed' })

    const first = await runPrompt(temp, 'hello', own.id)
    expect(first.outcome.status).toBe('completed')
    const plain = await runPrompt(temp, 'hello')
    expect(plain.outcome.status).toBe('completed')
    expect(apps.server().requests.map((request) => request.body.model)).toEqual(['scripted-large', 'scripted-model'])

    // Back to the model in Settings.
    expect(await handlers['conversations.setModel']({ id: own.id, model: null })).not.toHaveProperty('model')
    await runPrompt(temp, 'again', own.id)
    expect(apps.server().requests[2]!.body.model).toBe('scripted-model')
    expect(await dispatchCall(handlers, 'conversations.setModel', { id: 'conv_missing', model: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' }
    })
    expect(await dispatchCall(handlers, 'conversations.setModel', { id: own.id, model: '   ' })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_FAILED' }
    })
  })
})

describe('providers.* and settings.update over the bridge', () => {
  const apps = scriptedApps()

  it('lists and tests the server in Settings, or the one the form shows, with the key from the named variable', async () => {
    const mine = await startScriptedOpenAI([{ text: 'ok' }])
    const other = await startScriptedOpenAI([{ text: 'ok' }], { models: ['other-b', 'other-a'], apiKey: 'sk-other' })
    // The app's environment holds the other server's key under a name of the user's choosing.
    const temp = createTempApp(mine.url, {}, { OTHER_KEY: 'sk-other' })
    try {
      const handlers = createBridgeHandlers(temp.app, 'websocket')
      expect(await handlers['providers.listModels']({})).toEqual({ models: ['scripted-model'] })
      expect(await handlers['providers.listModels']({ baseUrl: other.url, apiKeyEnv: 'OTHER_KEY' })).toEqual({ models: ['other-a', 'other-b'] })
      expect(other.lookups.at(-1)!.headers.authorization).toBe('Bearer sk-other')
      expect(await dispatchCall(handlers, 'providers.listModels', { baseUrl: other.url, apiKeyEnv: 'NO_SUCH_VAR' })).toMatchObject({
        ok: false,
        error: { code: 'MODEL_AUTH' }
      })

      const tested = await handlers['providers.testConnection']({})
      expect(tested).toMatchObject({ ok: true, model: 'scripted-model' })
      expect(mine.requests.at(-1)!.body).toMatchObject({ model: 'scripted-model', max_tokens: 1 })
      const otherTest = await handlers['providers.testConnection']({ baseUrl: other.url, apiKeyEnv: 'OTHER_KEY', model: 'other-b' })
      expect(otherTest).toMatchObject({ ok: true, model: 'other-b' })
      expect(other.requests.at(-1)!.body).toMatchObject({ model: 'other-b' })
      expect(await dispatchCall(handlers, 'providers.listModels', { baseUrl: 'not a url' })).toMatchObject({
        ok: false,
        error: { code: 'VALIDATION_FAILED' }
      })
    } finally {
      await temp.dispose()
      await mine.close()
      await other.close()
    }
  })

  it('refuses a base URL that is not an http(s) URL, and an OpenAI-compatible server without one', async () => {
    const temp = await apps.setup([])
    const handlers = createBridgeHandlers(temp.app, 'websocket')
    const before = temp.app.settings().baseUrl
    for (const baseUrl of ['not a url', 'ftp://example.com/v1', 'localhost:11434/v1']) {
      const result = await dispatchCall(handlers, 'settings.update', { baseUrl })
      expect(result, baseUrl).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED', message: expect.stringContaining('not an http(s) URL') } })
    }
    expect(await dispatchCall(handlers, 'settings.update', { baseUrl: '' })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_FAILED', message: expect.stringContaining('baseUrl: required for an OpenAI-compatible server') }
    })
    expect(temp.app.settings().baseUrl).toBe(before)
    // A provider with its own endpoint takes an empty one; https is fine anywhere.
    expect(await dispatchCall(handlers, 'settings.update', { provider: 'openai', baseUrl: '' })).toMatchObject({ ok: true, data: { provider: 'openai', baseUrl: '' } })
    expect(await dispatchCall(handlers, 'settings.update', { provider: 'openai-compatible' })).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } })
    expect(await dispatchCall(handlers, 'settings.update', { provider: 'openai-compatible', baseUrl: 'https://llm.example.com/v1' })).toMatchObject({ ok: true })
  })

  it('settingsProblems names each bad field in the schema’s words', () => {
    expect(settingsProblems({ provider: 'anthropic', baseUrl: '' })).toEqual({})
    expect(settingsProblems({ provider: 'openai-compatible', baseUrl: ' ' })).toEqual({ baseUrl: expect.stringContaining('required') })
    expect(settingsProblems({ baseUrl: 'http://' })).toEqual({ baseUrl: expect.stringContaining('not an http(s) URL') })
    expect(settingsProblems({ maxIterations: 0, paletteShortcut: 'nope', allowedEnv: ['OK', '1BAD'] })).toEqual({
      maxIterations: expect.any(String),
      paletteShortcut: expect.stringContaining('not a shortcut'),
      allowedEnv: expect.any(String)
    })
  })
})
