/**
 * The API key field through the whole web path (web host, WebSocket bridge, Chromium), with an
 * injected SecretStore (fake safeStorage): paste a key, see "Stored securely", reload — the input
 * is empty, and no WebSocket frame but the one that sent the key ever carried it; the app uses
 * it. Without a SecretStore (plain `deskclaw web`) the field is disabled and says why.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { openSettingsSection } from '../helpers/settings'
import { DeskclawApp } from '../../src/main/app'
import { startWebHost } from '../../src/main/bridge'
import { createEncryptedSecretStore, SECRETS_FILE_NAME, type SecretStore } from '../../src/main/secrets'
import { hasChromium, openBrowser, rendererDir, screenshotDir, settled } from '../helpers/browser'
import { fakeCrypto } from '../unit/secrets/fake-crypto'

const KEY = 'sk-proj-E2E-pasted-7c1f0a9b8e2d4c6f3a5b7d9e1f2a4c6e8b0d2f4a6c8e0b2d'

interface Frames {
  sent: string[]
  received: string[]
}

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function startSession(secrets: ((dataDir: string) => SecretStore) | undefined, language: 'en' | 'zh-CN' = 'en') {
  const root = mkdtempSync(join(tmpdir(), 'deskclaw-api-key-e2e-'))
  cleanups.push(() => rmSync(root, { recursive: true, force: true }))
  const dataDir = join(root, 'data')
  const workspace = join(root, 'workspace')
  mkdirSync(workspace, { recursive: true })
  const app = DeskclawApp.create({
    dataDir,
    overrides: { provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'gpt-4.1-mini', workspace, language },
    env: {},
    ...(secrets ? { secrets: secrets(dataDir) } : {})
  })
  cleanups.push(() => app.close())
  const host = await startWebHost({ app, rendererDir })
  cleanups.push(() => host.close())
  const { browser, page } = await openBrowser()
  cleanups.push(() => browser.close())
  const frames: Frames = { sent: [], received: [] }
  page.on('websocket', (socket) => {
    const text = (payload: string | Buffer) => (typeof payload === 'string' ? payload : payload.toString('utf8'))
    socket.on('framesent', ({ payload }) => frames.sent.push(text(payload)))
    socket.on('framereceived', ({ payload }) => frames.received.push(text(payload)))
  })
  return { app, host, page, frames, dataDir }
}

async function openSettings(page: Page) {
  await page.getByTestId('settings-button').click()
  await openSettingsSection(page, 'model')
  const field = page.getByTestId('api-key-field')
  await field.waitFor()
  return field
}

describe.skipIf(!hasChromium())('the API key field (web host)', () => {
  it('stores a pasted key without ever sending it back; after a reload the input is empty', async () => {
    const { app, host, page, frames, dataDir } = await startSession((dir) =>
      createEncryptedSecretStore({ file: join(dir, SECRETS_FILE_NAME), crypto: fakeCrypto() })
    )
    await page.goto(host.url)
    let field = await openSettings(page)
    const input = field.getByTestId('api-key-input')
    expect(await input.getAttribute('type')).toBe('password')
    expect(await input.getAttribute('placeholder')).toBe('Paste your API key')
    expect(await field.getByTestId('api-key-stored').count()).toBe(0)
    expect(await field.getByTestId('api-key-save').isDisabled()).toBe(true)

    // Enter saves the key (and does not submit the settings form around the field).
    await input.fill(KEY)
    await input.press('Enter')
    await field.getByTestId('api-key-stored').waitFor()
    expect(await field.getByTestId('api-key-stored').textContent()).toContain('Stored securely')
    expect(await input.inputValue()).toBe('')
    expect(await page.getByTestId('settings-panel').isVisible()).toBe(true)
    await settled(page)
    await page.screenshot({ path: join(screenshotDir, 'api-key-stored.png') })

    // Main holds it, encrypted; the app's model calls use it.
    expect(app.apiKeyFor(app.settings())).toBe(KEY)
    expect(readFileSync(join(dataDir, SECRETS_FILE_NAME), 'utf8')).not.toContain(KEY)

    // Exactly one frame carried the key: the call that stored it. None came back.
    const carrying = frames.sent.filter((frame) => frame.includes(KEY))
    expect(carrying).toHaveLength(1)
    expect(JSON.parse(carrying[0]!)).toMatchObject({ call: 'secrets.setApiKey', input: { provider: 'openai', key: KEY } })
    expect(frames.received.length).toBeGreaterThan(0)
    expect(frames.received.filter((frame) => frame.includes(KEY))).toEqual([])

    // After a reload: stored, the input empty, and not one frame with the key either way.
    frames.sent.length = 0
    frames.received.length = 0
    await page.reload()
    field = await openSettings(page)
    await field.getByTestId('api-key-stored').waitFor()
    expect(await field.getByTestId('api-key-input').inputValue()).toBe('')
    expect(frames.received.some((frame) => frame.includes('"providers"'))).toBe(true)
    expect([...frames.sent, ...frames.received].filter((frame) => frame.includes(KEY))).toEqual([])
    // Nor does the page keep it anywhere.
    const kept = await page.evaluate(() => {
      const g = globalThis as unknown as { localStorage: Storage; sessionStorage: Storage; document: { body: { innerHTML: string } } }
      return JSON.stringify({ local: { ...g.localStorage }, session: { ...g.sessionStorage }, html: g.document.body.innerHTML })
    })
    expect(kept).not.toContain(KEY)

    // Remove: gone in main, the field says so.
    await field.getByTestId('api-key-remove').click()
    await field.getByTestId('api-key-removed').waitFor()
    expect(await field.getByTestId('api-key-stored').count()).toBe(0)
    expect(app.apiKeyFor(app.settings())).toBeUndefined()
  })

  it('refuses a key with a space inside and says why, without echoing it', async () => {
    const { host, page, frames } = await startSession((dir) => createEncryptedSecretStore({ file: join(dir, SECRETS_FILE_NAME), crypto: fakeCrypto() }))
    await page.goto(host.url)
    const field = await openSettings(page)
    await field.getByTestId('api-key-input').fill(`${KEY} ${KEY}`)
    await field.getByTestId('api-key-save').click()
    const error = field.getByTestId('api-key-error')
    await error.waitFor()
    expect(await error.textContent()).toMatch(/without spaces/)
    expect(await error.textContent()).not.toContain(KEY)
    expect(frames.received.filter((frame) => frame.includes(KEY))).toEqual([])
    expect(await field.getByTestId('api-key-stored').count()).toBe(0)
  })

  it('without a SecretStore (plain deskclaw web) the field is disabled and points to the environment variable', async () => {
    const { host, page } = await startSession(undefined)
    await page.goto(host.url)
    const field = await openSettings(page)
    const why = field.getByTestId('api-key-unavailable')
    await why.waitFor()
    expect(await why.getAttribute('data-reason')).toBe('no-safe-storage')
    expect(await why.textContent()).toMatch(/environment variable named below/)
    expect(await field.getByTestId('api-key-input').isDisabled()).toBe(true)
    expect(await field.getByTestId('api-key-save').isDisabled()).toBe(true)
  })

  describe('in Simplified Chinese', () => {
    it('labels the field, stores a pasted key and removes it, all with the Chinese texts', async () => {
      const { app, host, page } = await startSession(
        (dir) => createEncryptedSecretStore({ file: join(dir, SECRETS_FILE_NAME), crypto: fakeCrypto() }),
        'zh-CN'
      )
      await page.goto(host.url)
      await page.getByTestId('settings-button').getByText('设置', { exact: true }).waitFor()
      const field = await openSettings(page)
      expect(await field.getByText('OpenAI 的 API 密钥', { exact: true }).isVisible()).toBe(true)
      const input = field.getByLabel('OpenAI 的 API 密钥')
      expect(await input.getAttribute('data-testid')).toBe('api-key-input')
      expect(await input.getAttribute('placeholder')).toBe('粘贴你的 API 密钥')
      expect(await field.getByText('用系统钥匙串加密保存，优先于下方的环境变量使用。保存后不会再显示。').isVisible()).toBe(true)
      const save = field.getByRole('button', { name: '保存密钥' })
      expect(await save.isDisabled()).toBe(true)

      await input.fill(KEY)
      await save.click()
      const stored = field.getByTestId('api-key-stored')
      await stored.waitFor()
      expect(await stored.innerText()).toContain('已安全保存')
      expect(await field.getByText('已用系统钥匙串加密，之后不会再显示。粘贴新的密钥即可替换。').isVisible()).toBe(true)
      expect(await input.inputValue()).toBe('')
      expect(app.apiKeyFor(app.settings())).toBe(KEY)
      await settled(page)
      await page.screenshot({ path: join(screenshotDir, 'api-key-stored-zh-CN.png') })

      await field.getByRole('button', { name: '移除' }).click()
      const removed = field.getByTestId('api-key-removed')
      await removed.waitFor()
      expect(await removed.innerText()).toBe('密钥已移除。')
      expect(await stored.count()).toBe(0)
      expect(app.apiKeyFor(app.settings())).toBeUndefined()
    })

    it('without a SecretStore the disabled field says why in Chinese', async () => {
      const { host, page } = await startSession(undefined, 'zh-CN')
      await page.goto(host.url)
      const field = await openSettings(page)
      const why = field.getByTestId('api-key-unavailable')
      await why.waitFor()
      expect(await why.getAttribute('data-reason')).toBe('no-safe-storage')
      expect(await why.innerText()).toBe(
        '无法在此保存密钥：DeskClaw 没有以桌面应用运行（deskclaw web 或命令行），这里没有可用于加密的系统钥匙串。请改为设置下方指定的环境变量，然后重新启动 DeskClaw。'
      )
      expect(await why.isVisible()).toBe(true)
      expect(await field.getByTestId('api-key-input').isDisabled()).toBe(true)
      expect(await field.getByRole('button', { name: '保存密钥' }).isDisabled()).toBe(true)
    })
  })
})
