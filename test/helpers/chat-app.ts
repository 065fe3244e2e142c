import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { chromiumPath, hasChromium } from './browser'
import { createEventLog } from './event-log'
import { requireXServer, spawnOwned, stopChild, type TestDisplay } from './xvfb'

/**
 * A WeChat-like chat window (test/fixtures/desktop/chat-app/) for end-to-end tests of "send text
 * to a chat" automation: a tiny HTTP server here serves the page and collects what it reports;
 * Debian's Chromium shows it in --app mode on the test display with a 1000x700 client area.
 * Everything it does (searches, highlight moves, opened chats, drafts, sent messages) arrives as
 * events, in order; GET /state on the same server (and state()) gives the latest state.
 */

export const CHAT_APP_PACKAGES = 'chromium fonts-noto-cjk'

const fixtureDir = path.resolve(__dirname, '../fixtures/desktop/chat-app')

export interface ChatMessage {
  from: 'me' | 'them'
  text: string
}
export interface ChatConfig {
  name: string
  /** Shown, oldest first, when the chat is opened. */
  history?: ChatMessage[]
}
export interface ChatAppConfig {
  /** The page's <title>, which is the X window's title. Default '微信'. */
  title: string
  /** Every chat, in the chat list's order (and the search results' order unless resultsOrder). */
  chats: ChatConfig[]
  /** Search results ordered by their index here; names not listed follow, in the chat order. */
  resultsOrder?: string[]
  /** 'enter' (default): Enter sends, Ctrl+Enter is a newline. 'ctrl+enter': the other way round. */
  sendKey: 'enter' | 'ctrl+enter'
  /** Results appear this long after the last change to the search box. Default 150. */
  searchDelayMs: number
  /** A chat opens this long after Enter / the click. Default 100. */
  openDelayMs: number
  /** The chat open at start (no delay; it is reported as 'opened' before 'ready'). Default none. */
  initialChat?: string
  /** The client area: 1000x700 (default, CHAT_APP_LAYOUT), any other size, or the screen (maximised by the window manager). */
  size?: { width: number; height: number } | 'maximized'
  /** false: no left icon column (the list starts at the window's left edge). Default true. */
  nav?: boolean
  /** 'blue': the highlighted row is white on blue instead of WeChat's grey. Default 'grey'. */
  highlight?: 'grey' | 'blue'
}

export interface SentMessage {
  chat: string
  text: string
  /** Date.now() in the page when it was sent. */
  at: number
}

export type ChatAppEvent =
  | { type: 'ready'; innerWidth: number; innerHeight: number; devicePixelRatio: number }
  /** Results shown for query ('' = the plain chat list: then results are all the chats). */
  | { type: 'search'; query: string; results: string[] }
  /** ArrowUp/ArrowDown moved the highlight among the search results. */
  | { type: 'highlight'; chat: string }
  | { type: 'opened'; chat: string }
  /** The draft of `chat` changed (debounced 50 ms; flushed when another chat opens). */
  | { type: 'draft'; chat: string; text: string }
  | SentMessage & { type: 'sent' }

export interface ChatState {
  openChat: string | null
  /** The query of the results on screen ('' = the chat list). */
  query: string
  /** The names of the rows in the list column, top to bottom. */
  results: string[]
  highlighted: string | null
  drafts: Record<string, string>
  sent: SentMessage[]
}

export interface ClientRect {
  /** Client area (inside openbox's frame) in screen coordinates. */
  x: number
  y: number
  width: number
  height: number
}

export interface ChatApp {
  title: string
  /** The X window id of Chromium's toplevel (the client window, not openbox's frame). */
  xid: number
  client: ClientRect
  /** Milliseconds from openChatApp() to ready. */
  startupMs: number
  /** Chromium's --user-data-dir (a fresh temporary directory, removed by close()). */
  userDataDir: string
  /** The page's address (http://127.0.0.1:PORT/?config=…). */
  url: string
  /** Every event so far, in the order the page reported them. */
  events: ChatAppEvent[]
  /** The 'sent' events so far. */
  sent(): SentMessage[]
  /** The latest state the page reported (what GET /state answers). */
  state(): Promise<ChatState>
  /**
   * The first event, past or future, for which pred(event, index) holds. To wait only for events
   * after some action, remember `events.length` before it and test `index >= before`. Rejects
   * after timeoutMs (or when Chromium exits) listing the events seen.
   */
  waitFor(pred: (event: ChatAppEvent, index: number) => boolean, timeoutMs?: number): Promise<ChatAppEvent>
  /** Raises and focuses the window (xdotool windowactivate) and waits until it is the active one. */
  activate(): Promise<void>
  /** Ends Chromium (and every process of its profile) and the server, removes the profile. Idempotent. */
  close(): Promise<void>
}

