import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  ChatSender,
  MemorySendLog,
  type ChatSenderSettings,
  type SendStep,
  type SendTextInput
} from '../../src/main/chat-apps'
import { builtinProfilesDir, readProfileFile } from '../../src/main/chat-apps'
import { DesktopService, TesseractOcr } from '../../src/main/desktop'
import { LOOK_ALIKE_CHATS, openChatApp, requireChatApp, type ChatApp, type ChatAppConfig } from '../helpers/chat-app'
import { clipboardText, heldButtons, heldKeys, setClipboardText } from '../helpers/x-tools'
import { startDisplay, type TestDisplay } from '../helpers/xvfb'

// The send-text task against a real WeChat-like window (Chromium --app on Xvfb + openbox, the
// WeChat keyboard flow): every step verified by OCR of the screen, never a wrong chat, never twice
// (docs/desktop.md, "Sending messages").
const available = requireChatApp()

const CHATS = LOOK_ALIKE_CHATS
// The longer names come first in the results, so the exact match is often not the top one.
const RESULTS_ORDER = ['产品群（旧）', '张伟 (HR)']

describe.skipIf(!available)('desktop send-text into a chat app (OCR-verified)', () => {
  let display: TestDisplay
  let chat: ChatApp
  let desktop: DesktopService
  let ocr: TesseractOcr
  const dir = mkdtempSync(join(tmpdir(), 'deskclaw-send-text-'))
  let settings: ChatSenderSettings
  let log: MemorySendLog

  const sender = () => new ChatSender({ desktop, ocr: () => ocr, log, settings: () => settings, builtinDir: builtinProfilesDir(), platform: 'linux' })
  const send = (over: Partial<SendTextInput> & Pick<SendTextInput, 'to' | 'text'>) =>
    sender().send({ app: 'weixin', runId: 'run-send-text', conversationId: 'c1', confirm: async () => ({ allowed: true }), ...over })

  beforeAll(async () => {
    display = await startDisplay()
    desktop = new DesktopService({ env: display.env, settings: () => ({ screenshotMaxWidth: 1280, desktopFailSafe: false }) })
    ocr = new TesseractOcr()
  }, 60_000)
  afterAll(async () => {
    await ocr?.close()
    await desktop?.shutdown()
    await display?.stop()
    rmSync(dir, { recursive: true, force: true })
  })
  afterEach(async () => {
    await chat?.close()
  })
  const reset = async (config: Partial<ChatAppConfig> = {}) => {
    settings = {
      chatApps: { weixin: { enabled: true, allowlist: [] } },
      chatSendMinIntervalSec: 0,
      chatSendPerHour: 1000,
      chatWatermark: 'suffix',
      chatWatermarkSuffix: ' [DeskClaw]',
      chatSendTimeoutSec: 60
    }
    log = new MemorySendLog()
    chat = await openChatApp(display, { chats: CHATS, resultsOrder: RESULTS_ORDER, ...config })
  }

  it('20 sends in a row reach exactly the named chat with exactly the text and the watermark, each once', async () => {
    await reset()
    const targets = ['产品群', '张伟', '产品群（旧）', '张伟 (HR)', 'Design Team']
    const expected: Array<{ chat: string; text: string }> = []
    for (let i = 0; i < 20; i++) {
      const to = targets[i % targets.length]!
      const text = i % 3 === 0 ? `第${i + 1}条：今天下午三点开会，请准时 👋` : i % 3 === 1 ? `Message ${i + 1}: build is green ✅ ok` : `你好，世界 ${i + 1} — 请确认`
      const outcome = await send({ to, text })
      expect(outcome, `send ${i + 1} to ${to}: ${outcome.reason}`).toMatchObject({ status: 'sent', target: to, text: `${text} [DeskClaw]` })
      expected.push({ chat: to, text: `${text} [DeskClaw]` })
    }
    expect(chat.sent().map(({ chat: c, text }) => ({ chat: c, text }))).toEqual(expected)
    expect(await heldKeys(display)).toEqual([])
  }, 300_000)

  it('an ambiguous or missing chat ends "not sent" before the text is pasted', async () => {
    await reset({ chats: [...CHATS, { name: '李娜' }, { name: '李娜' }] })
    const ambiguous = await send({ to: '李娜', text: '不该发出' })
    expect(ambiguous.status).toBe('not_sent')
    expect(ambiguous.reason).toMatch(/2 search results read exactly "李娜"/)
    const missing = await send({ to: '王五', text: '不该发出' })
    expect(missing.status).toBe('not_sent')
    expect(missing.reason).toMatch(/no search result reads exactly "王五"/)
    // "产品" is in two names but is neither of them.
    const partial = await send({ to: '产品', text: '不该发出' })
    expect(partial.status).toBe('not_sent')
    const state = await chat.state()
    expect(state.sent).toEqual([])
    expect(Object.values(state.drafts).filter(Boolean)).toEqual([])
    expect([ambiguous, missing, partial].every((o) => !o.steps.some((s) => s.step === 'draft_pasted'))).toBe(true)
  }, 120_000)

  // The next process's send after a denied one found "no search result" (issue 20): the chat was
  // open, so its result row looked exactly as the list's row there did before the search.
  it('the open chat, first in the list, is found again; two chats of one name at the top are ambiguous', async () => {
    await reset({ resultsOrder: [], initialChat: '产品群' })
    for (const text of ['第一条', '第二条']) {
      const outcome = await send({ to: '产品群', text })
      expect(outcome.status, outcome.reason).toBe('sent')
    }
    expect(chat.sent().map((m) => [m.chat, m.text])).toEqual([
      ['产品群', '第一条 [DeskClaw]'],
      ['产品群', '第二条 [DeskClaw]']
    ])
    await chat.close()
    // The second 李娜's row does not change when the search leaves both at the top: it must be read all the same.
    chat = await openChatApp(display, { chats: [{ name: '李娜' }, { name: '李娜' }, { name: '张伟' }], resultsOrder: [] })
    const ambiguous = await send({ to: '李娜', text: '不该发出' })
    expect(ambiguous.status).toBe('not_sent')
    expect(ambiguous.reason).toMatch(/2 search results read exactly "李娜"/)
    expect(chat.sent()).toEqual([])
  }, 120_000)

  it('no window, a disabled app, a chat off the allowlist and the rate limit each end "not sent" with the reason', async () => {
    await reset()
    const missingWindow = join(dir, 'other-app.json')
    const profile = readProfileFile(join(builtinProfilesDir()!, 'weixin.json'))
    writeFileSync(missingWindow, JSON.stringify({ ...profile, platforms: { linux: { ...profile.platforms.linux, window: { titles: ['不存在的聊天软件'] } } } }))
    const noWindow = await send({ to: '产品群', text: 'x', profileFile: missingWindow })
    expect(noWindow).toMatchObject({ status: 'not_sent', reason: expect.stringMatching(/WeChat is not open: no window is titled 不存在的聊天软件/) })

    settings.chatApps = { weixin: { enabled: false, allowlist: [] } }
    expect(await send({ to: '产品群', text: 'x' })).toMatchObject({ status: 'not_sent', reason: expect.stringMatching(/not enabled/) })

    settings.chatApps = { weixin: { enabled: true, allowlist: ['产品群'] } }
    expect(await send({ to: '产品群（旧）', text: 'x' })).toMatchObject({ status: 'not_sent', reason: expect.stringMatching(/not on WeChat's allowlist/) })

    settings.chatSendMinIntervalSec = 10
    const first = await send({ to: '产品群', text: '第一条' })
    expect(first.status, first.reason).toBe('sent')
    expect(await send({ to: '产品群', text: '第二条' })).toMatchObject({ status: 'not_sent', reason: expect.stringMatching(/rate limit: one message per 10 s to "产品群"/) })
    expect(chat.sent().map((m) => m.text)).toEqual(['第一条 [DeskClaw]'])
  }, 120_000)

  it('deny sends nothing, puts the draft back as it was (empty) and the clipboard too', async () => {
    await reset()
    await setClipboardText(display, 'the user’s own clipboard 剪贴板')
    const outcome = await send({ to: '张伟', text: '周五的会取消了', confirm: async (c) => {
      expect(c.target).toBe('张伟')
      expect(c.text).toBe('周五的会取消了 [DeskClaw]')
      expect(c.image.width).toBeGreaterThan(100)
      return { allowed: false, reason: 'not now' }
    } })
    expect(outcome).toMatchObject({ status: 'not_sent', reason: expect.stringMatching(/not approved: not now; nothing was sent and the draft was put back/) })
    await new Promise((r) => setTimeout(r, 300))
    const state = await chat.state()
    expect(state.sent).toEqual([])
    expect(state.openChat).toBe('张伟')
    expect(state.drafts['张伟'] ?? '').toBe('')
    expect(await clipboardText(display)).toBe('the user’s own clipboard 剪贴板')
  }, 60_000)

  // Issue 20, "leave no trace": the draft the chat held is read before the paste replaces it, and
  // put back exactly when the send does not happen; a chat that is not found is never touched.
  it('a draft the chat already held is put back after a deny; a missing or ambiguous name leaves no search and no draft', async () => {
    await reset({ chats: [...CHATS, { name: '李娜' }, { name: '李娜' }], initialChat: '张伟' })
    await chat.activate()
    // Typed as this file's sends' run, which holds the input lock (a run keeps it until it ends).
    await desktop.typeText({ runId: 'run-send-text', conversationId: 'c1' }, '我的草稿 draft ✍️', 'paste')
    await chat.waitFor((e) => e.type === 'draft' && e.text === '我的草稿 draft ✍️')
    await setClipboardText(display, 'clipboard 剪贴板')
    const denied = await send({ to: '张伟', text: '不发这条', confirm: async () => ({ allowed: false, reason: 'no' }) })
    expect(denied.status).toBe('not_sent')
    expect(denied.steps.some((s) => s.step === 'draft_pasted' && s.ok), denied.reason).toBe(true)
    for (const to of ['王五', '李娜']) {
      const missed = await send({ to, text: '不该发出' })
      expect(missed.status, missed.reason).toBe('not_sent')
    }
    await new Promise((r) => setTimeout(r, 300))
    const state = await chat.state()
    expect(state.drafts['张伟']).toBe('我的草稿 draft ✍️')
    expect(Object.entries(state.drafts).filter(([name, text]) => name !== '张伟' && text)).toEqual([])
    expect(state.query, 'the search was closed').toBe('')
    expect(state.sent).toEqual([])
    expect(await clipboardText(display)).toBe('clipboard 剪贴板')
  }, 90_000)

  it('abort during the task releases the input and never sends twice', async () => {
    await reset()
    // Stopped before the send key: not sent, nothing in the chat.
    const early = new AbortController()
    const stopped = await send({ to: '产品群', text: '停下', signal: early.signal, onStep: (s: SendStep) => s.step === 'header_verified' && early.abort(new Error('stop')) })
    expect(stopped.status).toBe('not_sent')
    expect(stopped.reason).toMatch(/stopped/)
    // Stopped right after the send key: unknown, and the message is there exactly once.
    const late = new AbortController()
    const after = await send({ to: 'Design Team', text: 'stop after send', signal: late.signal, onStep: (s: SendStep) => s.step === 'sent' && late.abort(new Error('stop')) })
    expect(after.status).toBe('unknown')
    expect(after.reason).toMatch(/the send key was pressed/)
    await new Promise((r) => setTimeout(r, 1500))
    expect(chat.sent().map((m) => [m.chat, m.text])).toEqual([['Design Team', 'stop after send [DeskClaw]']])
    expect(await heldKeys(display)).toEqual([])
    expect(await heldButtons(display)).toEqual([])
  }, 120_000)

  it('a task past its timeout is cancelled, not left running', async () => {
    await reset()
    settings.chatSendTimeoutSec = 5
    const slow = join(dir, 'slow-weixin.json')
    const profile = readProfileFile(join(builtinProfilesDir()!, 'weixin.json'))
    writeFileSync(slow, JSON.stringify({ ...profile, platforms: { linux: { ...profile.platforms.linux, waits: { ...profile.platforms.linux!.waits, afterSearch: 8000 } } } }))
    const started = Date.now()
    const outcome = await send({ to: '张伟', text: '超时', profileFile: slow })
    expect(outcome).toMatchObject({ status: 'not_sent', reason: 'timed out after 5 s' })
    expect(Date.now() - started).toBeLessThan(8000)
    await new Promise((r) => setTimeout(r, 4000))
    expect(chat.sent()).toEqual([])
    expect((await chat.state()).drafts['张伟'] ?? '').toBe('')
  }, 60_000)

  // Issue 20: the shipped profile (no pixel regions) at three window sizes and without the icon
  // column (with a white-on-blue highlight): names one character apart, Chinese and Latin, CJK +
  // emoji, multi-line text, a URL with & and ?. The window reports every message it receives.
  const LAYOUTS: Array<{ label: string; config: Partial<ChatAppConfig> }> = [
    { label: 'default 1000x700', config: {} },
    { label: 'small 760x520', config: { size: { width: 760, height: 520 } } },
    { label: 'maximised', config: { size: 'maximized' } },
    { label: 'no icon column, blue highlight', config: { nav: false, highlight: 'blue' } }
  ]
  const ONE_APART: ChatAppConfig['chats'] = [
    { name: '张伟' },
    { name: '张伟伟' },
    { name: 'Design Team', history: Array.from({ length: 14 }, (_, i) => ({ from: i % 2 ? 'me' : 'them', text: `older message ${i + 1}` }) as const) },
    { name: 'Design Teams' },
    { name: '产品群' },
    { name: '产品群（旧）' },
    { name: '李娜' },
    { name: '李娜' }
  ]
  const CASES = [
    { to: '张伟伟', text: '周报已发 🎉 请查收' },
    { to: '张伟', text: '第一行：明天开会\n第二行：一二三 请确认' },
    { to: 'Design Teams', text: 'see https://example.com/review?id=42&lang=zh-CN ok' },
    { to: 'Design Team', text: 'Mockups v2 ✅ ready' },
    { to: '产品群（旧）', text: '这个群不再使用了 👋' },
    { to: '产品群', text: '评审改到周五 下午三点' }
  ]
  for (const layout of LAYOUTS) {
    it(`finds the layout (${layout.label}): right chat, exact text, once; missing and ambiguous names leave nothing behind`, async () => {
      await reset({ chats: ONE_APART, resultsOrder: ['张伟伟', 'Design Teams', '产品群（旧）'], ...layout.config })
      settings.chatWatermark = 'none'
      const tally = { attempted: 0, rightOnce: 0, verdictAgrees: 0 }
      for (const c of CASES) {
        const before = chat.sent().length
        const outcome = await send(c)
        await new Promise((r) => setTimeout(r, 200))
        const arrived = chat.sent().slice(before)
        tally.attempted++
        const right = arrived.length === 1 && arrived[0]!.chat === c.to && arrived[0]!.text === c.text
        if (right) tally.rightOnce++
        if ((outcome.status === 'sent') === (arrived.length > 0) && outcome.status !== 'unknown') tally.verdictAgrees++
        expect(outcome.status === 'sent' && arrived.length === 0, `"sent" for a message that did not arrive (${c.to})`).toBe(false)
        expect(arrived.every((m) => m.chat === c.to && m.text === c.text), `${c.to}: ${JSON.stringify(arrived)}`).toBe(true)
        expect(outcome.status, `${layout.label} → ${c.to}: ${outcome.reason}`).toBe('sent')
      }
      console.log(`[send-text ${layout.label}] sends ${tally.attempted}, right chat exact once ${tally.rightOnce}, verdict agrees ${tally.verdictAgrees}`)
      for (const to of ['王五', '李娜', '张']) {
        const outcome = await send({ to, text: '不该发出' })
        expect(outcome.status, `${to}: ${outcome.reason}`).toBe('not_sent')
      }
      await new Promise((r) => setTimeout(r, 300))
      const state = await chat.state()
      expect(state.sent.map((m) => m.chat)).toEqual(CASES.map((c) => c.to))
      expect(state.query, 'the search was closed').toBe('')
      expect(Object.values(state.drafts).filter(Boolean)).toEqual([])
      expect(await heldKeys(display)).toEqual([])
    }, 240_000)
  }
})
