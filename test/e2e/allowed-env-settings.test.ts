/**
 * Settings → "Environment variables commands may see" in a real Chromium against the web host
 * (docs/runtimes.md, "The environment allowlist"): a name is checked as it is typed (not a name;
 * the model key's variable, refused with the reason), added with Enter or the Add button, removed,
 * and saved — in English and in Chinese. Then a shell command the model runs sees the added
 * variable, and neither the model key nor a credential nobody added.
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AgentEventOf } from '../../src/shared'
import { hasChromium, screenshotDir, settled } from '../helpers/browser'
import { runPrompt } from '../helpers/temp-app'
import { openSettingsSection } from '../helpers/settings'
import { startUiSession, type UiSession } from '../helpers/ui-session'

const MODEL_KEY_ENV = 'DESKCLAW_E2E_MODEL_KEY'
const ADDED = 'DESKCLAW_E2E_ADDED'
const SECOND = 'DESKCLAW_E2E_SECOND'
const PROBES = { [MODEL_KEY_ENV]: 'sk-e2e-model-key-0123456789', [ADDED]: 'seen-by-command', [SECOND]: 'second-value', GH_PAT: 'github_pat_e2e' }

async function openAllowlist(page: Page) {
  await page.getByTestId('settings-button').click()
  const panel = page.getByTestId('settings-panel')
  await panel.waitFor({ state: 'visible' })
  await openSettingsSection(page, 'safety')
  const field = panel.getByTestId('settings-allowed-env-field')
  await field.scrollIntoViewIfNeeded()
  return { panel, field, input: field.getByTestId('settings-allowed-env'), error: field.locator('[data-testid="settings-field-error"][data-field="allowedEnv"]') }
}

describe.skipIf(!hasChromium())('Settings: environment variables commands may see', () => {
  let session: UiSession
  const saved: Record<string, string | undefined> = {}

  beforeAll(async () => {
    for (const [name, value] of Object.entries(PROBES)) {
      saved[name] = process.env[name]
      process.env[name] = value
    }
    const command = `echo "added=[$${ADDED}] second=[$${SECOND}] key=[$${MODEL_KEY_ENV}] pat=[$GH_PAT]"`
    session = await startUiSession([{ toolCalls: [{ name: 'shell', args: { command } }] }, { text: 'done' }], {
      runtime: 'native',
      autonomy: 'full',
      apiKeyEnv: MODEL_KEY_ENV
    })
  })

  afterAll(async () => {
    await session?.close()
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
  })

  it('checks a name as it is typed, refuses the model key variable, adds with Enter and saves (English)', async () => {
    const { page, host, temp } = session
    await page.goto(host.url)
    const { panel, field, input, error } = await openAllowlist(page)
    expect(await field.locator('label').first().innerText()).toBe('Environment variables commands may see')
    expect(await field.getByTestId('settings-allowed-env-empty').innerText()).toBe('None added: commands see only the default set.')
    expect(await field.locator('.field-hint').innerText()).toContain('PATH, HOME, LANG, LANGUAGE, LC_*, TERM, TZ, USER, LOGNAME and TMPDIR')

    await input.fill('1BAD-NAME')
    expect(await error.innerText()).toBe('“1BAD-NAME” is not an environment variable name.')
    expect(await input.getAttribute('aria-invalid')).toBe('true')
    expect(await field.getByTestId('settings-allowed-env-add').isDisabled()).toBe(true)
    expect(await panel.getByTestId('settings-save').isDisabled()).toBe(true)

    await input.fill(MODEL_KEY_ENV)
    expect(await error.innerText()).toBe(`${MODEL_KEY_ENV} holds the model’s API key: it never reaches a command.`)
    expect(await field.getByTestId('settings-allowed-env-add').isDisabled()).toBe(true)

    await input.fill(ADDED)
    await error.waitFor({ state: 'detached' })
    await input.press('Enter')
    expect(await input.inputValue()).toBe('')
    expect(await field.getByTestId('settings-allowed-env-item').evaluateAll((items) => items.map((item) => item.getAttribute('data-name')))).toEqual([ADDED])
    // A name already listed is said so.
    await input.fill(ADDED)
    expect(await error.innerText()).toBe(`${ADDED} is already in the list.`)
    await input.fill('')

    await panel.getByTestId('settings-save').click()
    await panel.getByTestId('settings-saved').waitFor()
    expect(temp.app.settings().allowedEnv).toEqual([ADDED])
    await settled(page)
    await field.screenshot({ path: join(screenshotDir, 'allowed-env-settings.png') })
  })

  it('reads in Chinese: the key variable refused with the reason, a name added with 添加, one removed, saved', async () => {
    const { page, host, temp } = session
    await page.goto(host.url)
    await page.getByTestId('language-toggle').click()
    await expect.poll(() => page.getByTestId('settings-button').innerText()).toBe('设置')
    const { panel, field, input, error } = await openAllowlist(page)
    expect(await field.locator('label').first().innerText()).toBe('命令可见的环境变量')
    expect(await field.locator('.field-hint').innerText()).toContain('保存模型 API 密钥的变量永远不能添加')

    await input.fill(MODEL_KEY_ENV)
    expect(await error.innerText()).toBe(`${MODEL_KEY_ENV} 保存着模型的 API 密钥：它永远不会传给命令。`)
    await input.fill('含中文')
    expect(await error.innerText()).toBe('“含中文”不是有效的环境变量名。')
    await input.fill(SECOND)
    await field.getByRole('button', { name: '添加' }).click()
    await input.fill('GH_PAT')
    await field.getByRole('button', { name: '添加' }).click()
    await field.getByRole('button', { name: '移除 GH_PAT' }).click()
    expect(await field.getByTestId('settings-allowed-env-item').evaluateAll((items) => items.map((item) => item.getAttribute('data-name')))).toEqual([ADDED, SECOND])

    await panel.getByTestId('settings-save').click()
    await panel.getByTestId('settings-saved').waitFor()
    expect(temp.app.settings().allowedEnv).toEqual([ADDED, SECOND])
    await settled(page)
    await field.screenshot({ path: join(screenshotDir, 'allowed-env-settings-zh.png') })
  })

  it('a command then sees the added variables, and not the model key or a credential nobody added', async () => {
    const { temp } = session
    const { events } = await runPrompt(temp, 'print the variables')
    const completed = events.find((event) => event.type === 'tool_call_completed') as AgentEventOf<'tool_call_completed'>
    expect(completed.output).toContain('added=[seen-by-command] second=[second-value] key=[] pat=[]')
  })
})
