import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { builtinProfilesDir, ChatSender, LearnSession, MemorySendLog, readProfileFile } from '../../src/main/chat-apps'
import { DesktopService, TesseractOcr } from '../../src/main/desktop'
import { accessibilityBackend, type AccessibilityBackend } from '../../src/main/desktop/accessibility'
import { LOOK_ALIKE_CHATS, openChatApp, requireChatApp, type ChatApp } from '../helpers/chat-app'
import { startDisplay, type TestDisplay } from '../helpers/xvfb'

// The learn flow where the app exposes no accessibility tree (docs/desktop.md, "Teach DeskClaw a
// new app"): the WeChat-like window (Chromium --app, AT-SPI off) is found by its title and class,
// the dry send reads the screen and shows its OCR crops, sends nothing and leaves the draft as it
// was; the saved profile then sends one message that the window reports.
const available = requireChatApp()

describe.skipIf(!available)('learning an app without an accessibility tree (the screen way)', () => {
  let display: TestDisplay
  let desktop: DesktopService
  let ocr: TesseractOcr
  let backend: AccessibilityBackend
  let chat: ChatApp
  const dataDir = mkdtempSync(join(tmpdir(), 'deskclaw-learn-screen-'))

  beforeAll(async () => {
    display = await startDisplay()
    desktop = new DesktopService({ env: display.env, settings: () => ({ screenshotMaxWidth: 1280, desktopFailSafe: false }) })
    ocr = new TesseractOcr()
    backend = accessibilityBackend('linux', { env: display.env })
    chat = await openChatApp(display, { chats: LOOK_ALIKE_CHATS, title: '聊天测试', initialChat: '产品群（旧）' })
  }, 60_000)
  afterAll(async () => {
    await chat?.close()
    await backend?.close()
    await ocr?.close()
    await desktop?.shutdown()
    await display?.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('finds no tree, dry-sends by reading the screen (crops shown, nothing sent, draft kept), and the saved profile sends', async () => {
    const session = new LearnSession('screen', { desktop, accessibility: backend, ocr: () => ocr, dataDir, builtinDir: builtinProfilesDir(), platform: 'linux' })
    expect(await session.refreshWindows()).toBeNull()
    expect(session.view().windows.map((w) => w.title)).toContain('聊天测试')
    expect(await session.act({ kind: 'window', title: '聊天测试' })).toBeNull()
    expect(await session.act({ kind: 'keys', search: 'Mod + F', send: 'enter' })).toBeNull()
    expect(await session.act({ kind: 'chat', name: '产品群' })).toBeNull()
    const findings = session.view().findings!
    expect(findings).toMatchObject({ via: 'screen', elements: [], titles: ['聊天测试'], headerExtras: [] })

    const before = (await chat.state()).drafts['张伟'] ?? ''
    expect(await session.act({ kind: 'dry_run', target: '张伟', text: '试运行 dry run' })).toBeNull()
    const dry = session.view().dryRun!
    expect(dry.passed, `${dry.reason}\n${dry.steps.map((s) => `${s.step} ${s.ok} ${s.detail}`).join('\n')}`).toBe(true)
    expect(dry.steps.map((s) => s.step)).toEqual(['activated', 'searched', 'target_verified', 'header_verified', 'draft_pasted', 'approved'])
    // What the screen way read, as crops: the results, the header, the draft.
    for (const step of ['searched', 'header_verified', 'draft_pasted']) expect(dry.steps.find((s) => s.step === step)?.image?.png.length, step).toBeGreaterThan(100)
    expect(chat.sent()).toEqual([])
    await expect.poll(async () => (await chat.state()).drafts['张伟'] ?? '', { timeout: 3000 }).toBe(before)
    expect(session.view().stage).toBe('save')

    expect(await session.act({ kind: 'save', id: 'test-chat', name: { en: 'Test chat', 'zh-CN': '测试聊天' } })).toBeNull()
    const profile = readProfileFile(session.view().saved!.file)
    expect(profile.platforms.linux).toMatchObject({ window: { titles: ['聊天测试'], app: expect.any(String) }, keys: { search: 'mod+f', send: 'enter' } })

    const sender = new ChatSender({
      desktop,
      ocr: () => ocr,
      log: new MemorySendLog(),
      dataDir,
      builtinDir: builtinProfilesDir(),
      platform: 'linux',
      accessibility: backend,
      settings: () => ({ chatApps: { 'test-chat': { enabled: true, allowlist: [] } }, chatSendMinIntervalSec: 0, chatSendPerHour: 100, chatWatermark: 'none', chatWatermarkSuffix: '', chatSendTimeoutSec: 60 })
    })
    const outcome = await sender.send({ app: 'test-chat', to: '张伟', text: '学来的配置 learned', runId: 'learned', conversationId: 'c', confirm: async () => ({ allowed: true }) })
    expect(outcome.status, outcome.reason).toBe('sent')
    expect(chat.sent().map((m) => ({ chat: m.chat, text: m.text }))).toEqual([{ chat: '张伟', text: '学来的配置 learned' }])
  }, 120_000)
})
