/**
 * Saved providers (Settings → Model providers): switching copies the chosen one's values into the
 * fields a run reads, editing those fields updates the active one, and a key pasted for one saved
 * provider is used for it alone — checked through the bridge against two scripted model servers.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { BridgeResult, SavedProvider, Settings } from '../../../src/shared'
import { DeskclawApp, defaultSettings, withSavedProviders } from '../../../src/main/app'
import { createBridgeHandlers, dispatchCall } from '../../../src/main/bridge'
import { createEncryptedSecretStore, SECRETS_FILE_NAME } from '../../../src/main/secrets'
import { startScriptedOpenAI } from '../../fixtures/scripted-openai'
import type { ScriptedServer } from '../../fixtures/scripted-types'
import { fakeCrypto } from '../secrets/fake-crypto'

const KEY_A = 'sk-saved-provider-A-1111111111111111111111111111'

const saved = (id: string, baseUrl: string, model: string): SavedProvider => ({
  id,
  name: `Server ${id}`,
  provider: 'openai-compatible',
  baseUrl,
  apiKeyEnv: '',
  model,
  models: []
})

describe('withSavedProviders', () => {
  const a = saved('a', 'http://127.0.0.1:1001/v1', 'model-a')
  const b = saved('b', 'http://127.0.0.1:1002/v1', 'model-b')
  const current: Settings = { ...defaultSettings(), ...a, savedProviders: [a, b], activeProviderId: 'a' }

  it('a switch brings the chosen provider’s kind, base URL, key variable and model', () => {
    expect(withSavedProviders(current, { activeProviderId: 'b' })).toEqual({
      activeProviderId: 'b',
      provider: 'openai-compatible',
      baseUrl: b.baseUrl,
      apiKeyEnv: '',
      model: 'model-b'
    })
  })

  it('an edit of those fields updates the active provider, and only it', () => {
    const patch = withSavedProviders(current, { baseUrl: 'http://127.0.0.1:1003/v1' })
    expect(patch.savedProviders).toEqual([{ ...a, baseUrl: 'http://127.0.0.1:1003/v1' }, b])
    expect(withSavedProviders(current, { language: 'zh-CN' })).toEqual({ language: 'zh-CN' })
  })

  it('deleting the active provider leaves the fields and no active one', () => {
    expect(withSavedProviders(current, { savedProviders: [b] })).toEqual({ savedProviders: [b], activeProviderId: '' })
  })
})

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describe('saved providers through the bridge', () => {
  it('a run goes to the active provider’s server with its own key; a key never serves another saved provider', async () => {
    const root = mkdtempSync(join(tmpdir(), 'deskclaw-saved-providers-'))
    cleanups.push(() => rmSync(root, { recursive: true, force: true }))
    const servers: ScriptedServer[] = []
    for (let i = 0; i < 2; i++) {
      const server = await startScriptedOpenAI([{ text: 'one' }, { text: 'two' }])
      cleanups.push(() => server.close())
      servers.push(server)
    }
    const [serverA, serverB] = servers as [ScriptedServer, ScriptedServer]
    const dataDir = join(root, 'data')
    const workspace = join(root, 'workspace')
    mkdirSync(workspace, { recursive: true })
    const app = DeskclawApp.create({
      dataDir,
      overrides: { provider: 'openai-compatible', baseUrl: serverA.url, model: 'scripted-model', workspace },
      env: {},
      secrets: createEncryptedSecretStore({ file: join(dataDir, SECRETS_FILE_NAME), crypto: fakeCrypto() })
    })
    cleanups.push(() => app.close())
    const table = createBridgeHandlers(app, 'websocket')
    const call = async <T>(name: string, input: unknown): Promise<T> => {
      const result: BridgeResult<unknown> = await dispatchCall(table, name, input)
      if (!result.ok) throw new Error(`${name}: ${result.error.message}`)
      return result.data as T
    }
    const run = async (conversationId: string) => {
      const { runId } = await call<{ runId: string }>('agent.send', { conversationId, text: 'hello' })
      return (await app.agent.wait(runId))?.status
    }

    await call('settings.update', {
      savedProviders: [saved('a', serverA.url, 'model-a'), saved('b', serverB.url, 'model-b')],
      activeProviderId: 'a'
    })
    // A key for an unknown saved provider is refused; each known one gets its own.
    expect((await dispatchCall(table, 'secrets.setApiKey', { provider: 'openai-compatible', key: KEY_A, savedProviderId: 'nope' })).ok).toBe(false)
    await call('secrets.setApiKey', { provider: 'openai-compatible', key: KEY_A, savedProviderId: 'a' })
    const status = await call<{ saved?: Record<string, boolean> }>('secrets.status', {})
    expect(status.saved).toEqual({ a: true, b: false })

    const { id } = await call<{ id: string }>('conversations.create', { title: 'saved providers' })
    expect(await run(id)).toBe('completed')
    expect(serverA.requests.map((request) => [request.body.model, request.headers.authorization])).toEqual([['model-a', `Bearer ${KEY_A}`]])

    // Switched to b: b's server and model, and not a's key (b has none: no Authorization at all).
    const switched = await call<Settings>('settings.update', { activeProviderId: 'b' })
    expect([switched.baseUrl, switched.model]).toEqual([serverB.url, 'model-b'])
    expect(await run(id)).toBe('completed')
    expect(serverB.requests.map((request) => [request.body.model, request.headers.authorization])).toEqual([['model-b', undefined]])
    expect(serverA.requests).toHaveLength(1)

    // Deleting a also deletes its key.
    await call('settings.update', { savedProviders: [saved('b', serverB.url, 'model-b')] })
    expect(app.apiKeys.stored({ provider: 'openai-compatible', savedProviderId: 'a' })).toBeUndefined()
  })
})
