/**
 * A long call's steps (`tool_progress`) in a real Chromium against the web host. The events are
 * recorded in the store and published on the app's event bus exactly as the app's own emit does,
 * without a desktop: a run of four file listings and a chat send folds; the send's compact row
 * says its latest step; opened, its card lists the steps as a checklist with the crop a step
 * checked (enlarged on click); a failed step is red and pins the card under the folded row. An
 * approval that may only be answered once offers no "for this conversation" or "always", and
 * ignores their keys. In English and in Chinese. (The run stays open, so its spinner never settles:
 * screenshots are taken with animations disabled.)
 */
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AgentEvent, ToolAttachmentRef } from '../../src/shared'
import { hasChromium, screenshotDir } from '../helpers/browser'
import { startUiSession, type UiSession } from '../helpers/ui-session'

describe.skipIf(!hasChromium())('tool steps in the web UI', () => {
  let session: UiSession
  let conversationId = ''
  const runId = 'run_steps_1'
  const callId = 'call_send_1'
  /** Seqs for questions that are only published (askOnce), far above the app's own. */
  let seq = 1_000_000
  let at = Date.now() - 60_000
  const tick = () => (at += 10)
  const crop: ToolAttachmentRef = { id: 'att_crop_1', kind: 'image', mediaType: 'image/png', name: 'target.png', width: 240, height: 40, bytes: 0 }

  /**
   * What the app's emit does: the store records the event and the app publishes it to every front door
   * once its batch committed, with the app's own seq (docs/architecture.md, "One event stream").
   * Publishing it here as well would show every step twice.
   */
  const emit = (event: AgentEvent) => session.temp.app.store.recordEvent(event)
  const step = (step: string, ok: boolean, detail: string, attachment?: ToolAttachmentRef) =>
    emit({ type: 'tool_progress', runId, conversationId, at: tick(), callId, tool: 'chat_send', step, ok, detail, ...(attachment ? { attachment } : {}) })

  beforeAll(async () => {
    session = await startUiSession([])
    const { store } = session.temp.app
    conversationId = store.createConversation('Send a message').id
    const scope = { runId, conversationId }
    store.addUserMessage(conversationId, runId, 'Tell File Transfer that the build is done')
    store.recordEvent({ type: 'run_started', ...scope, at: tick(), prompt: 'Tell File Transfer that the build is done', model: 'scripted-model' })
    for (let i = 0; i < 4; i++) {
      const id = `call_list_${i}`
      store.recordEvent({ type: 'tool_call_started', ...scope, at: tick(), callId: id, tool: 'file_list', args: { path: `d${i}` }, summary: `d${i}` })
      store.recordEvent({ type: 'tool_call_completed', ...scope, at: tick(), callId: id, tool: 'file_list', status: 'completed', isError: false, output: 'a.txt\n', durationMs: 2 })
    }
    store.recordEvent({
      type: 'tool_call_started',
      ...scope,
      at: tick(),
      callId,
      tool: 'chat_send',
      args: { app: 'weixin', chat: 'File Transfer', text: 'The build is done.' },
      summary: 'WeChat → File Transfer'
    })
    // The crop a step checked: a small picture, stored like any tool attachment.
    const png = await sharp({ create: { width: 240, height: 40, channels: 3, background: '#dfe6f0' } }).png().toBuffer()
    crop.bytes = png.length
    store.saveAttachment({ ref: crop, conversationId, runId, callId, data: png })
  })

  afterAll(async () => {
    await session?.close()
  })

  it('shows the steps live as a checklist, a failed one in red, and keeps that call in view', async () => {
    const { page, host } = session
    await page.emulateMedia({ colorScheme: 'light' })
    await page.goto(host.url)
    await page.getByTestId('conversation-item').filter({ hasText: 'Send a message' }).click()
    const group = page.getByTestId('tool-group')
    await group.waitFor()
    expect(await group.getAttribute('data-count')).toBe('5')

    // Live: the running send is a compact row under the folded run, saying its latest step.
    step('activated', true, 'WeChat')
    step('searched', true, 'File Transfer')
    step('target_verified', true, 'File Transfer', crop)
    const row = page.locator(`[data-testid="tool-row"][data-call-id="${callId}"]`)
    const latest = row.getByTestId('tool-latest-step')
    await expect.poll(() => latest.getAttribute('data-step')).toBe('target_verified')
    expect(await latest.innerText()).toBe('Checked the chat in the results')

    // Opened: the checklist, in order, each with its label and what it read; the crop enlarges on click.
    await row.click()
    const card = page.locator(`[data-testid="tool-call"][data-call-id="${callId}"]`)
    const steps = card.getByTestId('tool-steps')
    await steps.waitFor()
    const items = steps.getByTestId('tool-step')
    expect(await items.evaluateAll((els) => els.map((el) => [el.getAttribute('data-step'), el.getAttribute('data-ok')]))).toEqual([
      ['activated', 'true'],
      ['searched', 'true'],
      ['target_verified', 'true']
    ])
    expect(await items.nth(0).innerText()).toContain('Opened the app')
    expect(await items.nth(0).getByTestId('tool-step-detail').innerText()).toBe('WeChat')
    const thumb = items.nth(2).getByTestId('tool-attachment-image')
    await thumb.waitFor()
    await expect.poll(() => thumb.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(240)
    const box = await thumb.boundingBox()
    expect(box && box.height).toBeLessThanOrEqual(56)
    await thumb.click()
    await page.getByTestId('image-lightbox').waitFor({ state: 'visible' })
    await page.keyboard.press('Escape')
    await page.getByTestId('image-lightbox').waitFor({ state: 'hidden' })

    // A step that fails: red, a cross, and the card stays in view even when its run is folded.
    step('header_verified', false, 'Family (expected File Transfer)', crop)
    const failed = steps.locator('[data-testid="tool-step"][data-step="header_verified"]')
    await failed.waitFor()
    expect(await failed.getAttribute('data-ok')).toBe('false')
    expect(await failed.getAttribute('class')).toContain('failed')
    const color = await failed.evaluate((el) => getComputedStyle(el).color)
    expect(color).toMatch(/rgb\((2[0-9]{2}), ([0-9]{1,2}), ([0-9]{1,2})\)/)
    await expect.poll(() => group.getAttribute('data-failed')).toBe('1')
    // Folding the card back is not offered: a call with a failed step is always shown.
    await expect.poll(() => page.locator(`[data-testid="tool-row"][data-call-id="${callId}"]`).count()).toBe(0)
    expect(await card.getByTestId('tool-steps').count()).toBe(1)

    await card.screenshot({ path: join(screenshotDir, 'tool-steps.png'), animations: 'disabled' })
    await page.emulateMedia({ colorScheme: 'dark' })
    await card.screenshot({ path: join(screenshotDir, 'tool-steps-dark.png'), animations: 'disabled' })
    await page.emulateMedia({ colorScheme: 'light' })
  })

  /** Published only (no broker knows it): the page shows the question; answering it gets "already settled". */
  const askOnce = (approvalId: string) =>
    session.temp.app.events.publish({
      kind: 'agent',
      seq: ++seq,
      event: {
        type: 'approval_requested',
        runId,
        conversationId,
        at: tick(),
        approvalId,
        callId,
        tool: 'chat_send',
        args: { app: 'weixin', chat: 'File Transfer', text: 'The build is done.' },
        reason: 'Sends a message as you',
        preview: { title: { key: 'Send a message in WeChat' }, fields: [{ label: { key: 'To' }, value: 'File Transfer' }] },
        assessment: { verdict: 'ask', findings: [], alwaysRule: null },
        bindingHash: `hash_${approvalId}`,
        expiresAt: Date.now() + 120_000,
        onlyOnce: true
      }
    })

  it('asks a message send only once: no "for this conversation", no "always", their keys ignored', async () => {
    const { page } = session
    const modal = page.getByTestId('approval-modal')
    askOnce('appr_send_1')
    await modal.waitFor({ state: 'visible' })
    expect(await modal.getByTestId('approval-only-once').innerText()).toBe('Messages are approved one at a time.')
    expect(await modal.getByTestId('approval-allow-conversation').count()).toBe(0)
    expect(await modal.getByTestId('approval-allow-always').count()).toBe(0)
    expect(await modal.getByTestId('approval-allow').isVisible()).toBe(true)
    expect(await modal.getByTestId('approval-deny').isVisible()).toBe(true)
    // Past the arming delay, C and Shift+A do nothing (any answer would close the question).
    await expect.poll(() => modal.getByTestId('approval-allow').isEnabled()).toBe(true)
    await page.keyboard.press('c')
    await page.keyboard.press('Shift+A')
    await page.waitForTimeout(300)
    expect(await modal.isVisible()).toBe(true)
    await modal.screenshot({ path: join(screenshotDir, 'approval-only-once.png'), animations: 'disabled' })
    // D still denies (this question was only published, so main says it is already settled: it closes either way).
    await page.keyboard.press('d')
    await modal.waitFor({ state: 'hidden' })
  })

  it('reads in Chinese', async () => {
    const { page, host } = session
    await page.goto(host.url)
    await page.getByTestId('settings-button').waitFor()
    if ((await page.getByTestId('settings-button').innerText()) !== '设置') await page.getByTestId('language-toggle').click()
    await expect.poll(() => page.getByTestId('settings-button').innerText()).toBe('设置')
    await page.getByTestId('conversation-item').filter({ hasText: 'Send a message' }).click()
    await page.getByTestId('tool-group').waitFor()
    // Reloaded from the store, the earlier four steps are the checklist again (read back from the event log); new ones follow them.
    const card = page.locator(`[data-testid="tool-call"][data-call-id="${callId}"]`)
    await card.getByTestId('tool-steps').waitFor()
    const items = card.getByTestId('tool-step')
    await expect.poll(() => items.count()).toBe(4)
    expect(await items.nth(3).getAttribute('data-step')).toBe('header_verified')
    step('activated', true, '微信')
    step('sent', false, '发送按钮不可用')
    await expect.poll(() => items.count()).toBe(6)
    expect(await items.nth(4).innerText()).toContain('已打开应用')
    expect(await items.nth(5).innerText()).toContain('已发送')
    expect(await items.nth(5).getAttribute('data-ok')).toBe('false')
    expect(await card.getByText('步骤', { exact: true }).count()).toBe(1)

    const modal = page.getByTestId('approval-modal')
    askOnce('appr_send_2')
    await modal.waitFor({ state: 'visible' })
    expect(await modal.getByTestId('approval-only-once').innerText()).toBe('消息需逐条确认。')
    expect(await modal.getByTestId('approval-allow').innerText()).toContain('允许一次')
    await expect.poll(() => modal.getByTestId('approval-deny').isEnabled()).toBe(true)
    await modal.getByTestId('approval-deny').click()
    await modal.waitFor({ state: 'hidden' })
  })
})
