/**
 * Message versions in a real Chromium through the web host (docs/architecture.md, "Message
 * versions"): Regenerate keeps the old answer one page back ("‹ 2 / 2 ›"), Edit and resend starts
 * a branch and keeps the old one, a question sent while an older answer is on screen continues
 * that answer, and the scripted model's recorded requests prove it only ever saw the path being
 * continued. After a reload every version is still there. English and Chinese labels.
 */
import { join } from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RecordedRequest } from '../fixtures/scripted-types'
import { hasChromium, screenshotDir, settled } from '../helpers/browser'
import { startUiSession, type UiSession } from '../helpers/ui-session'

const COLOUR = 'Name a colour for the logo'
const BLUE = 'Blue, like the lake behind the office.'
const GREEN = 'Green, like the hills in spring.'
const FRUIT = 'Name a fruit for the mascot'
const APPLE = 'An apple: round, friendly and easy to draw.'
const WHY = 'Why that one?'
const BECAUSE = 'Because the lake is what visitors see first.'

/** What the model was asked: the recorded chat requests' bodies, as text. */
function modelRequests(session: UiSession): string[] {
  return session.server.requests
    .filter((request: RecordedRequest) => request.path.startsWith('/v1/chat/completions'))
    .map((request) => JSON.stringify(request.body?.messages ?? []))
}

/** The pager of the answer or the question on screen, its "n / m" and its buttons. */
function pager(scope: Locator, kind: 'answer' | 'question') {
  const root = scope.locator(`[data-testid="version-pager"][data-kind="${kind}"]`)
  return {
    root,
    count: () => root.getByTestId('version-count').innerText(),
    previous: root.getByTestId('version-previous'),
    next: root.getByTestId('version-next')
  }
}

/** The run is over: the composer offers Send again and the thinking dots are gone. */
async function waitIdle(page: Page): Promise<void> {
  await page.getByTestId('send-button').waitFor()
  await page.getByTestId('thinking').waitFor({ state: 'detached' })
}

describe.skipIf(!hasChromium())('message versions: regenerate, edit and resend (English)', () => {
  let session: UiSession
  let page: Page
  const list = () => page.getByTestId('message-list')
  const answers = () => page.getByTestId('message-assistant')
  const questions = () => page.getByTestId('message-user')

  beforeAll(async () => {
    session = await startUiSession([
      { text: BLUE, chunkDelayMs: 2 },
      { text: GREEN, chunkDelayMs: 2 },
      { text: APPLE, chunkDelayMs: 2 },
      { text: BECAUSE, chunkDelayMs: 2 }
    ])
    page = session.page
    await page.emulateMedia({ colorScheme: 'light' })
    await page.goto(session.host.url)
    await page.getByTestId('composer-input').fill(COLOUR)
    await page.getByTestId('send-button').click()
    await answers().filter({ hasText: BLUE }).waitFor()
    await waitIdle(page)
  })

  afterAll(async () => {
    await session?.close()
  })

  it('regenerate: a new answer shows as "2 / 2", the first one is one page back, and the model never saw it', async () => {
    // One answer, one version: no pager yet.
    expect(await list().getByTestId('version-pager').count()).toBe(0)
    const regenerate = answers().last().getByTestId('message-regenerate')
    expect(await regenerate.getAttribute('aria-label')).toBe('Regenerate answer')
    // From the keyboard: focus shows the actions, Enter presses the button.
    await regenerate.focus()
    await page.keyboard.press('Enter')
    await answers().filter({ hasText: GREEN }).waitFor()
    await waitIdle(page)

    const answerPager = pager(list(), 'answer')
    await expect.poll(answerPager.count).toBe('2 / 2')
    expect(await answers().count()).toBe(1)
    expect(await answers().last().innerText()).toContain(GREEN)
    expect(await answerPager.root.getAttribute('aria-label')).toBe('Answer versions')
    expect(await answerPager.previous.getAttribute('aria-label')).toBe('Previous version')
    expect(await answerPager.next.isDisabled()).toBe(true)

    await answerPager.previous.click()
    await expect.poll(answerPager.count).toBe('1 / 2')
    expect(await answers().last().innerText()).toContain(BLUE)
    expect(await answers().count()).toBe(1)
    // The same question, not a second copy of it.
    expect(await questions().count()).toBe(1)

    const requests = modelRequests(session)
    expect(requests).toHaveLength(2)
    expect(requests[1]).toContain(COLOUR)
    expect(requests[1]).not.toContain(BLUE)
    // Stored as two runs answering one question.
    const detail = session.temp.app.store.getConversation(session.temp.app.store.listConversations()[0]!.id)!
    expect(detail.messages.filter((m) => m.role === 'user')).toHaveLength(1)
    expect(new Set(detail.runs.map((r) => r.answersMessageId)).size).toBe(1)
  })

  it('edit and resend: a new branch from the question, the old one one page back on the question', async () => {
    const question = questions().last()
    await question.hover()
    const edit = question.getByTestId('message-edit')
    expect(await edit.getAttribute('aria-label')).toBe('Edit and resend')
    await edit.click()
    const input = page.getByTestId('question-editor-input')
    expect(await input.inputValue()).toBe(COLOUR)
    // Escape leaves it as it was.
    await input.press('Escape')
    expect(await page.getByTestId('question-editor').count()).toBe(0)

    await question.hover()
    await question.getByTestId('message-edit').click()
    await page.getByTestId('question-editor-input').fill(FRUIT)
    await page.getByTestId('question-editor-input').press('Enter')
    await answers().filter({ hasText: APPLE }).waitFor()
    await waitIdle(page)

    const questionPager = pager(list(), 'question')
    await expect.poll(questionPager.count).toBe('2 / 2')
    expect(await questions().allInnerTexts()).toEqual([expect.stringContaining(FRUIT)])
    expect(await answers().allInnerTexts()).toEqual([expect.stringContaining(APPLE)])
    // The new branch has one answer: no answer pager.
    expect(await list().locator('[data-testid="version-pager"][data-kind="answer"]').count()).toBe(0)

    // The model saw the new question alone: nothing of the old branch.
    const request = modelRequests(session)[2]!
    expect(request).toContain(FRUIT)
    for (const old of [COLOUR, BLUE, GREEN]) expect(request).not.toContain(old)

    // One page back: the old question with the answer that was on screen (the first one).
    await questionPager.previous.click()
    await expect.poll(questionPager.count).toBe('1 / 2')
    expect(await questions().last().innerText()).toContain(COLOUR)
    expect(await answers().last().innerText()).toContain(BLUE)
    await expect.poll(pager(list(), 'answer').count).toBe('1 / 2')
  })

  it('a question sent while an older answer is on screen continues that answer', async () => {
    await page.getByTestId('composer-input').fill(WHY)
    await page.getByTestId('send-button').click()
    await answers().filter({ hasText: BECAUSE }).waitFor()
    await waitIdle(page)

    const request = modelRequests(session)[3]!
    expect(request).toContain(COLOUR)
    expect(request).toContain(BLUE)
    for (const other of [GREEN, FRUIT, APPLE]) expect(request).not.toContain(other)
    expect(await questions().allInnerTexts()).toEqual([expect.stringContaining(COLOUR), expect.stringContaining(WHY)])
  })

  it('after a reload every version is still there, on the branch last worked on', async () => {
    await page.reload()
    await answers().filter({ hasText: BECAUSE }).waitFor()
    const questionPager = pager(list(), 'question')
    const answerPager = pager(list(), 'answer')
    await expect.poll(questionPager.count).toBe('1 / 2')
    await expect.poll(answerPager.count).toBe('1 / 2')
    expect(await answers().allInnerTexts()).toEqual([expect.stringContaining(BLUE), expect.stringContaining(BECAUSE)])
    await settled(page)
    await page.screenshot({ path: join(screenshotDir, 'message-versions-en.png') })

    await answerPager.next.click()
    await expect.poll(answerPager.count).toBe('2 / 2')
    // The other answer has no follow-up: the branch ends there.
    expect(await answers().allInnerTexts()).toEqual([expect.stringContaining(GREEN)])
    expect(await questions().count()).toBe(1)

    await questionPager.next.click()
    await expect.poll(questionPager.count).toBe('2 / 2')
    expect(await answers().allInnerTexts()).toEqual([expect.stringContaining(APPLE)])
  })
})

