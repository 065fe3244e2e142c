import { execFile, spawnSync, type ChildProcess } from 'node:child_process'
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { requireCapability } from './capability'
import type { ChatServer, ChatUser } from './real-chat-server'
import { requireXServer, spawnOwned, startDisplay, stopChild, type TestDisplay } from './xvfb'

/**
 * A real chat client from Debian (HexChat, Pidgin) on its own Xvfb + openbox, run as an
 * unprivileged user (some refuse root; .ci/run creates the user), with a private session D-Bus and
 * the AT-SPI bus started for it, pre-configured to connect to the loopback test server and join the
 * test channels (docs/desktop.md, "Accessibility backends"; issue 20).
 */

export type ChatClientKind = 'hexchat' | 'pidgin'
export const CHAT_TEST_USER = 'deskclaw-chat'
export const CHAT_CLIENT_PACKAGES = 'hexchat pidgin at-spi2-core libatk-adaptor libgail-common dbus-daemon dbus-x11'

const BINARIES: Record<ChatClientKind, string> = { hexchat: 'hexchat', pidgin: 'pidgin' }
const AT_SPI_LAUNCHER = '/usr/libexec/at-spi-bus-launcher'

/** A second account (Pidgin) or network (HexChat) on the same server: its channels appear a second time in the chat list. */
export interface SecondAccount {
  nick: string
  channels: string[]
}

export interface ChatClient {
  kind: ChatClientKind
  nick: string
  display: TestDisplay
  /** The client's pid (the AT-SPI application's process). */
  pid: number
  /** DBUS_SESSION_BUS_ADDRESS for the accessibility backend. */
  env: NodeJS.ProcessEnv
  /** Last lines the client printed. */
  log(): string
  stop(): Promise<void>
}

function onPath(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0
}

export function hasChatClient(kind: ChatClientKind): boolean {
  return onPath(BINARIES[kind]) && onPath('dbus-daemon') && existsSync(AT_SPI_LAUNCHER) && existsSync('/usr/lib/x86_64-linux-gnu/gtk-2.0/modules/libatk-bridge.so')
}

/** The unprivileged user the clients run as when the tests run as root; the current user otherwise. */
export function chatUser(): ChatUser | undefined {
  if (process.getuid?.() !== 0) return undefined
  const id = spawnSync('id', [CHAT_TEST_USER], { encoding: 'utf8' })
  const uid = /uid=(\d+)/.exec(id.stdout ?? '')
  const gid = /gid=(\d+)/.exec(id.stdout ?? '')
  if (!uid || !gid) return undefined
  return { name: CHAT_TEST_USER, uid: Number(uid[1]), gid: Number(gid[1]) }
}

/** true when the client, the AT-SPI pieces, X and (as root) the test user are here; else skips or throws. */
export function requireChatClient(kind: ChatClientKind): boolean {
  if (!requireXServer()) return false
  if (!requireCapability(kind, hasChatClient(kind), `apt-get install ${CHAT_CLIENT_PACKAGES}`)) return false
  if (process.getuid?.() === 0) {
    return requireCapability(`user ${CHAT_TEST_USER}`, chatUser() !== undefined, `useradd --system --create-home ${CHAT_TEST_USER} (.ci/run does)`)
  }
  return true
}

// ---- pre-seeded configuration -------------------------------------------------------------------

function writeHexchatConfig(home: string, server: ChatServer, nick: string, channels: string[], second?: SecondAccount): void {
  const dir = join(home, '.config', 'hexchat')
  mkdirSync(dir, { recursive: true })
  // F=8: connect at start (FLAG_AUTO_CONNECT); J= one line per channel.
  const network = (name: string, n: string, joins: string[]) => [
    `N=${name}`, `I=${n}`, `i=${n}_`, `U=${n}`, 'R=DeskClaw', 'E=UTF-8 (Unicode)', 'F=8', 'D=0', `S=${server.host}/${server.port}`, ...joins.map((c) => `J=${c}`), ''
  ]
  const servlist = ['v=2.16.1', '', ...network('DeskClawTest', nick, channels), ...(second ? network('DeskClawTest2', second.nick, second.channels) : [])]
  writeFileSync(join(dir, 'servlist.conf'), [...servlist, ''].join('\n'))
  writeFileSync(
    join(dir, 'hexchat.conf'),
    ['version = 2.16.1', 'gui_slist_skip = 1', `irc_nick1 = ${nick}`, `irc_nick2 = ${nick}_`, `irc_user_name = ${nick}`, 'gui_join_dialog = 0', 'gui_tray = 0', 'gui_quit_dialog = 0', ''].join('\n')
  )
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&apos;')
}

