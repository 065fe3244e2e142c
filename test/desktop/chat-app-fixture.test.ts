import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import sharp from 'sharp'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  CHAT_APP_LAYOUT,
  LOOK_ALIKE_CHATS,
  openChatApp,
  processesMentioning,
  requireChatApp,
  type ChatApp,
  type ChatAppEvent
} from '../helpers/chat-app'
import { activeWindowName, click, key, pixelAt, setClipboardText } from '../helpers/x-tools'
import { startDisplay, type TestDisplay } from '../helpers/xvfb'

// The fake WeChat window itself, driven with xdotool / xclip only (none of DeskClaw's code), so
// that a failing "send text to a chat" test can blame the automation rather than the fixture.
const available = requireChatApp()

const CHATS = LOOK_ALIKE_CHATS

type Region = { x: number; y: number; width: number; height: number }

/** A screen region (client coordinates of `app`) as raw RGB, read from the root window with ImageMagick. */
async function grab(display: TestDisplay, app: ChatApp, region: Region): Promise<{ data: Buffer; width: number; height: number }> {
  const crop = `${region.width}x${region.height}+${app.client.x + region.x}+${app.client.y + region.y}`
  const png = await new Promise<Buffer>((resolve, reject) =>
    execFile(
      'import',
      ['-display', display.display, '-window', 'root', '-crop', crop, '+repage', 'png:-'],
      { env: display.env, encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) => (error ? reject(error) : resolve(stdout))
    )
  )
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  expect({ width: info.width, height: info.height }).toEqual({ width: region.width, height: region.height })
  return { data, width: info.width, height: info.height }
}

function distanceCounter(colour: string): (data: Buffer, i: number) => number {
  const [r, g, b] = [1, 3, 5].map((at) => Number.parseInt(colour.slice(at, at + 2), 16))
  return (data, i) => Math.abs(data[i] - r) + Math.abs(data[i + 1] - g) + Math.abs(data[i + 2] - b)
}

/** How many pixels of the region differ clearly from `background` ('#rrggbb'). */
async function inkPixels(display: TestDisplay, app: ChatApp, region: Region, background: string): Promise<number> {
  const { data } = await grab(display, app, region)
  const distance = distanceCounter(background)
  let ink = 0
  for (let i = 0; i < data.length; i += 3) if (distance(data, i) > 60) ink++
  return ink
}

/** How many pixels of the region have (about) `colour`. */
async function pixelsOf(display: TestDisplay, app: ChatApp, region: Region, colour: string): Promise<number> {
  const { data } = await grab(display, app, region)
  const distance = distanceCounter(colour)
  let count = 0
  for (let i = 0; i < data.length; i += 3) if (distance(data, i) <= 6) count++
  return count
}

/** measure() until accept() holds: the page paints a frame after it reports a change. Returns the last value. */
async function eventually<T>(measure: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 2_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await measure()
    if (accept(value) || Date.now() > deadline) return value
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

function xwininfo(display: TestDisplay, xid: number): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile('xwininfo', ['-id', String(xid)], { env: display.env, encoding: 'utf8' }, (error, stdout) => (error ? reject(error) : resolve(stdout)))
  )
}

/** Pastes `text` with the X CLIPBOARD and Ctrl+V, as the automation will. */
async function paste(display: TestDisplay, text: string): Promise<void> {
  await setClipboardText(display, text)
  await key(display, 'ctrl+v')
}

const after = (app: ChatApp) => {
  const from = app.events.length
  return (pred: (event: ChatAppEvent) => boolean, timeoutMs?: number): Promise<ChatAppEvent> =>
    app.waitFor((event, index) => index >= from && pred(event), timeoutMs)
}

