/**
 * The quick-command palette (issue 13) in a real Chromium through the web host, which serves it at
 * /palette.html: a task typed, a recent workspace picked from the keyboard, Enter runs it in a new
 * conversation in that folder, the write it asks for is approved in the palette, the answer shows,
 * and "Open in DeskClaw" makes the main UI (a second tab) switch to that conversation. Then
 * screenshots of the palette in English and Chinese, light and dark, checked for language and theme.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BridgeEvent, Settings } from '../../src/shared'
import { hasChromium, screenshotDir, settled } from '../helpers/browser'
import { startUiSession, type UiSession } from '../helpers/ui-session'

const NOTE = '# Release notes\n\n- palette\n- tray\n'
const TASK = 'Write the release notes to note.md'

/** The page's background luminance (0–255), as Chromium computed it for the emulated theme. */
async function backgroundLuminance(page: Page): Promise<number> {
  const background: string = await page
    .locator('body')
    .evaluate((body) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(body).backgroundColor)
  const channels = (background.match(/\d+/g) ?? []).slice(0, 3).map(Number)
  return channels.reduce((sum, channel) => sum + channel, 0) / 3
}

describe.skipIf(!hasChromium())('the quick-command palette', () => {
  let session: UiSession
  let palette: Page
  let alpha: string
  let beta: string
  const shows: Array<Extract<BridgeEvent, { kind: 'show_conversation' }>> = []

  beforeAll(async () => {
    session = await startUiSession([
      // The palette's task: a write that asks, then the answer.
      { text: 'I will write the notes to `note.md`.', toolCalls: [{ name: 'file_write', args: { path: 'note.md', content: NOTE } }] },
      { text: 'Done! The notes are in **note.md**:\n\n```bash\ncat note.md\n```\n\nTwo items.', chunkDelayMs: 5 },
      // The second task (Ctrl+Enter, the default workspace): an answer only.
      { text: 'It is **Tuesday**.' },
      // The screenshots' task: a read that runs without asking, then a Markdown answer.
      { text: 'Let me look at the folder first.', toolCalls: [{ name: 'file_list', args: {} }] },
      { text: 'The folder **alpha** has one file:\n\n- `note.md` — the release notes (two items)\n\nNothing else is there.' }
    ])
    const { temp, browser } = session
    // Two folders used before, besides the Settings workspace: the recent list is Settings', beta, alpha.
    const root = join(temp.workspace, '..', 'projects')
    alpha = join(root, 'alpha')
    beta = join(root, 'beta')
    mkdirSync(alpha, { recursive: true })
    mkdirSync(beta, { recursive: true })
    temp.app.store.createConversation('Earlier in alpha', alpha)
    await new Promise((resolve) => setTimeout(resolve, 5))
    temp.app.store.createConversation('Earlier in beta', beta)
    temp.app.events.subscribe((event) => {
      if (event.kind === 'show_conversation') shows.push(event)
    })
    // The palette window's size in the desktop app.
    palette = await browser.newPage({ viewport: { width: 640, height: 420 }, locale: 'en-US' })
    palette.on('pageerror', (error) => console.error('[palette page error]', error.message))
  })

  afterAll(async () => {
    await session?.close()
  })

  const paletteUrl = (): string => {
    const url = new URL(session.host.url)
    url.pathname = '/palette.html'
    return url.toString()
  }

  it('runs a task in the chosen workspace, asks in the palette, shows the answer and opens it in DeskClaw', async () => {
    const { page: main, host, temp } = session
    // The main UI in another tab, listening for show_conversation.
    await main.goto(host.url)
    await main.getByTestId('new-conversation').waitFor()

    await palette.goto(paletteUrl())
    const root = palette.getByTestId('palette')
    expect(await root.getAttribute('data-phase')).toBe('idle')
    const input = palette.getByTestId('palette-input')
    await expect.poll(() => input.evaluate((el) => el === (el.ownerDocument as unknown as { activeElement: unknown }).activeElement)).toBe(true)

    // Recent workspaces, the most recent chosen first.
    const options = palette.getByTestId('palette-workspace')
    await expect.poll(() => options.count()).toBe(3)
    expect(await options.evaluateAll((els) => els.map((el) => el.getAttribute('data-path')))).toEqual([temp.workspace, beta, alpha])
    expect(await options.first().getAttribute('aria-checked')).toBe('true')

    // Type, Tab into the picker, ↓ ↓ to alpha (↑ wraps around and comes back), Enter runs.
    await input.fill(TASK)
    await palette.keyboard.press('Tab')
    await palette.keyboard.press('ArrowDown')
    await palette.keyboard.press('ArrowDown')
    await palette.keyboard.press('ArrowUp')
    await palette.keyboard.press('ArrowDown')
    const chosen = palette.locator('[data-testid="palette-workspace"][aria-checked="true"]')
    expect(await chosen.getAttribute('data-path')).toBe(alpha)
    expect(await chosen.evaluate((el) => el === (el.ownerDocument as unknown as { activeElement: unknown }).activeElement)).toBe(true)
    await palette.keyboard.press('Enter')

    // A new conversation in alpha, its progress live: the write waits for an answer.
    await expect.poll(() => root.getAttribute('data-phase')).toBe('task')
    expect(await palette.getByTestId('palette-task').innerText()).toBe(TASK)
    expect(await palette.getByTestId('palette-task-workspace').getAttribute('data-path')).toBe(alpha)
    const modal = palette.getByTestId('approval-modal')
    await modal.waitFor({ state: 'visible' })
    const row = palette.locator('[data-testid="palette-tool"][data-tool="file_write"]')
    expect(await row.getAttribute('data-status')).toBe('awaiting_approval')
    expect(await palette.getByTestId('palette-status').getAttribute('data-status')).toBe('awaiting_approval')
    expect(await palette.getByTestId('palette-step-note').first().innerText()).toContain('I will write the notes')
    await expect.poll(() => modal.locator('[data-testid="approval-field"][data-label="Path"]').innerText()).toContain('note.md')
    expect(existsSync(join(alpha, 'note.md'))).toBe(false)
    await expect.poll(() => modal.getByTestId('approval-allow').isEnabled()).toBe(true)
    await settled(palette)
    await palette.screenshot({ path: join(screenshotDir, 'palette-approval-en-light.png') })
    await modal.getByTestId('approval-allow').click()
    await modal.waitFor({ state: 'hidden' })

    // The answer, as Markdown; the file written in alpha, not in the Settings workspace.
    const answer = palette.getByTestId('palette-answer')
    await expect.poll(() => answer.getAttribute('data-final')).toBe('true')
    expect(await answer.innerText()).toContain('Two items.')
    expect(await answer.locator('pre code').count()).toBe(1)
    expect(await answer.locator('strong').innerText()).toBe('note.md')
    await expect.poll(() => row.getAttribute('data-status')).toBe('completed')
    expect(await palette.getByTestId('palette-status').getAttribute('data-status')).toBe('done')
    expect(readFileSync(join(alpha, 'note.md'), 'utf8')).toBe(NOTE)
    expect(existsSync(join(temp.workspace, 'note.md'))).toBe(false)
    const resolved = temp.events.find((e) => e.type === 'approval_resolved')
    expect(resolved).toMatchObject({ answer: 'allow_once', by: 'user' })
    const conversationId = resolved!.conversationId
    expect(temp.app.store.getConversation(conversationId)!.conversation.workspace).toBe(alpha)
    // A row opens into the full tool card.
    await row.locator('.palette-tool-row').click()
    expect(await row.getByTestId('tool-call').getAttribute('data-status')).toBe('completed')
    await row.locator('.palette-tool-row').click()

    // "Open in DeskClaw": show_conversation, and the main UI switches to it.
    expect(await main.locator(`[data-testid="conversation-item"][data-conversation-id="${conversationId}"].selected`).count()).toBe(0)
    await palette.getByTestId('palette-open').click()
    await expect.poll(() => shows.map((e) => e.conversationId)).toEqual([conversationId])
    await main.locator(`[data-testid="conversation-item"][data-conversation-id="${conversationId}"].selected`).waitFor()
    await expect.poll(() => main.getByTestId('message-user').first().getByTestId('user-bubble').innerText()).toBe(TASK)
    await expect.poll(() => main.getByTestId('message-assistant').last().innerText()).toContain('Two items.')
    expect(await palette.getByTestId('palette-error').count()).toBe(0)
  })

  it('Esc clears it in the browser, and Ctrl+Enter runs a task in the most recent workspace', async () => {
    const { temp } = session
    const root = palette.getByTestId('palette')
    await palette.keyboard.press('Escape')
    await expect.poll(() => root.getAttribute('data-phase')).toBe('idle')
    const input = palette.getByTestId('palette-input')
    expect(await input.inputValue()).toBe('')
    // alpha was just used: it is now the most recent folder after the Settings workspace.
    await expect.poll(() => palette.getByTestId('palette-workspace').evaluateAll((els) => els.map((el) => el.getAttribute('data-path')))).toEqual([
      temp.workspace,
      alpha,
      beta
    ])

    await input.fill('What day is it?')
    await input.press('Shift+Enter') // a new line, not a run
    expect(await root.getAttribute('data-phase')).toBe('idle')
    await input.press('Control+Enter')
    const answer = palette.getByTestId('palette-answer')
    await expect.poll(() => answer.getAttribute('data-final')).toBe('true')
    expect(await answer.innerText()).toBe('It is Tuesday.')
    expect(await palette.getByTestId('palette-tool').count()).toBe(0)
    const started = temp.events.filter((e) => e.type === 'run_started').at(-1)!
    expect(temp.app.store.getConversation(started.conversationId)!.conversation.workspace).toBe(temp.workspace)
  })

  it('screenshots in English and Chinese, light and dark', async () => {
    const { temp } = session
    const variants: Array<{ language: Settings['language']; theme: 'light' | 'dark' }> = [
      { language: 'en', theme: 'light' },
      { language: 'en', theme: 'dark' },
      { language: 'zh-CN', theme: 'light' },
      { language: 'zh-CN', theme: 'dark' }
    ]
    // A finished task with a tool row and a Markdown answer, in alpha (↓ once: the second most recent).
    await palette.getByTestId('palette-new').click()
    const input = palette.getByTestId('palette-input')
    await input.fill('What is in the alpha folder?')
    await input.press('Tab')
    await palette.keyboard.press('ArrowDown')
    await palette.keyboard.press('Enter')
    await expect.poll(() => palette.getByTestId('palette-answer').getAttribute('data-final')).toBe('true')
    expect(await palette.locator('[data-testid="palette-tool"][data-tool="file_list"]').getAttribute('data-status')).toBe('completed')
    expect(await palette.getByTestId('palette-task-workspace').getAttribute('data-path')).toBe(alpha)
    for (const { language, theme } of variants) {
      temp.app.updateSettings({ language })
      await palette.emulateMedia({ colorScheme: theme })
      // "system" follows the change on the next frame (features/theme listens for it).
      await expect.poll(async () => {
        const luminance = await backgroundLuminance(palette)
        return theme === 'dark' ? luminance < 90 : luminance > 170
      }).toBe(true)
      const open = palette.getByTestId('palette-open')
      await expect.poll(() => open.innerText()).toBe(language === 'zh-CN' ? '在 DeskClaw 中打开' : 'Open in DeskClaw')
      await settled(palette)
      await palette.screenshot({ path: join(screenshotDir, `palette-${language}-${theme}.png`) })
    }

    // The empty palette with its workspace picker, in each variant too.
    await palette.getByTestId('palette-new').click()
    await expect.poll(() => palette.getByTestId('palette').getAttribute('data-phase')).toBe('idle')
    await palette.getByTestId('palette-input').fill('Summarise the open pull requests')
    for (const { language, theme } of variants) {
      temp.app.updateSettings({ language })
      await palette.emulateMedia({ colorScheme: theme })
      await expect
        .poll(() => palette.getByTestId('palette-submit').innerText())
        .toBe(language === 'zh-CN' ? '运行' : 'Run')
      await settled(palette)
      await palette.screenshot({ path: join(screenshotDir, `palette-idle-${language}-${theme}.png`) })
    }
    temp.app.updateSettings({ language: 'en' })
    await palette.emulateMedia({ colorScheme: 'light' })
  })
})