function writePidginConfig(home: string, server: ChatServer, nick: string, channels: string[], second?: SecondAccount): void {
  const dir = join(home, '.purple')
  mkdirSync(dir, { recursive: true })
  const accounts = [{ nick, channels }, ...(second ? [second] : [])]
  writeFileSync(
    join(dir, 'accounts.xml'),
    `<?xml version='1.0' encoding='UTF-8' ?>
<account version='1.0'>${accounts.map((a) => pidginAccount(`${a.nick}@${server.host}`, a.nick, server)).join('')}</account>
`
  )
  const chats = accounts
    .flatMap((a) =>
      a.channels.map(
        (c) =>
          `   <chat proto='prpl-irc' account='${a.nick}@${server.host}'><component name='channel'>${escapeXml(c)}</component><setting name='gtk-autojoin' type='bool'>1</setting></chat>`
      )
    )
    .join('\n')
  writeBlist(dir, chats)
}

function pidginAccount(account: string, nick: string, server: ChatServer): string {
  return `<account>
 <protocol>prpl-irc</protocol><name>${account}</name>
 <settings>
  <setting name='port' type='int'>${server.port}</setting>
  <setting name='encoding' type='string'>UTF-8</setting>
  <setting name='autodetect_utf8' type='bool'>1</setting>
  <setting name='ssl' type='bool'>0</setting>
  <setting name='username' type='string'>${nick}</setting>
  <setting name='realname' type='string'>DeskClaw</setting>
 </settings>
 <settings ui='gtk-gaim'><setting name='auto-login' type='bool'>1</setting></settings>
</account>`
}

function writeBlist(dir: string, chats: string): void {
  writeFileSync(
    join(dir, 'blist.xml'),
    `<?xml version='1.0' encoding='UTF-8' ?>
<purple version='1.0'><blist>
  <group name='Chats'>
${chats}
  </group>
</blist></purple>
`
  )
  writeFileSync(
    join(dir, 'prefs.xml'),
    `<?xml version='1.0' encoding='UTF-8' ?>
<pref version='1' name='/'>
 <pref name='pidgin'>
  <pref name='conversations'><pref name='spellcheck' type='bool' value='0'/></pref>
  <pref name='docklet'><pref name='show' type='string' value='never'/></pref>
 </pref>
</pref>
`
  )
}

function chownTree(path: string, user: ChatUser): void {
  chownSync(path, user.uid, user.gid)
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const child = join(path, entry.name)
    if (entry.isDirectory()) chownTree(child, user)
    else chownSync(child, user.uid, user.gid)
  }
}

// ---- processes ----------------------------------------------------------------------------------

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** Every process below `pid` (the AT-SPI launcher's own bus daemon, the registry it activates). */
function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)])
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = []
  const visit = (p: number): void => {
    for (const child of parents.get(p) ?? []) {
      found.push(child)
      visit(child)
    }
  }
  visit(pid)
  return found
}

function killPids(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // already gone
    }
  }
}

function busAnswers(env: NodeJS.ProcessEnv, name: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile('dbus-send', ['--session', '--print-reply', '--dest=org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.NameHasOwner', `string:${name}`], { env, timeout: 2000 }, (error, stdout) =>
      resolve(!error && /boolean true/.test(stdout))
    )
  })
}

async function until(check: () => Promise<boolean> | boolean, timeoutMs: number, what: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(what())
    await sleep(100)
  }
}

/**
 * Starts `kind` on a private display with its own session bus and AT-SPI bus, connected to
 * `server` as `nick`, joining `channels`; resolves when the server saw it join them all.
 */