describe.skipIf(!available)('the WeChat-like chat app fixture', () => {
  let display: TestDisplay
  let app: ChatApp | undefined

  beforeAll(async () => {
    display = await startDisplay()
  })
  afterEach(async () => {
    await app?.close()
    app = undefined
  })
  afterAll(async () => {
    await display?.stop()
  })

  it('has a 1000x700 client area with the fixed layout, and is focused', async () => {
    app = await openChatApp(display, { chats: CHATS })
    console.log(`[chat-app] ready in ${app.startupMs} ms, client ${JSON.stringify(app.client)}`)
    expect(app.title).toBe('微信')
    expect(app.client).toMatchObject({ width: 1000, height: 700 })
    const info = await xwininfo(display, app.xid)
    expect(info).toMatch(/Width: 1000\n/)
    expect(info).toMatch(/Height: 700\n/)
    expect(info).toContain(`Absolute upper-left X:  ${app.client.x}\n`)
    expect(info).toContain(`Absolute upper-left Y:  ${app.client.y}\n`)
    expect(await activeWindowName(display)).toBe('微信')

    // Colours at the edges of the regions: the reported origin is the page's (0,0), not the frame's.
    const { x, y } = app.client
    const { colours } = CHAT_APP_LAYOUT
    expect(await pixelAt(display, x, y)).toBe(colours.nav)
    expect(await pixelAt(display, x + 55, y + 699)).toBe(colours.nav)
    expect(await pixelAt(display, x + 56, y + 699)).toBe(colours.list)
    expect(await pixelAt(display, x + 305, y + 699)).toBe(colours.border)
    expect(await pixelAt(display, x + 306, y + 300)).toBe(colours.chat)
    expect(await pixelAt(display, x + 999, y + 699)).toBe(colours.chat)
    expect(await pixelAt(display, x + 500, y + 59)).toBe(colours.border)
    expect(await pixelAt(display, x + 500, y + 520)).toBe(colours.border)
    expect(await pixelAt(display, x - 1, y + 300)).not.toBe(colours.nav)
    // The chat list rows are there (names drawn in the list column), none highlighted, no chat open.
    expect(await inkPixels(display, app, { x: 120, y: 60, width: 170, height: 64 * CHATS.length }, colours.list)).toBeGreaterThan(200)
    expect(await inkPixels(display, app, CHAT_APP_LAYOUT.header, colours.chat)).toBe(0)
    expect(await app.state()).toEqual({
      openChat: null,
      query: '',
      results: CHATS.map((chat) => chat.name),
      highlighted: null,
      drafts: {},
      sent: []
    })
  })

  it('Ctrl+F, paste a name, ArrowDown + Enter opens the second result; paste + Enter sends exactly once', async () => {
    app = await openChatApp(display, { chats: CHATS })
    const headerRegion = CHAT_APP_LAYOUT.header
    expect(await inkPixels(display, app, headerRegion, CHAT_APP_LAYOUT.colours.chat)).toBe(0)

    let next = after(app)
    await key(display, 'ctrl+f')
    await paste(display, '产品')
    const search = await next((event) => event.type === 'search')
    expect(search).toEqual({ type: 'search', query: '产品', results: ['产品群', '产品群（旧）'] })
    expect(await app.state()).toMatchObject({ query: '产品', results: ['产品群', '产品群（旧）'], highlighted: '产品群', openChat: null })

    next = after(app)
    await key(display, 'Down')
    expect(await next((event) => event.type === 'highlight')).toEqual({ type: 'highlight', chat: '产品群（旧）' })
    await key(display, 'Return')
    expect(await next((event) => event.type === 'opened')).toEqual({ type: 'opened', chat: '产品群（旧）' })
    expect(await app.state()).toMatchObject({ openChat: '产品群（旧）', query: '', results: CHATS.map((c) => c.name), highlighted: '产品群（旧）' })
    // The header now has the name drawn in it; no outgoing (green) bubble yet.
    expect(await eventually(() => inkPixels(display, app!, headerRegion, CHAT_APP_LAYOUT.colours.chat), (ink) => ink > 100)).toBeGreaterThan(100)
    const { messages, colours } = CHAT_APP_LAYOUT
    expect(await pixelsOf(display, app, messages, colours.outgoing)).toBe(0)

    // Focus is in the draft box: paste, then Enter sends it.
    const text = 'Hello 你好，世界！\t“引号” 😀'
    next = after(app)
    await paste(display, text)
    expect(await next((event) => event.type === 'draft')).toEqual({ type: 'draft', chat: '产品群（旧）', text })
    await key(display, 'Return')
    const sent = await next((event) => event.type === 'sent')
    expect(sent).toMatchObject({ type: 'sent', chat: '产品群（旧）', text })
    expect(app.sent()).toEqual([{ chat: '产品群（旧）', text, at: (sent as { at: number }).at }])
    const state = await app.state()
    expect(state.drafts['产品群（旧）']).toBe('')
    expect(state.sent).toEqual(app.sent())
    // The outgoing bubble is drawn (green), in the right half of the messages.
    const rightHalf = { ...messages, x: messages.x + messages.width / 2, width: messages.width / 2 }
    expect(await eventually(() => pixelsOf(display, app!, rightHalf, colours.outgoing), (green) => green > 2_000)).toBeGreaterThan(2_000)
    expect(await pixelAt(display, app.client.x + 500, app.client.y + 600)).toBe(CHAT_APP_LAYOUT.colours.chat)

    // Enter on an empty draft sends nothing; Ctrl+Enter is a newline, Shift+Enter too.
    await key(display, 'Return')
    await key(display, 'space', 'Return')
    next = after(app)
    await paste(display, 'a')
    await key(display, 'ctrl+Return')
    await paste(display, 'b')
    await key(display, 'shift+Return')
    await paste(display, 'c')
    await next((event) => event.type === 'draft' && event.text === ' a\nb\nc')
    expect(app.sent()).toHaveLength(1)
    next = after(app)
    await click(display, 1, { x: app.client.x + 936, y: app.client.y + 673 }) // 发送(S)
    expect(await next((event) => event.type === 'sent')).toMatchObject({ chat: '产品群（旧）', text: ' a\nb\nc' })
    expect(app.sent().map((message) => message.text)).toEqual([text, ' a\nb\nc'])
  })

  it('resultsOrder puts a chosen result first; clicks open; drafts are kept per chat; Escape clears', async () => {
    app = await openChatApp(display, { title: '微信 order', chats: CHATS, resultsOrder: ['张伟 (HR)', '张伟'], searchDelayMs: 300, openDelayMs: 200 })
    let next = after(app)
    await key(display, 'ctrl+f')
    await paste(display, '张伟')
    // Results are late (searchDelayMs): nothing yet right after the paste.
    expect(app.events.slice(-1)[0]?.type).not.toBe('search')
    expect(await next((event) => event.type === 'search')).toEqual({ type: 'search', query: '张伟', results: ['张伟 (HR)', '张伟'] })

    // Click the second row (张伟).
    const { list } = CHAT_APP_LAYOUT
    next = after(app)
    await click(display, 1, { x: app.client.x + list.nameX + 20, y: app.client.y + list.y + list.rowHeight * 1.5 })
    expect(await next((event) => event.type === 'opened')).toEqual({ type: 'opened', chat: '张伟' })
    next = after(app)
    await paste(display, '草稿一')
    await next((event) => event.type === 'draft' && event.text === '草稿一')

    // Case-insensitive search, Enter opens the first result; the draft of 张伟 stays with 张伟.
    next = after(app)
    await key(display, 'ctrl+f')
    await paste(display, 'design')
    expect(await next((event) => event.type === 'search')).toMatchObject({ results: ['Design Team'] })
    await key(display, 'Return')
    await next((event) => event.type === 'opened' && event.chat === 'Design Team')
    expect((await app.state()).drafts).toEqual({ 张伟: '草稿一' })

    // No match: no rows. Ctrl+F again selects the query, so a paste replaces it.
    next = after(app)
    await key(display, 'ctrl+f')
    await paste(display, 'zzz')
    expect(await next((event) => event.type === 'search')).toEqual({ type: 'search', query: 'zzz', results: [] })
    expect(await app.state()).toMatchObject({ query: 'zzz', results: [], highlighted: null })
    await key(display, 'Return') // nothing to open
    next = after(app)
    await key(display, 'ctrl+f')
    await paste(display, '文件')
    expect(await next((event) => event.type === 'search')).toEqual({ type: 'search', query: '文件', results: ['文件传输助手'] })

    // Escape clears the search: the list shows every chat again, the open one highlighted.
    next = after(app)
    await key(display, 'Escape')
    expect(await next((event) => event.type === 'search' && event.query === '')).toMatchObject({ results: CHATS.map((c) => c.name) })
    expect(await app.state()).toMatchObject({ openChat: 'Design Team', highlighted: 'Design Team' })

    // Back to 张伟 by clicking its row in the chat list: the draft comes back, and sends.
    next = after(app)
    await click(display, 1, { x: app.client.x + list.nameX + 20, y: app.client.y + list.y + list.rowHeight * 2.5 })
    await next((event) => event.type === 'opened' && event.chat === '张伟')
    await key(display, 'Return')
    expect(await next((event) => event.type === 'sent')).toMatchObject({ chat: '张伟', text: '草稿一' })
    expect(app.sent()).toHaveLength(1)
  })

  it("sendKey 'ctrl+enter': Enter is a newline, Ctrl+Enter sends", async () => {
    app = await openChatApp(display, { title: '微信 ctrl+enter', chats: CHATS, sendKey: 'ctrl+enter' })
    let next = after(app)
    await key(display, 'ctrl+f')
    await paste(display, '文件传输')
    expect(await next((event) => event.type === 'search')).toMatchObject({ results: ['文件传输助手'] })
    await key(display, 'Return')
    await next((event) => event.type === 'opened' && event.chat === '文件传输助手')

    next = after(app)
    await paste(display, '第一行')
    await key(display, 'Return')
    await paste(display, '第二行')
    await next((event) => event.type === 'draft' && event.text === '第一行\n第二行')
    expect(app.sent()).toEqual([])
    await key(display, 'ctrl+Return')
    expect(await next((event) => event.type === 'sent')).toMatchObject({ chat: '文件传输助手', text: '第一行\n第二行' })
    expect(app.sent()).toHaveLength(1)
  })

  it('close() leaves no Chromium process of its profile behind', async () => {
    const own = await openChatApp(display, { title: '微信 close', chats: CHATS.slice(0, 2) })
    const pgrep = (): Promise<string> =>
      new Promise((resolve) => execFile('pgrep', ['-f', `user-data-dir=${own.userDataDir}`], { encoding: 'utf8' }, (_error, stdout) => resolve(stdout.trim())))
    expect((await pgrep()).split('\n').length).toBeGreaterThan(1) // the browser, its zygotes, renderer, GPU…
    await own.close()
    expect(await pgrep()).toBe('')
    expect(processesMentioning(own.userDataDir)).toEqual([])
    expect(existsSync(own.userDataDir)).toBe(false)
    await own.close() // idempotent
    expect(await own.state()).toMatchObject({ openChat: null, sent: [] })
  })
})
