/**
 * A key pasted through the bridge is what the model request carries (the scripted server records
 * the Authorization header), it wins over the environment variable and loses to an explicit key,
 * and it appears nowhere else: not in the SQLite files, the audit log, the bus events, a bridge
 * answer or an export — not even when the model server echoes it in an error body.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { BridgeEvent, BridgeResult, Settings } from '../../../src/shared'
import { DeskclawApp } from '../../../src/main/app'
import { createBridgeHandlers, dispatchCall } from '../../../src/main/bridge'
import { createEncryptedSecretStore, SECRETS_FILE_NAME, type SecretStore } from '../../../src/main/secrets'
import { DATABASE_FILE_NAME, readAuditLogFile } from '../../../src/main/store'
import { startScriptedOpenAI } from '../../fixtures/scripted-openai'
import type { ScriptStep, ScriptedServer } from '../../fixtures/scripted-types'
import { fakeCrypto } from './fake-crypto'

const KEY = 'sk-proj-STORED-4f9a1c2e7b3d8e6f0a5b9c1d2e3f4a5b6c7d8e9f0a1b2c3d'
const ENV_KEY = 'sk-proj-FROM-ENVIRONMENT-0000000000000000000000'

interface Harness {
  app: DeskclawApp
  server: ScriptedServer
  dataDir: string
  events: BridgeEvent[]
  call(name: string, input: unknown): Promise<BridgeResult<unknown>>
  /** Every bridge answer so far, as sent over the wire. */
  answers: string[]
}

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function start(script: ScriptStep[], options: { env?: NodeJS.ProcessEnv; apiKey?: string; secrets?: (dataDir: string) => SecretStore } = {}): Promise<Harness> {
  const root = mkdtempSync(join(tmpdir(), 'deskclaw-stored-key-'))
  cleanups.push(() => rmSync(root, { recursive: true, force: true }))
  const dataDir = join(root, 'data')
  const workspace = join(root, 'workspace')
  mkdirSync(workspace, { recursive: true })
  const server = await startScriptedOpenAI(script)
  cleanups.push(() => server.close())
  const secrets = options.secrets?.(dataDir) ?? createEncryptedSecretStore({ file: join(dataDir, SECRETS_FILE_NAME), crypto: fakeCrypto() })
  const app = DeskclawApp.create({
    dataDir,
    overrides: { provider: 'openai', baseUrl: server.url, model: 'scripted-model', workspace },
    env: options.env ?? {},
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    secrets
  })
  let closed = false
  const close = async () => {
    if (!closed) await app.close()
    closed = true
  }
  cleanups.push(close)
  const events: BridgeEvent[] = []
  app.events.subscribe((event) => events.push(event))
  const table = createBridgeHandlers(app, 'websocket')
  const answers: string[] = []
  return {
    app,
    server,
    dataDir,
    events,
    answers,
    async call(name, input) {
      const result = await dispatchCall(table, name, input)
      answers.push(JSON.stringify(result))
      return result
    }
  }
}

async function run(h: Harness, conversationId: string, prompt: string) {
  const sent = await h.call('agent.send', { conversationId, text: prompt })
  if (!sent.ok) return { sent, outcome: null }
  const outcome = await h.app.agent.wait((sent.data as { runId: string }).runId)
  return { sent, outcome }
}

async function newConversation(h: Harness): Promise<string> {
  const created = await h.call('conversations.create', { title: 'keys' })
  expect(created.ok).toBe(true)
  return (created as { ok: true; data: { id: string } }).data.id
}

const authorizations = (server: ScriptedServer) => server.requests.map((request) => request.headers.authorization)

/** The key in the forms a careless writer might use. */
function traces(secret: string): Buffer[] {
  const bytes = Buffer.from(secret, 'utf8')
  return [secret, bytes.toString('base64'), bytes.toString('hex'), secret.slice(10, 40)].map((form) => Buffer.from(form, 'utf8'))
}

function expectAbsent(where: string, bytes: Buffer | string): void {
  const haystack = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes
  for (const trace of traces(KEY)) expect(haystack.includes(trace), `the key (${trace.toString().slice(0, 10)}…) is in ${where}`).toBe(false)
}