export async function startChatClient(kind: ChatClientKind, opts: { server: ChatServer; nick: string; channels: string[]; second?: SecondAccount }): Promise<ChatClient> {
  const user = chatUser()
  const display = await startDisplay({ shared: false })
  const dir = mkdtempSync(join(tmpdir(), `deskclaw-${kind}-`))
  const home = join(dir, 'home')
  mkdirSync(home)
  if (kind === 'hexchat') writeHexchatConfig(home, opts.server, opts.nick, opts.channels, opts.second)
  else writePidginConfig(home, opts.server, opts.nick, opts.channels, opts.second)
  // The tests (root) read the tree over this bus: the session bus admits root besides its owner.
  writeFileSync(
    join(dir, 'session.conf'),
    `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <include>/usr/share/dbus-1/session.conf</include>
  <policy context="default"><allow user="root"/></policy>
</busconfig>
`
  )
  if (user) chownTree(dir, user)
  const busAddress = `unix:path=${join(dir, 'bus')}`
  const asUser = user ? { uid: user.uid, gid: user.gid } : {}
  const userEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    USER: user?.name ?? process.env.USER,
    LANG: 'C.UTF-8',
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    DISPLAY: display.display,
    DBUS_SESSION_BUS_ADDRESS: busAddress,
    // GTK 2 loads the ATK bridge only when asked (GTK 3 always does).
    GTK_MODULES: 'gail:atk-bridge'
  }
  const started: ChildProcess[] = []
  let output = ''
  const record = (child: ChildProcess): ChildProcess => {
    started.push(child)
    child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)))
    child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)))
    return child
  }
  const stop = async (): Promise<void> => {
    const below = started.flatMap((child) => (child.pid ? descendants(child.pid) : []))
    for (const child of [...started].reverse()) await stopChild(child, 'SIGTERM', 2000)
    killPids(below)
    await display.stop()
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    record(spawnOwned('dbus-daemon', ['--config-file', join(dir, 'session.conf'), '--nofork', `--address=${busAddress}`], { env: userEnv, stdio: ['ignore', 'pipe', 'pipe'], ...asUser }))
    const rootEnv = { ...process.env, DBUS_SESSION_BUS_ADDRESS: busAddress }
    await until(() => existsSync(join(dir, 'bus')), 10_000, () => `dbus-daemon did not start:\n${output}`)
    // --a11y=1: org.a11y.Status.IsEnabled, which toolkits that ask first read.
    record(spawnOwned(AT_SPI_LAUNCHER, ['--launch-immediately', '--a11y=1'], { env: userEnv, stdio: ['ignore', 'pipe', 'pipe'], ...asUser }))
    await until(() => busAnswers(rootEnv, 'org.a11y.Bus'), 10_000, () => `at-spi-bus-launcher did not register org.a11y.Bus:\n${output}`)
    const client = record(spawnOwned(BINARIES[kind], kind === 'pidgin' ? ['-c', join(home, '.purple')] : [], { env: userEnv, stdio: ['ignore', 'pipe', 'pipe'], ...asUser }))
    const joins = [opts.server.waitForJoins(opts.nick, opts.channels, 30_000), ...(opts.second ? [opts.server.waitForJoins(opts.second.nick, opts.second.channels, 30_000)] : [])]
    await Promise.all(joins).catch((error: Error) => {
      throw new Error(`${kind}: ${error.message}\n${output}`)
    })
    return { kind, nick: opts.nick, display, pid: client.pid!, env: { DBUS_SESSION_BUS_ADDRESS: busAddress }, log: () => output, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

/**
 * Maximises a window the way the user's window manager does (_NET_WM_STATE through GDK: this
 * xdotool has no windowstate), and waits for the window manager to say so.
 */
export function maximizeWindow(display: TestDisplay, xid: string): Promise<void> {
  const script = [
    'import sys, gi',
    "gi.require_version('Gdk', '3.0'); gi.require_version('GdkX11', '3.0')",
    'from gi.repository import Gdk, GdkX11',
    'd = GdkX11.X11Display.open(sys.argv[1])',
    'w = GdkX11.X11Window.foreign_new_for_display(d, int(sys.argv[2]))',
    'w.maximize(); d.flush()'
  ].join('\n')
  return new Promise((resolve, reject) =>
    execFile('/usr/bin/python3', ['-c', script, display.display, xid], { env: { ...process.env, DISPLAY: display.display }, timeout: 10_000 }, (error, _out, stderr) =>
      error ? reject(new Error(`maximise ${xid}: ${error.message} ${stderr}`)) : resolve()
    )
  )
}
