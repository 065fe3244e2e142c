import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { builtinProfilesDir, ChatSender, loadChatApps, MemorySendLog, readProfileFile, type ChatSenderSettings } from '../../src/main/chat-apps'
import { DesktopService, TesseractOcr } from '../../src/main/desktop'
import { accessibilityBackend, findNodes, type AccessibilityBackend } from '../../src/main/desktop/accessibility'
import { cliPath, requireBuiltCli } from '../helpers/cli'
import { chatUser, requireChatClient, startChatClient, type ChatClient } from '../helpers/real-chat-client'
import { requireChatServer, startChatServer, type ChatServer } from '../helpers/real-chat-server'
import { heldKeys, xdotool } from '../helpers/x-tools'

// Issue 20, item 6, end to end against a real client nobody here wrote: `deskclaw desktop learn`
// teaches DeskClaw HexChat (from Debian, as user deskclaw-chat, on ngIRCd on loopback) — the window
// by its title, the keys by name, one chat — its dry send into another chat sends nothing and puts
// the draft back; then the learned profile, loaded from the data folder, sends for real, checked
// by the server's listener (docs/desktop.md, "Teach DeskClaw a new app").
const available = requireChatServer() && requireChatClient('hexchat')
const CHANNELS = ['#ops', '#opt', '#张伟']
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

/**
 * The CLI on a terminal (util-linux `script` gives it a pty): each prompt answered when it shows;
 * the answers are typed as a person types them.
 */
async function runOnTerminal(args: string[], env: NodeJS.ProcessEnv, answers: Array<[prompt: string, answer: string]>): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, cliPath, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')
  const child = spawn('script', ['-qfec', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] })
  let output = ''
  let next = 0
  let seen = 0
  const onData = (chunk: Buffer) => {
    output += chunk.toString()
    while (next < answers.length) {
      const at = output.indexOf(answers[next]![0], seen)
      if (at < 0) break
      seen = at + answers[next]![0].length
      child.stdin.write(answers[next]![1] + '\r')
      next++
    }
  }
  child.stdout.on('data', onData)
  child.stderr.on('data', onData)
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  return { code, output }
}

