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

describe.skipIf(!hasChromium())('conversation search, pin, rename and export', () => {
  let session: UiSession
  let page: Page
  const ids: Record<'offsite' | 'product' | 'haiku', string> = { offsite: '', product: '', haiku: '' }

  const item = (id: string): Locator => page.locator(`[data-testid="conversation-item"][data-conversation-id="${id}"]`)
  const itemIds = (): Promise<string[]> =>
    page.getByTestId('conversation-item').evaluateAll((items) => items.map((el) => el.getAttribute('data-conversation-id') ?? ''))
  const search = () => page.getByTestId('conversation-search')
  const selectedId = () => page.locator('[data-testid="conversation-item"].selected').getAttribute('data-conversation-id')

  /** A new conversation through the UI, answered by the scripted model; its id. */
  async function converse(prompt: string, answer: string): Promise<string> {
    await page.getByTestId('new-conversation').click()
    await page.getByTestId('composer-input').fill(prompt)
    await page.getByTestId('send-button').click()
    await page.getByTestId('message-assistant').filter({ hasText: answer.slice(-12) }).waitFor()
    const id = await selectedId()
    if (!id) throw new Error('no conversation is selected after sending')
    // The answer is searchable once its run has ended (runs before beforeAll's expect.poll exists).
    const deadline = Date.now() + 10_000
    while (session.temp.app.store.getConversation(id)?.runs.at(-1)?.status !== 'completed') {
      if (Date.now() > deadline) throw new Error(`the run of ${id} did not complete`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    return id
  }

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
