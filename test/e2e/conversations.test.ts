/**
 * The sidebar's conversation tools in a real Chromium through the web host: conversations made with
 * a scripted model, then found by what was said (English and Chinese), opened from the keyboard,
 * pinned to the top, renamed with the pencil, and exported as Markdown and JSON files (Playwright's
 * download event; the files' contents checked).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConversationDetailSchema } from '../../src/shared'
import { hasChromium, screenshotDir, settled } from '../helpers/browser'
import { startUiSession, type UiSession } from '../helpers/ui-session'

const OFFSITE = 'Help me plan the Q3 offsite'
const OFFSITE_ANSWER = 'Sure. Keep the budget under 20k and book the venue early; the team prefers the lake.'
const PRODUCT = '整理一下产品群的讨论'
const PRODUCT_ANSWER = '好的：产品群里大家同意下周发布新版本。'
const HAIKU = 'Write a haiku about rain'
const HAIKU_ANSWER = 'The folder is empty, so here is the haiku: rain taps the window.'

/** A new conversation through the UI, answered by the scripted model; its id. */
async function converseIn(session: UiSession, prompt: string, answer: string): Promise<string> {
  const { page } = session
  await page.getByTestId('new-conversation').click()
  await page.getByTestId('composer-input').fill(prompt)
  await page.getByTestId('send-button').click()
  await page.getByTestId('message-assistant').filter({ hasText: answer.slice(-12) }).waitFor()
  const id = await page.locator('[data-testid="conversation-item"].selected').getAttribute('data-conversation-id')
  if (!id) throw new Error('no conversation is selected after sending')
  // The answer is searchable once its run has ended (runs before beforeAll's expect.poll exists).
  const deadline = Date.now() + 10_000
  while (session.temp.app.store.getConversation(id)?.runs.at(-1)?.status !== 'completed') {
    if (Date.now() > deadline) throw new Error(`the run of ${id} did not complete`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return id
}

describe.skipIf(!hasChromium())('conversation search, pin, rename and export', () => {
  let session: UiSession
  let page: Page
  const ids: Record<'offsite' | 'product' | 'haiku', string> = { offsite: '', product: '', haiku: '' }

  const item = (id: string): Locator => page.locator(`[data-testid="conversation-item"][data-conversation-id="${id}"]`)
  const itemIds = (): Promise<string[]> =>
    page.getByTestId('conversation-item').evaluateAll((items) => items.map((el) => el.getAttribute('data-conversation-id') ?? ''))
  const search = () => page.getByTestId('conversation-search')
  const selectedId = () => page.locator('[data-testid="conversation-item"].selected').getAttribute('data-conversation-id')

  const converse = (prompt: string, answer: string): Promise<string> => converseIn(session, prompt, answer)

  beforeAll(async () => {
    session = await startUiSession([
      { text: OFFSITE_ANSWER, chunkDelayMs: 2 },
      { text: PRODUCT_ANSWER, chunkDelayMs: 2 },
      { text: 'Let me look at the folder first.', toolCalls: [{ name: 'file_list', args: {} }] },
      { text: HAIKU_ANSWER }
    ])
    page = session.page
    await page.emulateMedia({ colorScheme: 'light' })
    await page.goto(session.host.url)
    ids.offsite = await converse(OFFSITE, OFFSITE_ANSWER)
    ids.product = await converse(PRODUCT, PRODUCT_ANSWER)
    ids.haiku = await converse(HAIKU, HAIKU_ANSWER)
  })

  afterAll(async () => {
    await session?.close()
  })

  it('finds a conversation by what its answer said, highlights the words, and Enter opens it', async () => {
    // Ctrl+K from the composer puts the caret in the search box.
    await page.getByTestId('composer-input').focus()
    await page.keyboard.press('Control+k')
    await expect.poll(() => search().evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true)

    await page.keyboard.type('budget')
    const results = page.getByTestId('search-result')
    await expect.poll(() => results.count()).toBe(1)
    const hit = results.first()
    expect(await hit.getAttribute('data-conversation-id')).toBe(ids.offsite)
    expect(await hit.getAttribute('data-field')).toBe('message')
    expect(await hit.locator('.search-result-title').innerText()).toBe(OFFSITE)
    expect(await hit.getByTestId('search-snippet').innerText()).toContain('Keep the budget under 20k')
    expect(await hit.locator('mark').allInnerTexts()).toEqual(['budget'])
    // The list gives way to the results while there is a query.
    expect(await page.getByTestId('conversation-item').count()).toBe(0)
    await settled(page)
    await page.screenshot({ path: join(screenshotDir, 'search-en-light.png') })

    await page.keyboard.press('Enter')
    await expect.poll(selectedId).toBe(ids.offsite)
    expect(await search().inputValue()).toBe('')
    await expect.poll(() => page.getByTestId('message-assistant').last().innerText()).toContain('book the venue early')
  })

  it('finds Chinese text (three characters through the index, two by substring), and a click opens it', async () => {
    await search().fill('产品群')
    const results = page.getByTestId('search-result')
    await expect.poll(() => results.first().getAttribute('data-conversation-id')).toBe(ids.product)
    expect(await results.count()).toBe(1)
    expect(await results.first().getAttribute('data-field')).toBe('title')
    expect(await results.first().locator('mark').allInnerTexts()).toEqual(['产品群'])

    await search().fill('发布')
    await expect.poll(() => results.first().getByTestId('search-snippet').innerText().catch(() => '')).toContain('下周发布新版本')
    expect(await results.first().getAttribute('data-conversation-id')).toBe(ids.product)
    await results.first().click()
    await expect.poll(selectedId).toBe(ids.product)
    expect(await search().inputValue()).toBe('')
  })

  it('says when nothing matches, treats search syntax as text, and Escape clears the box', async () => {
    await search().fill('"NEAR(budget*')
    await page.getByTestId('search-empty').waitFor()
    expect(await page.getByTestId('search-empty').innerText()).toContain('"NEAR(budget*')
    await search().press('Escape')
    expect(await search().inputValue()).toBe('')
    await expect.poll(() => page.getByTestId('conversation-item').count()).toBe(3)
  })

  it('a pin moves a conversation to the top, in its own group, and stays there after a reload', async () => {
    expect(await itemIds()).toEqual([ids.haiku, ids.product, ids.offsite])
    await item(ids.offsite).hover()
    await item(ids.offsite).getByTestId('conversation-pin').click()
    await expect.poll(itemIds).toEqual([ids.offsite, ids.haiku, ids.product])
    expect(await item(ids.offsite).getAttribute('data-pinned')).toBe('true')
    expect(await item(ids.offsite).getByTestId('conversation-pin').getAttribute('aria-pressed')).toBe('true')
    expect(await page.getByTestId('pinned-group').getByTestId('conversation-item').count()).toBe(1)
    expect(session.temp.app.store.listConversations()[0]).toMatchObject({ id: ids.offsite, pinnedAt: expect.any(Number) })

    await page.reload()
    await expect.poll(itemIds).toEqual([ids.offsite, ids.haiku, ids.product])
    expect(await page.locator('#conversations-pinned-label').textContent()).toBe('Pinned')
  })

  it('renames with the pencil: Enter saves, Escape cancels', async () => {
    const row = item(ids.product)
    await row.hover()
    await row.getByTestId('conversation-rename').click()
    const input = row.getByTestId('conversation-rename-input')
    expect(await input.inputValue()).toBe(PRODUCT)
    await input.fill('Launch notes 发布')
    await input.press('Enter')
    await expect.poll(() => row.locator('.conversation-title').innerText()).toBe('Launch notes 发布')
    expect(session.temp.app.store.getConversation(ids.product)?.conversation.title).toBe('Launch notes 发布')
    // Focus comes back to the row, so the keyboard can go on from there.
    expect(await row.locator('.conversation-select').evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true)

    await row.hover()
    await row.getByTestId('conversation-rename').click()
    await row.getByTestId('conversation-rename-input').fill('Not this')
    await row.getByTestId('conversation-rename-input').press('Escape')
    expect(await row.getByTestId('conversation-rename-input').count()).toBe(0)
    expect(await row.locator('.conversation-title').innerText()).toBe('Launch notes 发布')
    expect(session.temp.app.store.getConversation(ids.product)?.conversation.title).toBe('Launch notes 发布')

    // The new title is what search finds.
    await search().fill('launch notes')
    await expect.poll(() => page.getByTestId('search-result').first().getAttribute('data-field')).toBe('title')
    expect(await page.getByTestId('search-result').first().getAttribute('data-conversation-id')).toBe(ids.product)
    await search().press('Escape')
  })

  it('exports Markdown and JSON from the row menu as downloads with the right names and contents', async () => {
    const row = item(ids.haiku)
    await row.hover()
    await row.getByTestId('conversation-menu').click()
    const menu = page.getByTestId('conversation-menu-list')
    await menu.waitFor()
    // The menu is reached from the keyboard: its first item has the focus.
    expect(await menu.locator('[role="menuitem"]').first().evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true)
    const [markdownDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('conversation-export-markdown').click()])
    expect(markdownDownload.suggestedFilename()).toBe(`${HAIKU}.md`)
    const markdown = readFileSync((await markdownDownload.path())!, 'utf8')
    expect(markdown.startsWith(`# ${HAIKU}\n`)).toBe(true)
    const order = ['## You', HAIKU, '## DeskClaw', 'Let me look at the folder first.', '<details>', '<summary><strong>file_list</strong>', 'Completed', '</details>', HAIKU_ANSWER]
    let from = 0
    for (const part of order) {
      const at = markdown.indexOf(part, from)
      expect(at, part).toBeGreaterThanOrEqual(0)
      from = at + part.length
    }
    expect(await menu.count()).toBe(0)

    await row.hover()
    await row.getByTestId('conversation-menu').click()
    const [jsonDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('conversation-export-json').click()])
    expect(jsonDownload.suggestedFilename()).toBe(`${HAIKU}.json`)
    const detail = ConversationDetailSchema.parse(JSON.parse(readFileSync((await jsonDownload.path())!, 'utf8')))
    expect(detail).toEqual(session.temp.app.store.getConversation(ids.haiku))
    expect(detail.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', HAIKU],
      ['assistant', 'Let me look at the folder first.'],
      ['assistant', HAIKU_ANSWER]
    ])
    expect(detail.toolCalls.map((c) => [c.tool, c.status])).toEqual([['file_list', 'completed']])

    // Escape closes the menu and gives the focus back to its button.
    await row.hover()
    await row.getByTestId('conversation-menu').click()
    await menu.waitFor()
    await page.keyboard.press('Escape')
    expect(await menu.count()).toBe(0)
    expect(await row.getByTestId('conversation-menu').evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true)
  })

  it('speaks Chinese: the search box and the row actions', async () => {
    await page.getByTestId('language-toggle').click()
    await expect.poll(() => search().getAttribute('placeholder')).toBe('搜索对话')
    expect(await item(ids.offsite).getByTestId('conversation-pin').getAttribute('aria-label')).toBe(`取消置顶: ${OFFSITE}`)
    expect(await page.locator('#conversations-pinned-label').textContent()).toBe('已置顶')
    await page.getByTestId('language-toggle').click()
    await expect.poll(() => search().getAttribute('placeholder')).toBe('Search conversations')
  })
})