describe.skipIf(!available)('deskclaw desktop learn against HexChat, then a real send with the learned profile', () => {
  requireBuiltCli()
  let server: ChatServer
  let client: ChatClient
  let backend: AccessibilityBackend
  let desktop: DesktopService
  let ocr: TesseractOcr
  const dataDir = mkdtempSync(join(tmpdir(), 'deskclaw-learn-real-'))
  const nick = 'dclearn'

  /** The message entry (the lowest editable text on screen) of HexChat's window. */
  const entry = async () => {
    const windows = await backend.windows()
    if (!windows.ok) return undefined
    for (const w of windows.value.filter((x) => x.pid === client.pid)) {
      const tree = await backend.tree(w.id, { showingOnly: true })
      if (!tree.ok) continue
      const entries = findNodes(tree.value.root, { roles: ['text'], states: ['editable', 'showing'], editableText: true })
      const lowest = entries.sort((a, b) => (b.extents?.y ?? 0) - (a.extents?.y ?? 0))[0]
      if (lowest) return lowest
    }
    return undefined
  }

  beforeAll(async () => {
    server = await startChatServer({ channels: CHANNELS, user: chatUser() })
    client = await startChatClient('hexchat', { server, nick, channels: CHANNELS })
    backend = accessibilityBackend('linux', { env: client.env })
    desktop = new DesktopService({ env: client.display.env, settings: () => ({ screenshotMaxWidth: 1280, desktopFailSafe: false }) })
    ocr = new TesseractOcr()
    const deadline = Date.now() + 20_000
    while (!(await entry())) {
      if (Date.now() > deadline) throw new Error(`hexchat: no message entry in the tree\n${client.log()}`)
      await sleep(200)
    }
  }, 60_000)
  afterAll(async () => {
    await ocr?.close()
    await desktop?.shutdown()
    await backend?.close()
    await client?.stop()
    await server?.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('learns the app without sending, and the learned profile then sends to the right chat, exactly once', async () => {
    // #opt open with a draft in its entry: the dry send into it must put the draft back as it was.
    const windows = await backend.windows()
    const main = windows.ok ? windows.value.find((w) => w.pid === client.pid) : undefined
    const tree = main ? await backend.tree(main.id, { showingOnly: true }) : undefined
    const opt = tree?.ok ? findNodes(tree.value.root, { roles: ['table cell'] }).find((n) => n.name === '#opt') : undefined
    expect(opt, 'the #opt row').toBeDefined()
    expect((await backend.focus(opt!.id)).ok).toBe(true)
    await expect.poll(async () => (await desktop.windows()).some((w) => w.title.endsWith('/ #opt - HexChat')), { timeout: 5000 }).toBe(true)
    const title = (await desktop.windows()).find((w) => w.title.endsWith(' - HexChat'))?.title
    expect(title, 'HexChat shows #opt').toMatch(/#opt/)
    const box = await entry()
    expect((await backend.setText(box!.id, '我的草稿 keep me')).ok).toBe(true)
    const before = server.messages.length

    const env = { ...process.env, ...client.display.env, ...client.env }
    const learn = await runCli(
      ['desktop', 'learn', '--window', title!, '--search-key', 'Ctrl+F', '--send-key', 'enter', '--chat', '#ops', '--try-chat', '#opt', '--try-text', '试一试 dry run', '--name', 'HexChat (learned)', '--name-zh', 'HexChat（学来的）', '--id', 'hexchat-learned', '--data-dir', dataDir],
      env
    )
    expect(learn.code, `${learn.stdout}\n${learn.stderr}`).toBe(0)
    console.log(`[learn real client]\n${learn.stderr}${learn.stdout}`)
    expect(learn.stderr).toMatch(/found through the accessibility tree/)
    expect(learn.stderr).toMatch(/chat item: table cell "#ops"/)
    expect(learn.stderr).toMatch(/entry: text/)
    expect(learn.stderr).toMatch(/✓ header verified: .*#opt/)
    expect(learn.stderr).toMatch(/title matching \^dclearn @ \S+ \/ \.\+ - HexChat\$/)
    expect(learn.stderr).toMatch(/✓ draft pasted: 试一试 dry run/)
    expect(learn.stderr).toMatch(/■ stopped before the send key \(dry run\)/)
    const file = join(dataDir, 'desktop-apps', 'hexchat-learned.json')
    expect(learn.stdout).toContain(file)

    // Nothing was sent; the draft is back; no key is held.
    await sleep(1500)
    expect(server.messages.slice(before).filter((m) => m.from === nick)).toEqual([])
    const after = await backend.node(box!.id)
    expect(after.ok && after.value.text).toBe('我的草稿 keep me')
    expect(await heldKeys(client.display)).toEqual([])
    expect((await backend.setText(box!.id, '')).ok).toBe(true)

    // The saved profile: the schema's, found among the user's, no regions, the title's parts learned.
    const profile = readProfileFile(file)
    expect(loadChatApps({ dataDir, builtinDir: builtinProfilesDir() }).profiles.find((p) => p.profile.id === 'hexchat-learned')?.source).toBe('user')
    const linux = profile.platforms.linux!
    expect(linux.keys).toMatchObject({ search: 'ctrl+f', send: 'enter' })
    expect(linux.regions).toBeUndefined()
    expect(linux.window.titlePattern).toMatch(/ - HexChat\$$/)
    expect(profile.name).toEqual({ en: 'HexChat (learned)', 'zh-CN': 'HexChat（学来的）' })

    // A real send with it, as the tool and the CLI build the sender (the user's profiles from the data folder).
    const settings = (): ChatSenderSettings => ({
      chatApps: { 'hexchat-learned': { enabled: true, allowlist: [] } },
      chatSendMinIntervalSec: 0,
      chatSendPerHour: 1000,
      chatWatermark: 'none',
      chatWatermarkSuffix: ' [DeskClaw]',
      chatSendTimeoutSec: 60
    })
    const sender = new ChatSender({ desktop, ocr: () => ocr, log: new MemorySendLog(), settings, dataDir, builtinDir: builtinProfilesDir(), platform: 'linux', accessibility: backend })
    const sends = [
      { to: '#opt', text: `learned profile → opt ${Date.now()}` },
      { to: '#张伟', text: `学来的配置 😀 ${Date.now()}` },
      { to: '#ops', text: `see https://example.test/?a=1&b=2 ${Date.now()}` }
    ]
    for (const s of sends) {
      const outcome = await sender.send({ app: 'hexchat-learned', ...s, runId: 'learned', conversationId: 'c', confirm: async () => ({ allowed: true }) })
      expect(outcome.status, `${s.to}: ${outcome.reason}`).toBe('sent')
      await server.waitForMessage((m) => m.from === nick && m.text === s.text, before, 20_000)
    }
    const missing = await sender.send({ app: 'hexchat-learned', to: '#op', text: 'must not arrive', runId: 'learned', conversationId: 'c', confirm: async () => ({ allowed: true }) })
    expect(missing.status).toBe('not_sent')
    await sleep(1500)
    const mine = server.messages.slice(before).filter((m) => m.from === nick)
    expect(mine.map((m) => ({ target: m.target, text: m.text }))).toEqual(sends.map((s) => ({ target: s.to, text: s.text })))
    // The window is still the one it learned (no dialog left open).
    expect((await xdotool(client.display, 'search', '--onlyvisible', '--pid', String(client.pid), '--name', '.')).trim().split('\n')).toHaveLength(1)
  }, 120_000)

  it('asks on a terminal what no flag gave, and asks again for a key name that is not one', async () => {
    const env = { ...process.env, ...client.display.env, ...client.env }
    const title = (await desktop.windows()).find((w) => w.title.endsWith(' - HexChat'))!.title
    const { code, output } = await runOnTerminal(['desktop', 'learn', '--data-dir', dataDir], env, [
      ["The app's window (its number or title): ", title],
      ["The app's search key (e.g. ctrl+f): ", 'ctrl+fx'],
      ['The key that sends a message [enter]: ', ''],
      ["The app's search key (e.g. ctrl+f): ", 'ctrl+f'],
      ['The key that sends a message [enter]: ', ''],
      ['One chat the app shows, exactly as it shows it: ', '#ops'],
      ['The chat for the dry send (nothing is sent) [#ops]: ', ''],
      ['The draft to paste and read back', ''],
      ["The app's name: ", 'HexChat TTY'],
      ['Its id [hexchat-tty]: ', ''],
      ['Its name in Chinese [HexChat TTY]: ', '终端学来的']
    ])
    expect(code, output).toBe(0)
    expect(output).toMatch(/Key names: letters, digits, f1…f24, .*kpenter/)
    expect(output).toMatch(/✗ the search key: "fx" in "ctrl\+fx" is not a key/)
    expect(output).toMatch(/■ stopped before the send key \(dry run\)/)
    const profile = readProfileFile(join(dataDir, 'desktop-apps', 'hexchat-tty.json'))
    expect(profile).toMatchObject({ id: 'hexchat-tty', name: { en: 'HexChat TTY', 'zh-CN': '终端学来的' }, platforms: { linux: { keys: { search: 'ctrl+f', send: 'enter' } } } })
  }, 60_000)
})