/** The page's regions in client coordinates (add client.x / client.y for the screen). */
export const CHAT_APP_LAYOUT = {
  width: 1000,
  height: 700,
  nav: { x: 0, y: 0, width: 56, height: 700 },
  listColumn: { x: 56, y: 0, width: 250, height: 700 },
  searchBox: { x: 68, y: 14, width: 226, height: 32 },
  /** Rows start at y 60, 64 px each; the name starts at x 120. */
  list: { x: 56, y: 60, width: 249, height: 640, rowHeight: 64, nameX: 120 },
  chatArea: { x: 306, y: 0, width: 694, height: 700 },
  header: { x: 306, y: 0, width: 694, height: 59 },
  messages: { x: 306, y: 60, width: 694, height: 460 },
  inputArea: { x: 306, y: 521, width: 694, height: 179 },
  textarea: { x: 322, y: 560, width: 662, height: 90 },
  sendButton: { x: 888, y: 656, width: 96, height: 34 },
  colours: { nav: '#2e2e2e', list: '#f7f7f7', highlighted: '#d9d9d9', chat: '#f5f5f5', border: '#e0e0e0', outgoing: '#95ec69', incoming: '#ffffff' }
} as const

/** true when X and Chromium are here; otherwise skips with the reason (or throws under DESKCLAW_REQUIRE_ALL=1). */
export function requireChatApp(): boolean {
  return requireXServer() && hasChromium()
}

const READY_TIMEOUT_MS = 30_000
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

function run(env: NodeJS.ProcessEnv, command: string, args: string[], timeoutMs = 5_000): Promise<{ ok: boolean; stdout: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { env, timeout: timeoutMs, encoding: 'utf8' }, (error, stdout) => resolve({ ok: !error, stdout }))
  })
}

/** Pids of the processes whose command line mentions `needle` (Chromium's browser, zygotes, renderers, GPU, crashpad). */
export function processesMentioning(needle: string): number[] {
  const pids: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(needle)) pids.push(Number(entry))
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return pids
}

interface Geometry {
  x: number
  y: number
  width: number
  height: number
  viewable: boolean
}

async function windowGeometry(env: NodeJS.ProcessEnv, xid: number): Promise<Geometry | undefined> {
  // xwininfo, not `xdotool getwindowgeometry`: under openbox the latter adds the frame offset twice.
  const info = await run(env, 'xwininfo', ['-id', String(xid)])
  if (!info.ok) return undefined
  const field = (label: string): number | undefined => {
    const match = new RegExp(`${label}:\\s+(-?\\d+)`).exec(info.stdout)
    return match ? Number(match[1]) : undefined
  }
  const [x, y, width, height] = [field('Absolute upper-left X'), field('Absolute upper-left Y'), field('Width'), field('Height')]
  if (x === undefined || y === undefined || width === undefined || height === undefined) return undefined
  return { x, y, width, height, viewable: /Map State:\s+IsViewable/.test(info.stdout) }
}

