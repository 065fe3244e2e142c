/**
 * Settings → Chat apps in a real Chromium against the web host: the eight shipped profiles are listed
 * (with a user's own profile badged and an unreadable file reported); turning WeChat on and giving
 * it an allowlist is saved and still there after a reload; a number out of range shows its field's
 * error and nothing is saved; and the section reads in Chinese. Also at 480 px and in dark mode.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { Settings, WireMessage } from '../../src/shared'
import { hasChromium, screenshotDir, settled } from '../helpers/browser'
import { openSettingsSection } from '../helpers/settings'
import { startUiSession, type UiSession } from '../helpers/ui-session'

const SHIPPED = ['dingtalk', 'feishu', 'hexchat', 'pidgin', 'slack', 'telegram', 'wecom', 'weixin']

async function openSettings(page: Page) {
  await page.getByTestId('settings-button').click()
  const panel = page.getByTestId('settings-panel')
  await panel.waitFor({ state: 'visible' })
  await openSettingsSection(page, 'chatApps')
  const section = panel.getByTestId('chat-apps-section')
  await section.waitFor()
  await section.locator('[data-testid="chat-app"]').first().waitFor()
  return { panel, section }
}

describe.skipIf(!hasChromium())('Settings: chat apps', () => {
  let session: UiSession

  beforeAll(async () => {
    session = await startUiSession([])
    // The user's own profiles: one more app (badged), and a file that is not JSON (reported, skipped).
    const dir = join(session.temp.dataDir, 'desktop-apps')
    mkdirSync(dir, { recursive: true })
    const weixin = JSON.parse(readFileSync(join(process.cwd(), 'resources', 'desktop-apps', 'weixin.json'), 'utf8')) as Record<string, unknown>
    writeFileSync(join(dir, 'mychat.json'), JSON.stringify({ ...weixin, id: 'mychat', name: { en: 'My Chat', 'zh-CN': '我的聊天' } }))
    writeFileSync(join(dir, 'broken.json'), '{ this is not json')
  })

  afterAll(async () => {
    await session?.close()
  })

  it('lists the shipped profiles, saves WeChat with an allowlist, and keeps it after a reload', async () => {
    const { page, host, temp } = session
    await page.emulateMedia({ colorScheme: 'light' })
    await page.goto(host.url)
    const { panel, section } = await openSettings(page)

    const apps = section.getByTestId('chat-app')
    const ids = await apps.evaluateAll((els) => els.map((el) => el.getAttribute('data-app')))
    expect(ids).toEqual(expect.arrayContaining([...SHIPPED, 'mychat']))
    const builtin = await section
      .locator('[data-testid="chat-app"][data-source="builtin"]')
      .evaluateAll((els) => els.map((el) => el.getAttribute('data-app')).sort())
    expect(builtin).toEqual(SHIPPED)
    // Off until turned on.
    for (const id of SHIPPED) {
      const row = section.locator(`[data-testid="chat-app"][data-app="${id}"]`)
      expect(await row.getAttribute('data-enabled')).toBe('false')
      expect(await row.getByTestId('chat-app-enabled').isChecked()).toBe(false)
    }
    const weixin = section.locator('[data-testid="chat-app"][data-app="weixin"]')
    expect(await weixin.getByTestId('chat-app-name').innerText()).toBe('WeChat')
    // The user's own profile is badged; the file that could not be read is reported with why.
    const mine = section.locator('[data-testid="chat-app"][data-app="mychat"]')
    expect(await mine.getByTestId('chat-app-source').innerText()).toBe('Your profile')
    expect(await weixin.getByTestId('chat-app-source').count()).toBe(0)
    const problem = section.getByTestId('chat-apps-problem')
    expect(await problem.count()).toBe(1)
    expect(await problem.innerText()).toContain('broken.json')
    // The defaults of the other fields.
    expect(await section.getByTestId('settings-chat-min-interval').inputValue()).toBe('10')
    expect(await section.getByTestId('settings-chat-per-hour').inputValue()).toBe('20')
    expect(await section.getByTestId('settings-chat-watermark').inputValue()).toBe('suffix')
    expect(await section.getByTestId('settings-chat-suffix').inputValue()).toBe(' [DeskClaw]')
    expect(await section.getByTestId('settings-chat-timeout').inputValue()).toBe('60')

    // Turn WeChat on with the keyboard (a labelled switch), then list two chats (blank lines and repeats dropped).
    const toggle = weixin.getByRole('switch', { name: 'Let DeskClaw send messages in WeChat' })
    await toggle.focus()
    await page.keyboard.press('Space')
    expect(await toggle.isChecked()).toBe(true)
    expect(await weixin.getAttribute('data-enabled')).toBe('true')
    const allowlist = weixin.getByLabel('Chats it may send to')
    await allowlist.fill('File Transfer\n\n  Family  \nFile Transfer')
    await section.getByTestId('settings-chat-per-hour').fill('5')
    await section.getByTestId('settings-chat-watermark').selectOption('zero-width')
    // The suffix is only asked for with the suffix watermark.
    expect(await section.getByTestId('settings-chat-suffix').count()).toBe(0)

    await panel.getByTestId('settings-save').click()
    await panel.getByTestId('settings-saved').waitFor()
    const saved = temp.app.settings()
    expect(saved.chatApps).toEqual({ weixin: { enabled: true, allowlist: ['File Transfer', 'Family'] } })
    expect(saved.chatSendPerHour).toBe(5)
    expect(saved.chatWatermark).toBe('zero-width')
    expect(saved.chatSendMinIntervalSec).toBe(10)

    await settled(page)
    await panel.screenshot({ path: join(screenshotDir, 'chat-apps-settings.png') })

    // After a reload: what settings.get says, and what the form shows.
    await page.reload()
    const fromBridge = await settingsOverBridge(host.url)
    expect(fromBridge.chatApps).toEqual({ weixin: { enabled: true, allowlist: ['File Transfer', 'Family'] } })
    expect(fromBridge.chatSendPerHour).toBe(5)
    const again = await openSettings(page)
    const weixinAgain = again.section.locator('[data-testid="chat-app"][data-app="weixin"]')
    expect(await weixinAgain.getByTestId('chat-app-enabled').isChecked()).toBe(true)
    expect(await weixinAgain.getByTestId('chat-app-allowlist').inputValue()).toBe('File Transfer\nFamily')
    expect(await again.section.getByTestId('settings-chat-per-hour').inputValue()).toBe('5')
    expect(await again.section.getByTestId('settings-chat-watermark').inputValue()).toBe('zero-width')
  })

  it('shows a number out of range at its field and does not save it', async () => {
    const { page, temp } = session
    const { panel, section } = await openSettingsIfClosed(page)
    const before = temp.app.settings()

    const perHour = section.getByTestId('settings-chat-per-hour')
    await perHour.fill('0')
    const error = panel.locator('[data-testid="settings-field-error"][data-field="chatSendPerHour"]')
    await error.waitFor()
    expect(await error.innerText()).toContain('1 to 1000')
    expect(await perHour.getAttribute('aria-invalid')).toBe('true')
    expect(await panel.getByTestId('settings-save').isDisabled()).toBe(true)
    // Not a number either; Enter in a field does not submit while Save is disabled, and the footer says why.
    const timeout = section.getByTestId('settings-chat-timeout')
    await timeout.fill('abc')
    await panel.locator('[data-testid="settings-field-error"][data-field="chatSendTimeoutSec"]').waitFor()
    await timeout.press('Enter')
    await panel.getByText('Fix the fields marked in red to save.').waitFor()
    await page.waitForTimeout(200)
    expect(await panel.getByTestId('settings-saved').count()).toBe(0)
    expect(temp.app.settings()).toEqual(before)

    // Fixed: the errors go, and the form can be saved again.
    await perHour.fill('30')
    await timeout.fill('120')
    await error.waitFor({ state: 'detached' })
    expect(await panel.getByTestId('settings-save').isDisabled()).toBe(false)
    // An allowlist name longer than a chat name can be is refused at that app.
    const telegram = section.locator('[data-testid="chat-app"][data-app="telegram"]')
    await telegram.getByTestId('chat-app-enabled').check()
    await telegram.getByTestId('chat-app-allowlist').fill('x'.repeat(201))
    await panel.locator('[data-testid="settings-field-error"][data-field="chatApp.telegram"]').waitFor()
    expect(await panel.getByTestId('settings-save').isDisabled()).toBe(true)
    await telegram.getByTestId('chat-app-allowlist').fill('Saved Messages')
    await panel.getByTestId('settings-save').click()
    await panel.getByTestId('settings-saved').waitFor()
    const saved = temp.app.settings()
    expect(saved.chatSendPerHour).toBe(30)
    expect(saved.chatSendTimeoutSec).toBe(120)
    expect(saved.chatApps).toEqual({
      weixin: { enabled: true, allowlist: ['File Transfer', 'Family'] },
      telegram: { enabled: true, allowlist: ['Saved Messages'] }
    })
  })

  it('reads in Chinese, at 480 px and in dark mode', async () => {
    const { page, host } = session
    await page.goto(host.url)
    await page.getByTestId('language-toggle').click()
    await expect.poll(() => page.getByTestId('settings-button').innerText()).toBe('设置')
    const { panel, section } = await openSettings(page)
    expect(await section.locator('h3').innerText()).toBe('聊天应用')
    const weixin = section.locator('[data-testid="chat-app"][data-app="weixin"]')
    expect(await weixin.getByTestId('chat-app-name').innerText()).toBe('微信')
    expect(await section.locator('[data-testid="chat-app"][data-app="wecom"]').getByTestId('chat-app-name').innerText()).toBe('企业微信')
    expect(await section.locator('[data-testid="chat-app"][data-app="mychat"]').getByTestId('chat-app-source').innerText()).toBe('自定义配置')
    expect(await weixin.getByRole('switch', { name: '允许 DeskClaw 在微信中发送消息' }).isChecked()).toBe(true)
    expect(await weixin.getByLabel('允许发送的会话').inputValue()).toBe('File Transfer\nFamily')
    expect(await section.getByText('同一会话每小时最多消息数').isVisible()).toBe(true)
    expect(await section.getByTestId('chat-apps-problems').innerText()).toContain('以下配置文件无法读取')
    const options = await section.getByTestId('settings-chat-watermark').locator('option').allInnerTexts()
    expect(options).toEqual(['可见后缀', '隐形标记', '不标记'])
    await section.getByTestId('settings-chat-per-hour').fill('0')
    expect(await panel.locator('[data-testid="settings-field-error"][data-field="chatSendPerHour"]').innerText()).toContain('同一会话每小时最多消息数')
    await section.getByTestId('settings-chat-per-hour').fill('30')

    // Narrow and dark: the rows stack, nothing overflows sideways.
    await page.setViewportSize({ width: 480, height: 800 })
    await page.emulateMedia({ colorScheme: 'dark' })
    await section.scrollIntoViewIfNeeded()
    await settled(page)
    const overflow = await section.evaluate((el) => el.scrollWidth - el.clientWidth)
    expect(overflow).toBeLessThanOrEqual(1)
    await panel.screenshot({ path: join(screenshotDir, 'chat-apps-settings-zh-dark-480.png') })
    await page.emulateMedia({ colorScheme: 'light' })
    await page.setViewportSize({ width: 1280, height: 800 })
  })
})

/** `settings.get` as any bridge client asks it: over the web host's WebSocket, with the page's token. */
async function settingsOverBridge(pageUrl: string): Promise<Settings> {
  const url = new URL(pageUrl)
  const token = url.searchParams.get('token') ?? ''
  const socket = await new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(`ws://${url.host}/bridge?token=${encodeURIComponent(token)}`, { origin: url.origin })
    ws.once('open', () => resolve(ws))
    ws.once('error', reject)
  })
  try {
    const reply = new Promise<WireMessage>((resolve) =>
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as WireMessage
        if ('id' in message && message.id === 1) resolve(message)
      })
    )
    socket.send(JSON.stringify({ id: 1, call: 'settings.get', input: {} }))
    const message = await reply
    if (!('result' in message) || !message.result.ok) throw new Error(`settings.get failed: ${JSON.stringify(message)}`)
    return message.result.data as Settings
  } finally {
    socket.close()
  }
}

/** The settings panel, opened if the previous step left it closed. */
async function openSettingsIfClosed(page: Page) {
  const panel = page.getByTestId('settings-panel')
  if (await panel.isVisible()) {
    const section = panel.getByTestId('chat-apps-section')
    await section.locator('[data-testid="chat-app"]').first().waitFor()
    return { panel, section }
  }
  return openSettings(page)
}
