import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  accessibilityBackend,
  describeAccessibilityFailure,
  findNodes,
  walkNodes,
  type AccessibilityBackend,
  type AccessibilityResult,
  type AccessibleNode,
  type AccessibleWindow
} from '../../src/main/desktop/accessibility'
import { chatUser, requireChatClient, startChatClient, type ChatClient, type ChatClientKind } from '../helpers/real-chat-client'
import { requireChatServer, startChatServer, type ChatServer } from '../helpers/real-chat-server'
import { xdotool } from '../helpers/x-tools'

// The AT-SPI backend (docs/desktop.md, "Accessibility backends") against real chat clients from
// Debian — HexChat and Pidgin (GTK 2), run as an unprivileged user on their own Xvfb, talking to
// ngIRCd on loopback — with a listener on the server side checking right chat, exact text, once.
const available = requireChatServer() && requireChatClient('hexchat') && requireChatClient('pidgin')

// Names that differ by one character, in Chinese and in Latin script.
const CHANNELS = ['#张伟', '#张伟伟', '#ops', '#opt']

function value<T>(result: AccessibilityResult<T>): T {
  if (!result.ok) throw new Error(`${result.reason}: ${describeAccessibilityFailure(result)}`)
  return result.value
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

async function eventually<T>(read: () => Promise<T | undefined>, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const got = await read()
    if (got !== undefined) return got
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(100)
  }
}

/** What differs per client: measured on Debian 12 (HexChat 2.16, Pidgin 2.14), docs/desktop.md. */
interface ClientWay {
  /** The window holding the chat list. */
  listWindow(windows: AccessibleWindow[]): AccessibleWindow | undefined
  /** The window holding the conversation and the message entry. */
  chatWindow(windows: AccessibleWindow[]): AccessibleWindow | undefined
  /** Is the chat `name` the open one? Read from the conversation window's title. */
  isOpen(title: string, name: string): boolean
  /** Opens the chat through the tree. */
  open(backend: AccessibilityBackend, listRoot: AccessibleNode, chatRoot: AccessibleNode, name: string): Promise<void>
  /** The message entry in the conversation window's tree. */
  entry(chatRoot: AccessibleNode, nick: string): AccessibleNode | undefined
  /** Asked of the window manager; the client's minimum size may keep it larger. */
  smallSize: [number, number]
}

/** The list item named exactly `name` (a row's text cell). */
function listItem(root: AccessibleNode, name: string): AccessibleNode {
  const items = findNodes(root, { roles: ['table cell'], name, states: ['showing'] })
  expect(items.map((n) => n.name)).toEqual([name])
  return items[0]
}

const WAYS: Record<ChatClientKind, ClientWay> = {
  hexchat: {
    listWindow: (ws) => ws.find((w) => w.title.endsWith(' - HexChat')),
    chatWindow: (ws) => ws.find((w) => w.title.endsWith(' - HexChat')),
    isOpen: (title, name) => title.endsWith(` / ${name} - HexChat`),
    // HexChat switches on the tree's cursor, not on row activation: focusing the row moves the cursor.
    open: async (backend, listRoot, _chatRoot, name) => void value(await backend.focus(listItem(listRoot, name).id)),
    // The input box is the editable text beside the nick button (the topic box is another one).
    entry: (root, nick) => {
      for (const node of walkNodes(root)) {
        const hasNickButton = node.children.some((c) => findNodes(c, { roles: ['push button'], name: nick }).length > 0)
        const text = node.children.find((c) => c.role === 'text' && c.editableText && c.states.includes('showing'))
        if (hasNickButton && text) return text
      }
      return undefined
    },
    smallSize: [400, 300]
  },
  pidgin: {
    listWindow: (ws) => ws.find((w) => w.title === 'Buddy List'),
    chatWindow: (ws) => ws.find((w) => w.title !== 'Buddy List'),
    isOpen: (title, name) => title === name,
    // Activating a buddy-list row re-joins the channel but does not present a conversation already
    // open: the conversation window's tab is selected instead.
    open: async (backend, _listRoot, chatRoot, name) => {
      const tabs = findNodes(chatRoot, { roles: ['page tab'], name })
      expect(tabs.map((n) => n.name)).toEqual([name])
      value(await backend.select(tabs[0].id))
    },
    entry: (root) => findNodes(root, { roles: ['text'], states: ['editable', 'showing'], editableText: true })[0],
    smallSize: [300, 260]
  }
}