/** The mapped toplevel of process `pid` titled `title`, if there is one yet. */
async function findWindow(env: NodeJS.ProcessEnv, pid: number, title: string): Promise<number | undefined> {
  const found = await run(env, 'xdotool', ['search', '--onlyvisible', '--pid', String(pid)])
  if (!found.ok) return undefined
  for (const line of found.stdout.split('\n')) {
    const xid = Number.parseInt(line.trim(), 10)
    if (!Number.isInteger(xid)) continue
    const name = await run(env, 'xdotool', ['getwindowname', String(xid)])
    if (name.ok && name.stdout.replace(/\n$/, '') === title) return xid
  }
  return undefined
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

const STATIC: Record<string, string> = { '/app.js': 'text/javascript', '/style.css': 'text/css' }

/**
 * Starts the server and Chromium on `display`, and resolves when the page has said ready and the
 * window titled config.title is mapped, has its 1000x700 client area, and is the active window.
 * Place: centred horizontally, client top at y 50 (on 1280x800: client at 140,50).
 */
/** Chats whose names overlap (`产品群` / `产品群（旧）`, `张伟` / `张伟 (HR)`), with some history, CJK and English. */
export const LOOK_ALIKE_CHATS: ChatAppConfig['chats'] = [
  { name: '产品群', history: [{ from: 'them', text: '明天上午十点评审' }] },
  { name: '产品群（旧）', history: [{ from: 'them', text: '这个群不再使用' }] },
  { name: '张伟' },
  { name: '张伟 (HR)' },
  { name: 'Design Team', history: [{ from: 'them', text: 'new mockups are up' }] },
  { name: '文件传输助手' }
]

export async function openChatApp(display: TestDisplay, config: Partial<ChatAppConfig> = {}): Promise<ChatApp> {
  const started = Date.now()
  const full: ChatAppConfig = { title: '微信', chats: [], sendKey: 'enter', searchDelayMs: 150, openDelayMs: 100, ...config }
  const { title } = full
  const maximized = full.size === 'maximized'
  const { width, height } = typeof full.size === 'object' ? full.size : CHAT_APP_LAYOUT

  // stderrTail is defined below, with Chromium; the log only calls it once Chromium has ended.
  const log = createEventLog<ChatAppEvent>(`chat app "${title}": Chromium`, () => stderrTail())
  const { events, waitFor } = log
  let latest: Omit<ChatState, 'sent'> = {
    openChat: null,
    query: '',
    results: full.chats.map((chat) => chat.name),
    highlighted: null,
    drafts: {}
  }
  let lastSeq = 0
  const sent = (): SentMessage[] =>
    events.flatMap((event) => (event.type === 'sent' ? [{ chat: event.chat, text: event.text, at: event.at }] : []))
  const currentState = (): ChatState => structuredClone({ ...latest, sent: sent() })

  const indexHtml = readFileSync(path.join(fixtureDir, 'index.html'), 'utf8').replace(
    /<title>[^<]*<\/title>/,
    `<title>${escapeHtml(title)}</title>`
  )
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const reply = (status: number, type: string, body: string | Buffer = ''): void => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' })
      res.end(body)
    }
    if (req.method === 'POST' && url.pathname === '/event') {
      const posted = JSON.parse(await readBody(req)) as { seq: number; event: ChatAppEvent; state: Omit<ChatState, 'sent'> }
      if (posted.seq > lastSeq) {
        lastSeq = posted.seq
        latest = posted.state
      }
      log.push(posted.event)
      reply(204, 'text/plain')
    } else if (req.method === 'GET' && url.pathname === '/state') {
      reply(200, 'application/json; charset=utf-8', JSON.stringify(currentState()))
    } else if (req.method === 'GET' && url.pathname === '/config') {
      reply(200, 'application/json; charset=utf-8', JSON.stringify(full))
    } else if (req.method === 'GET' && (url.pathname === '/' || url.pathname === '/index.html')) {
      reply(200, 'text/html; charset=utf-8', indexHtml)
    } else if (req.method === 'GET' && STATIC[url.pathname]) {
      reply(200, `${STATIC[url.pathname]}; charset=utf-8`, readFileSync(path.join(fixtureDir, url.pathname.slice(1))))
    } else {
      reply(404, 'text/plain', 'not found')
    }
  }
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
      res.end(String(error.stack ?? error))
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  server.unref()
  const port = (server.address() as AddressInfo).port
  const url = `http://127.0.0.1:${port}/?config=${encodeURIComponent(JSON.stringify(full))}`

  const userDataDir = mkdtempSync(path.join(tmpdir(), 'deskclaw-chat-app-'))
  // --disable-features=Translate alone does not stop the "translate this page?" bubble (which
  // would cover the header) on Chromium 156: the profile turns it off too, and so does the page.
  mkdirSync(path.join(userDataDir, 'Default'))
  writeFileSync(
    path.join(userDataDir, 'Default', 'Preferences'),
    JSON.stringify({ translate: { enabled: false }, browser: { has_seen_welcome_page: true }, credentials_enable_service: false })
  )
  const position = { x: Math.max(0, Math.round((display.width - width) / 2)), y: 50 }
  const chromium = spawnOwned(
    chromiumPath,
    [
      '--no-sandbox',
      // Without it, --no-sandbox puts an "unsupported command-line flag" bar above the page (56 px).
      '--test-type',
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-gpu',
      '--disable-features=Translate,MediaRouter',
      '--force-device-scale-factor=1',
      '--ozone-platform=x11',
      '--password-store=basic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-default-apps',
      '--disable-search-engine-choice-screen',
      '--disable-session-crashed-bubble',
      // Timers run on time even when the window is behind another or unfocused.
      '--disable-background-timer-throttling',
      '--disable-renderer-backgrounding',
      '--disable-backgrounding-occluded-windows',
      ...(maximized ? ['--start-maximized'] : [`--window-size=${width},${height}`, `--window-position=${position.x},${position.y}`]),
      `--user-data-dir=${userDataDir}`,
      `--app=${url}`
    ],
    { env: { ...display.env, NO_AT_BRIDGE: '1' }, stdio: ['ignore', 'ignore', 'pipe'] }
  )
  let stderr = ''
  chromium.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-8_000)))
  const stderrTail = (): string =>
    stderr
      .split('\n')
      .filter((line) => !/dbus|Failed to connect to the bus|unexpected operator/.test(line))
      .slice(-20)
      .join('\n')
  chromium.once('exit', (code, signal) => log.end(`exited (code ${code}, signal ${signal})`))
  chromium.once('error', (error) => log.end(`could not start (${error.message})`))

  let closing: Promise<void> | undefined
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      await stopChild(chromium, 'SIGTERM', 5_000)
      // The zygote, renderer and GPU processes follow the browser out; wait for them (and make sure).
      const needle = userDataDir
      const deadline = Date.now() + 5_000
      let left = processesMentioning(needle)
      while (left.length > 0 && Date.now() < deadline) {
        await sleep(50)
        left = processesMentioning(needle)
      }
      for (const pid of left) {
        try {
          process.kill(pid, 'SIGKILL')
        } catch {
          // gone
        }
      }
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      rmSync(userDataDir, { recursive: true, force: true })
    })())

  try {
    const deadline = started + READY_TIMEOUT_MS
    const ready = (await waitFor((event) => event.type === 'ready', READY_TIMEOUT_MS)) as Extract<ChatAppEvent, { type: 'ready' }>
    if (!maximized && (ready.innerWidth !== width || ready.innerHeight !== height || ready.devicePixelRatio !== 1)) {
      throw new Error(`chat app "${title}": the page is ${ready.innerWidth}x${ready.innerHeight} at ${ready.devicePixelRatio}x, not ${width}x${height} at 1x`)
    }

    // The window: mapped, titled, 1000x700, and in the same place twice in a row (openbox has placed it).
    let xid: number | undefined
    let geometry: Geometry | undefined
    let previous: Geometry | undefined
    for (;;) {
      if (log.ended() !== undefined) throw new Error(`chat app "${title}": Chromium ${log.ended()}. stderr:\n${stderrTail()}`)
      xid ??= await findWindow(display.env, chromium.pid!, title)
      if (xid !== undefined) {
        geometry = await windowGeometry(display.env, xid)
        const sized = maximized ? geometry !== undefined && geometry.width >= display.width - 8 && geometry.height >= display.height - 60 : geometry?.width === width && geometry.height === height
        const settled =
          geometry?.viewable === true &&
          sized &&
          previous?.width === geometry.width &&
          previous.height === geometry.height &&
          previous !== undefined &&
          previous.x === geometry.x &&
          previous.y === geometry.y
        if (settled) break
        previous = geometry
      }
      if (Date.now() > deadline) {
        throw new Error(
          `chat app "${title}": no settled ${width}x${height} window within ${READY_TIMEOUT_MS / 1000} s (window ${xid ?? 'not found'}, geometry ${JSON.stringify(geometry)}). stderr:\n${stderrTail()}`
        )
      }
      await sleep(100)
    }

    const windowId = xid
    const activate = async (): Promise<void> => {
      await run(display.env, 'xdotool', ['windowactivate', '--sync', String(windowId)], 5_000)
      const until = Date.now() + 5_000
      for (;;) {
        const active = await run(display.env, 'xdotool', ['getactivewindow'])
        if (active.ok && Number.parseInt(active.stdout.trim(), 10) === windowId) return
        if (Date.now() > until) throw new Error(`chat app "${title}": window ${windowId} did not become active (active: ${active.stdout.trim() || 'none'})`)
        await sleep(50)
      }
    }
    await activate()

    return {
      title,
      xid: windowId,
      client: { x: geometry!.x, y: geometry!.y, width: geometry!.width, height: geometry!.height },
      startupMs: Date.now() - started,
      userDataDir,
      url,
      events,
      sent,
      // Through GET /state while the server runs (the route other tools may use too).
      state: async () => {
        if (closing) return currentState()
        const response = await fetch(`http://127.0.0.1:${port}/state`)
        if (!response.ok) throw new Error(`chat app "${title}": GET /state answered ${response.status}`)
        return (await response.json()) as ChatState
      },
      waitFor,
      activate,
      close
    }
  } catch (error) {
    await close()
    throw error
  }
}