describe('a stored API key', () => {
  it('is what the model request carries, ahead of the environment variable; removed, the variable is used again', async () => {
    const h = await start([{ text: 'first' }, { text: 'second' }], { env: { OPENAI_API_KEY: ENV_KEY } })
    const id = await newConversation(h)

    const stored = await h.call('secrets.setApiKey', { provider: 'openai', key: `  ${KEY}  ` })
    expect(stored).toEqual({ ok: true, data: { available: true, providers: { openai: true, anthropic: false, 'openai-compatible': false } } })
    expect((await run(h, id, 'hello')).outcome?.status).toBe('completed')
    expect(authorizations(h.server)).toEqual([`Bearer ${KEY}`])

    expect(((await h.call('secrets.deleteApiKey', { provider: 'openai' })) as { data: { providers: { openai: boolean } } }).data.providers.openai).toBe(false)
    expect((await run(h, id, 'again')).outcome?.status).toBe('completed')
    expect(authorizations(h.server)).toEqual([`Bearer ${KEY}`, `Bearer ${ENV_KEY}`])
  })

  it('is per provider, and an explicit key (the CLI) wins over it', async () => {
    const h = await start([], { apiKey: 'sk-explicit-key-from-the-cli' })
    await h.call('secrets.setApiKey', { provider: 'openai', key: KEY })
    const settings = h.app.settings()
    expect(h.app.apiKeyFor(settings)).toBe('sk-explicit-key-from-the-cli')

    const noExplicit = await start([])
    await noExplicit.call('secrets.setApiKey', { provider: 'anthropic', key: KEY })
    const openai: Settings = { ...noExplicit.app.settings(), provider: 'openai' }
    expect(noExplicit.app.apiKeyFor(openai)).toBeUndefined()
    expect(noExplicit.app.apiKeyFor({ ...openai, provider: 'anthropic' })).toBe(KEY)
  })

  it('with neither a stored key nor the variable, the error names both ways', async () => {
    const h = await start([])
    const id = await newConversation(h)
    const { sent } = await run(h, id, 'hello')
    expect(sent.ok).toBe(false)
    const error = (sent as { error: { code: string; message: string } }).error
    expect(error.code).toBe('NOT_CONFIGURED')
    expect(error.message).toMatch(/paste one in Settings/)
    expect(error.message).toMatch(/OPENAI_API_KEY/)
  })

  it('that cannot be decrypted any more is a clear error when a run starts (not a crash, not another key)', async () => {
    let crypto = fakeCrypto()
    const h = await start([], { env: { OPENAI_API_KEY: ENV_KEY }, secrets: (dataDir) => createEncryptedSecretStore({ file: join(dataDir, SECRETS_FILE_NAME), crypto: { isEncryptionAvailable: () => crypto.isEncryptionAvailable(), encryptString: (s) => crypto.encryptString(s), decryptString: (b) => crypto.decryptString(b) } }) })
    await h.call('secrets.setApiKey', { provider: 'openai', key: KEY })
    crypto = fakeCrypto() // the keyring was reset
    const id = await newConversation(h)
    const { sent } = await run(h, id, 'hello')
    expect(sent).toMatchObject({ ok: false, error: { code: 'NOT_CONFIGURED', message: expect.stringMatching(/cannot be decrypted/) } })
    expect(h.server.requests).toHaveLength(0)
    expect((await h.call('secrets.status', {})) as unknown).toMatchObject({ ok: true, data: { providers: { openai: true } } })
  })

  it('appears nowhere: not in the SQLite files, the audit log, the events, a bridge answer or an export', async () => {
    // The second request is refused by a server that echoes the key it was sent (some do).
    const echo: ScriptStep = (request) => ({
      status: 401,
      errorBody: { error: { message: `Incorrect API key provided: ${String(request.headers.authorization).slice(7)}.`, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }
    })
    const h = await start([{ text: 'The answer.' }, echo])
    await h.call('secrets.setApiKey', { provider: 'openai', key: KEY })
    const id = await newConversation(h)
    expect((await run(h, id, 'first question')).outcome?.status).toBe('completed')
    const failed = await run(h, id, 'second question')
    expect(failed.outcome?.status).toBe('failed')
    expect(authorizations(h.server)).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`])
    const runFailed = h.events.find((event) => event.kind === 'agent' && event.event.type === 'run_failed')
    expect(JSON.stringify(runFailed)).toContain('[redacted]')

    // settings_changed, and the other answers a front door sees.
    await h.call('settings.update', { model: 'scripted-model-2', apiKeyEnv: 'MY_KEY' })
    expect(h.events.some((event) => event.kind === 'settings_changed')).toBe(true)
    for (const [name, input] of [
      ['settings.get', {}],
      ['secrets.status', {}],
      ['conversations.get', { id }],
      ['conversations.list', {}],
      ['conversations.export', { id, format: 'markdown' }],
      ['conversations.export', { id, format: 'json' }]
    ] as const) {
      const answer = await h.call(name, input)
      expect(answer.ok, `${name}: ${JSON.stringify(answer)}`).toBe(true)
    }
    const audit = h.app.store.recentAudit(1000)
    expect(audit.length).toBeGreaterThan(0)

    expectAbsent('the bus events', JSON.stringify(h.events))
    expectAbsent('the bridge answers', h.answers.join('\n'))
    expectAbsent('the audit log', JSON.stringify(audit))
    await h.app.close()
    expectAbsent('the audit log file', JSON.stringify(readAuditLogFile(join(h.dataDir, DATABASE_FILE_NAME), 1000)))
    // Every file in the data folder, byte for byte: deskclaw.db (and -wal/-shm if left), rules, secrets.json.
    const files = readdirSync(h.dataDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile())
    expect(files.map((entry) => entry.name)).toEqual(expect.arrayContaining([DATABASE_FILE_NAME, SECRETS_FILE_NAME]))
    for (const entry of files) expectAbsent(entry.name, readFileSync(join(entry.parentPath, entry.name)))
  })
})
