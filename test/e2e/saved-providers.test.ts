/**
 * Saved providers (issue 22, item 9b) in a real Chromium through the web host, in English and
 * Chinese: save two providers (each at its own scripted model server), switch between them, and
 * a run goes to the active one's base URL with its model; rename, and delete after a confirm.
 */
import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { hasChromium } from '../helpers/browser'
import { openSettingsSection } from '../helpers/settings'
import { startUiSession, type UiSession } from '../helpers/ui-session'
import { startScriptedOpenAI } from '../fixtures/scripted-openai'
import type { ScriptedServer } from '../fixtures/scripted-types'

const TEXT = {
  en: { active: 'Active', use: 'Switch to', confirm: 'Delete “Server B” and its stored API key?' },
  'zh-CN': { active: '使用中', use: '切换到此', confirm: '删除“Server B”及其保存的 API 密钥？' }
} as const

const completions = (server: ScriptedServer) => server.requests.filter((request) => request.path === '/v1/chat/completions')

async function openModelSettings(page: Page) {
  await page.getByTestId('settings-button').click()
  await openSettingsSection(page, 'model')
  return page.getByTestId('settings-panel')
}

async function send(page: Page, text: string, expected: string) {
  await page.getByTestId('composer-input').fill(text)
  await page.getByTestId('send-button').click()
  await expect.poll(() => page.getByTestId('message-assistant').last().innerText(), { timeout: 15_000 }).toContain(expected)
}

describe.skipIf(!hasChromium())('Settings: saved providers', () => {
  let session: UiSession | undefined
  let other: ScriptedServer | undefined
  afterEach(async () => {
    await session?.close()
    await other?.close()
    session = other = undefined
  })

  for (const language of ['en', 'zh-CN'] as const) {
    it(`${language}: two saved providers, switched; the run uses the active one's base URL`, async () => {
      session = await startUiSession([{ text: 'Answer from server A.' }], { language })
      other = await startScriptedOpenAI([{ text: 'Answer from server B.' }])
      const { page, host, server } = session
      await page.goto(host.url)
      let panel = await openModelSettings(page)
      const list = panel.getByTestId('saved-provider')

      // Save what the form shows (server A) under a name; it becomes the active one.
      await panel.getByTestId('saved-provider-new-name').fill('Server A')
      await panel.getByTestId('saved-provider-add').click()
      await expect.poll(() => list.count()).toBe(1)
      // Then server B, with its own model: typed in the form, saved as a new provider.
      await panel.getByTestId('settings-base-url').fill(other.url)
      await panel.getByTestId('settings-model').fill('model-b')
      await panel.getByTestId('saved-provider-new-name').fill('Server B')
      await panel.getByTestId('saved-provider-add').click()
      await expect.poll(() => list.count()).toBe(2)
      const rowA = panel.locator('[data-testid="saved-provider"][data-name="Server A"]')
      const rowB = panel.locator('[data-testid="saved-provider"][data-name="Server B"]')
      expect(await rowB.getAttribute('data-active')).toBe('true')
      expect(await rowB.getByTestId('saved-provider-active').innerText()).toBe(TEXT[language].active)
      expect(await rowA.getByTestId('saved-provider-use').innerText()).toBe(TEXT[language].use)
      await panel.getByTestId('settings-close-x').click()

      await page.getByTestId('new-conversation').click()
      await send(page, 'Hello B', 'Answer from server B.')
      expect(completions(other).map((request) => request.body.model)).toEqual(['model-b'])
      expect(completions(server)).toHaveLength(0)

      // Switch to A: the form shows A's base URL and model, and the next run goes there.
      panel = await openModelSettings(page)
      await rowA.getByTestId('saved-provider-use').click()
      await expect.poll(() => rowA.getAttribute('data-active')).toBe('true')
      expect(await panel.getByTestId('settings-base-url').inputValue()).toBe(server.url)
      expect(await panel.getByTestId('settings-model').inputValue()).toBe('scripted-model')
      expect(await rowB.getAttribute('data-active')).toBe('false')
      await panel.getByTestId('settings-close-x').click()
      await send(page, 'Hello A', 'Answer from server A.')
      expect(completions(server).map((request) => request.body.model)).toEqual(['scripted-model'])
      expect(completions(other)).toHaveLength(1)

      // Rename A, delete B after the confirm (in the page's language).
      panel = await openModelSettings(page)
      await rowA.getByTestId('saved-provider-rename').click()
      await rowA.getByTestId('saved-provider-name-input').fill('Server A (local)')
      await rowA.getByTestId('saved-provider-rename-save').click()
      await panel.locator('[data-testid="saved-provider"][data-name="Server A (local)"]').waitFor()
      await rowB.getByTestId('saved-provider-delete').click()
      expect(await rowB.getByRole('alertdialog').innerText()).toContain(TEXT[language].confirm)
      await rowB.getByTestId('saved-provider-delete-confirm').click()
      await expect.poll(() => list.count()).toBe(1)
      expect(session.temp.app.settings().savedProviders.map((saved) => [saved.name, saved.baseUrl])).toEqual([['Server A (local)', server.url]])
    })
  }
})