/** The same tools with the UI in Simplified Chinese from the start: labels from i18n/zh-CN.ts. */
describe.skipIf(!hasChromium())('conversation search, pin, rename and export (zh-CN)', () => {
  const RENAMED = '发布说明'
  let session: UiSession
  let page: Page
  const ids: Record<'offsite' | 'product', string> = { offsite: '', product: '' }

  const item = (id: string): Locator => page.locator(`[data-testid="conversation-item"][data-conversation-id="${id}"]`)
  const itemIds = (): Promise<string[]> =>
    page.getByTestId('conversation-item').evaluateAll((items) => items.map((el) => el.getAttribute('data-conversation-id') ?? ''))
  const search = () => page.getByPlaceholder('搜索对话')
  const selectedId = () => page.locator('[data-testid="conversation-item"].selected').getAttribute('data-conversation-id')

  beforeAll(async () => {
    session = await startUiSession(
      [
        { text: OFFSITE_ANSWER, chunkDelayMs: 2 },
        { text: PRODUCT_ANSWER, chunkDelayMs: 2 }
      ],
      { language: 'zh-CN' }
    )
    page = session.page
    await page.goto(session.host.url)
    // The settings (language: zh-CN) arrive over the bridge after the first paint.
    await page.getByTestId('new-conversation').getByText('新建对话', { exact: true }).waitFor()
    ids.offsite = await converseIn(session, OFFSITE, OFFSITE_ANSWER)
    ids.product = await converseIn(session, PRODUCT, PRODUCT_ANSWER)
  })

  afterAll(async () => {
    await session?.close()
  })

  it('searches with a Chinese query under a Chinese placeholder, and says in Chinese when nothing matches', async () => {
    expect(await search().isVisible()).toBe(true)
    expect(await page.getByRole('combobox', { name: '搜索对话' }).isVisible()).toBe(true)
    await search().fill('发布')
    const results = page.getByTestId('search-result')
    await expect.poll(() => results.first().getByTestId('search-snippet').innerText().catch(() => '')).toContain('下周发布新版本')
    expect(await results.count()).toBe(1)
    expect(await results.first().getAttribute('data-conversation-id')).toBe(ids.product)
    expect(await results.first().locator('mark').allInnerTexts()).toEqual(['发布'])
    await results.first().click()
    await expect.poll(selectedId).toBe(ids.product)
    expect(await search().inputValue()).toBe('')

    await search().fill('年度预算')
    const empty = page.getByTestId('search-empty')
    await empty.waitFor()
    expect(await empty.innerText()).toBe('没有对话提到“年度预算”。')
    await search().press('Escape')
    await expect.poll(() => page.getByTestId('conversation-item').count()).toBe(2)
  })

  it('pins with the 置顶 button into the 已置顶 group', async () => {
    expect(await itemIds()).toEqual([ids.product, ids.offsite])
    const row = item(ids.offsite)
    await row.hover()
    await row.getByRole('button', { name: `置顶: ${OFFSITE}` }).click()
    await expect.poll(itemIds).toEqual([ids.offsite, ids.product])
    const unpin = row.getByRole('button', { name: `取消置顶: ${OFFSITE}` })
    expect(await unpin.getAttribute('aria-pressed')).toBe('true')
    expect(await unpin.getAttribute('title')).toBe('取消置顶')
    const pinnedLabel = page.locator('#conversations-pinned-label')
    expect(await pinnedLabel.isVisible()).toBe(true)
    expect(await pinnedLabel.textContent()).toBe('已置顶')
    expect(session.temp.app.store.listConversations()[0]).toMatchObject({ id: ids.offsite, pinnedAt: expect.any(Number) })
  })

  it('renames with the visible 重命名 control; the new title is what search finds', async () => {
    const row = item(ids.product)
    await row.hover()
    const pencil = row.getByRole('button', { name: `重命名: ${PRODUCT}` })
    expect(await pencil.isVisible()).toBe(true)
    expect(await pencil.getAttribute('title')).toBe('重命名 (F2)')
    await pencil.click()
    const input = row.getByRole('textbox', { name: '对话名称（Enter 保存，Esc 取消）' })
    expect(await input.inputValue()).toBe(PRODUCT)
    await input.fill(RENAMED)
    await input.press('Enter')
    await expect.poll(() => row.locator('.conversation-title').innerText()).toBe(RENAMED)
    expect(session.temp.app.store.getConversation(ids.product)?.conversation.title).toBe(RENAMED)

    await search().fill(RENAMED)
    await expect.poll(() => page.getByTestId('search-result').first().getAttribute('data-field')).toBe('title')
    expect(await page.getByTestId('search-result').first().getAttribute('data-conversation-id')).toBe(ids.product)
    await search().press('Escape')
  })

  it('exports from the 更多操作 menu: 导出为 Markdown (Chinese headings) and 导出为 JSON', async () => {
    const row = item(ids.product)
    await row.hover()
    await row.getByRole('button', { name: `更多操作: ${RENAMED}` }).click()
    const menu = page.getByTestId('conversation-menu-list')
    await menu.waitFor()
    expect(await menu.getByRole('menuitem').allInnerTexts()).toEqual(['重命名', '置顶', '导出为 Markdown', '导出为 JSON', '删除对话'])
    const markdownItem = menu.getByRole('menuitem', { name: '导出为 Markdown' })
    expect(await markdownItem.isVisible()).toBe(true)
    const [markdownDownload] = await Promise.all([page.waitForEvent('download'), markdownItem.click()])
    expect(markdownDownload.suggestedFilename()).toBe(`${RENAMED}.md`)
    const markdown = readFileSync((await markdownDownload.path())!, 'utf8')
    expect(markdown.startsWith(`# ${RENAMED}\n`)).toBe(true)
    let from = 0
    for (const part of ['## 你', PRODUCT, '## DeskClaw', PRODUCT_ANSWER]) {
      const at = markdown.indexOf(part, from)
      expect(at, part).toBeGreaterThanOrEqual(0)
      from = at + part.length
    }

    await row.hover()
    await row.getByRole('button', { name: `更多操作: ${RENAMED}` }).click()
    const jsonItem = page.getByTestId('conversation-menu-list').getByRole('menuitem', { name: '导出为 JSON' })
    expect(await jsonItem.isVisible()).toBe(true)
    const [jsonDownload] = await Promise.all([page.waitForEvent('download'), jsonItem.click()])
    expect(jsonDownload.suggestedFilename()).toBe(`${RENAMED}.json`)
    const detail = ConversationDetailSchema.parse(JSON.parse(readFileSync((await jsonDownload.path())!, 'utf8')))
    expect(detail).toEqual(session.temp.app.store.getConversation(ids.product))
    expect(detail.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', PRODUCT],
      ['assistant', PRODUCT_ANSWER]
    ])
  })
})