describe.skipIf(!available)('accessibility (AT-SPI) against real chat clients', () => {
  let server: ChatServer
  let sent = 0

  beforeAll(async () => {
    server = await startChatServer({ channels: CHANNELS, user: chatUser() })
  }, 30_000)
  afterAll(async () => {
    await server?.stop()
    console.log(`[accessibility] ${sent} messages sent through the tree, each received exactly once`)
  })

  describe.each(['hexchat', 'pidgin'] as const)('%s', (kind) => {
    const way = WAYS[kind]
    const nick = `dc${kind}`
    let client: ChatClient
    let backend: AccessibilityBackend

    const windows = async (): Promise<AccessibleWindow[]> => value(await backend.windows()).filter((w) => w.pid === client.pid)
    const tree = async (w: AccessibleWindow): Promise<AccessibleNode> => value(await backend.tree(w.id, { showingOnly: true, timeoutMs: 8000 })).root
    const chatWindow = async (): Promise<AccessibleWindow> => eventually(async () => way.chatWindow(await windows()), `${kind}'s conversation window`)
    const listWindow = async (): Promise<AccessibleWindow> => eventually(async () => way.listWindow(await windows()), `${kind}'s chat list window`)
    const xid = async (title: string): Promise<string> =>
      (await xdotool(client.display, 'search', '--onlyvisible', '--pid', String(client.pid), '--name', `^${title.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}$`)).trim().split('\n')[0]

    beforeAll(async () => {
      client = await startChatClient(kind, { server, nick, channels: CHANNELS })
      backend = accessibilityBackend('linux', { env: client.env })
      // The client has joined on the server; its windows appear in the tree once they are mapped.
      await eventually(async () => ((await windows()).length > 0 && way.chatWindow(await windows()) ? true : undefined), `${kind}'s windows`, 20_000)
    }, 60_000)
    afterAll(async () => {
      await backend?.close()
      await client?.stop()
    })

    it('finds the window by title and by pid, and reads the chat list with exact names', async () => {
      const list = await listWindow()
      expect(list.app.toLowerCase()).toBe(kind)
      expect(value(await backend.findWindow({ title: list.title })).id).toBe(list.id)
      expect(value(await backend.findWindow({ pid: client.pid, title: list.title })).id).toBe(list.id)
      const root = await tree(list)
      for (const name of CHANNELS) listItem(root, name)
      const missing = await backend.findWindow({ title: 'no such window 无此窗口' })
      expect(missing.ok).toBe(false)
    })

    it('finds the message entry and reads back what was typed into it and what was set', async () => {
      const chat = await chatWindow()
      const entry = way.entry(await tree(chat), nick)
      expect(entry, 'message entry').toBeDefined()
      await xdotool(client.display, 'windowactivate', '--sync', await xid(chat.title))
      value(await backend.focus(entry!.id))
      await xdotool(client.display, 'type', '--delay', '5', 'typed by xdotool 42')
      await eventually(async () => (value(await backend.node(entry!.id)).text === 'typed by xdotool 42' ? true : undefined), 'the typed text in the entry')
      value(await backend.setText(entry!.id, '草稿：张伟伟 😀 & ?'))
      expect(value(await backend.node(entry!.id)).text).toBe('草稿：张伟伟 😀 & ?')
      value(await backend.setText(entry!.id, ''))
      expect(value(await backend.node(entry!.id)).text).toBe('')
    })

    describe.each(['default', 'small'] as const)('at the %s window size', (size) => {
      let defaultExtents: AccessibleWindow['extents']
      beforeAll(async () => {
        const chat = await chatWindow()
        defaultExtents ??= chat.extents
        if (size === 'small') {
          await xdotool(client.display, 'windowsize', '--sync', await xid(chat.title), String(way.smallSize[0]), String(way.smallSize[1]))
          await sleep(300)
          const resized = (await chatWindow()).extents
          console.log(`[accessibility] ${kind}: ${defaultExtents?.width}×${defaultExtents?.height} by default, ${resized?.width}×${resized?.height} small`)
        }
      })

      it.each(CHANNELS)('switches to %s through the tree and sends by Return: arrives once, exactly', async (name) => {
        const list = await listWindow()
        const chatBefore = await chatWindow()
        await way.open(backend, await tree(list), await tree(chatBefore), name)
        const chat = await eventually(async () => {
          const w = await chatWindow()
          return way.isOpen(w.title, name) ? w : undefined
        }, `${name} to open`)
        if (size === 'small') expect(chat.extents!.width * chat.extents!.height).toBeLessThan(defaultExtents!.width * defaultExtents!.height)

        const entry = way.entry(await tree(chat), nick)
        expect(entry, 'message entry').toBeDefined()
        for (const text of [`你好，${name.slice(1)} 😀🎉 第${sent + 1}条`, `see https://example.test/search?q=a&lang=zh-CN&n=${sent + 2}`]) {
          value(await backend.setText(entry!.id, text))
          expect(value(await backend.node(entry!.id)).text).toBe(text)
          await xdotool(client.display, 'windowactivate', '--sync', await xid(chat.title))
          value(await backend.focus(entry!.id))
          const since = server.messages.length
          await xdotool(client.display, 'key', 'Return')
          const got = await server.waitForMessage((m) => m.from === nick, since)
          expect({ target: got.target, text: got.text }).toEqual({ target: name, text })
          sent++
          await eventually(async () => (value(await backend.node(entry!.id)).text === '' ? true : undefined), 'the entry to empty after sending')
        }
        // Exactly once: nothing else arrived from this client meanwhile, and every text is unique.
        await sleep(200)
        const mine = server.messages.filter((m) => m.from === nick)
        expect(new Set(mine.map((m) => m.text)).size).toBe(mine.length)
      })
    })
  })
})

describe('accessibility failures are values with a reason', () => {
  it('no session bus, a bus that is not there, another OS: a reason, never a throw', async () => {
    const noBus = await accessibilityBackend('linux', { env: {} }).windows()
    expect(noBus).toMatchObject({ ok: false, reason: 'no_session_bus' })
    const deadBus = accessibilityBackend('linux', { env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/deskclaw-bus' } })
    expect(await deadBus.findWindow({ title: 'x' })).toMatchObject({ ok: false, reason: 'no_session_bus' })
    await deadBus.close()
    for (const platform of ['win32', 'darwin'] as const) {
      const other = accessibilityBackend(platform)
      const result = await other.tree('anything')
      expect(result).toMatchObject({ ok: false, reason: 'unsupported_os' })
      if (!result.ok) expect(describeAccessibilityFailure(result, 'zh-CN')).toContain('暂未实现')
    }
    expect(await accessibilityBackend('linux', { env: {} }).tree('not an id')).toMatchObject({ ok: false, reason: 'not_found' })
  })
})