describe.skipIf(!hasChromium())('message versions in Chinese', () => {
  let session: UiSession
  let page: Page

  beforeAll(async () => {
    session = await startUiSession(
      [
        { text: '蓝色，像办公室后面的湖。', chunkDelayMs: 2 },
        { text: '绿色，像春天的山。', chunkDelayMs: 2 },
        { text: '苹果：圆圆的，好画。', chunkDelayMs: 2 }
      ],
      { language: 'zh-CN' }
    )
    page = session.page
    await page.emulateMedia({ colorScheme: 'light' })
    await page.goto(session.host.url)
  })

  afterAll(async () => {
    await session?.close()
  })

  it('shows the actions and the pagers with Chinese labels', async () => {
    await page.getByTestId('composer-input').fill('给标志选一个颜色')
    await page.getByTestId('send-button').click()
    const answers = page.getByTestId('message-assistant')
    await answers.filter({ hasText: '蓝色' }).waitFor()
    await waitIdle(page)

    const regenerate = answers.last().getByTestId('message-regenerate')
    expect(await regenerate.getAttribute('aria-label')).toBe('重新生成回答')
    await answers.last().hover()
    await regenerate.click()
    await answers.filter({ hasText: '绿色' }).waitFor()
    await waitIdle(page)
    const list = page.getByTestId('message-list')
    const answerPager = pager(list, 'answer')
    await expect.poll(answerPager.count).toBe('2 / 2')
    expect(await answerPager.root.getAttribute('aria-label')).toBe('回答的版本')
    expect(await answerPager.previous.getAttribute('aria-label')).toBe('上一个版本')
    expect(await answerPager.next.getAttribute('aria-label')).toBe('下一个版本')
    expect(modelRequests(session)[1]).not.toContain('蓝色')

    const question = page.getByTestId('message-user').last()
    await question.hover()
    expect(await question.getByTestId('message-edit').getAttribute('aria-label')).toBe('编辑并重新发送')
    await question.getByTestId('message-edit').click()
    expect(await page.getByTestId('question-editor-send').innerText()).toBe('发送')
    expect(await page.getByTestId('question-editor-cancel').innerText()).toBe('取消')
    await page.getByTestId('question-editor-input').fill('给吉祥物选一种水果')
    await page.getByTestId('question-editor-send').click()
    await answers.filter({ hasText: '苹果' }).waitFor()
    await waitIdle(page)
    const questionPager = pager(list, 'question')
    await expect.poll(questionPager.count).toBe('2 / 2')
    expect(await questionPager.root.getAttribute('aria-label')).toBe('消息的版本')

    await questionPager.previous.click()
    await expect.poll(questionPager.count).toBe('1 / 2')
    await expect.poll(answerPager.count).toBe('2 / 2')
    await page.getByTestId('message-user').last().hover()
    await settled(page)
    await page.screenshot({ path: join(screenshotDir, 'message-versions-zh-CN.png') })
  })
})
