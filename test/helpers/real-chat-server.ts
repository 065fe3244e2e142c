import { spawnSync } from 'node:child_process'
import { chmodSync, chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { connect, createServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { requireCapability } from './capability'
import { spawnOwned, stopChild } from './xvfb'

/**
 * A real IRC server from Debian (ngIRCd) on a free loopback port, with a listener on the server
 * side: a tiny IRC client that joins the channels and records every PRIVMSG with its sender,
 * target and exact text — what checks "right chat, exact text, exactly once" (issue 20).
 */

export const CHAT_SERVER_PACKAGES = 'ngircd'
export const LISTENER_NICK = 'listener'

export interface ChatUser {
  uid: number
  gid: number
  name: string
}

export interface ReceivedMessage {
  from: string
  target: string
  text: string
  at: number
}

export interface ChatServer {
  host: string
  port: number
  /** Every PRIVMSG the listener saw, in order. */
  messages: ReceivedMessage[]
  /** Channels each nick has joined (as the listener saw their JOINs). */
  joined: Map<string, Set<string>>
  /** Resolves when `nick` has joined every channel; rejects after timeoutMs. */
  waitForJoins(nick: string, channels: string[], timeoutMs?: number): Promise<void>
  /** The first message from index `since` on for which pred holds; rejects after timeoutMs. */
  waitForMessage(pred: (m: ReceivedMessage) => boolean, since: number, timeoutMs?: number): Promise<ReceivedMessage>
  stop(): Promise<void>
}

export function hasChatServer(): boolean {
  return spawnSync('sh', ['-c', 'command -v ngircd'], { stdio: 'ignore' }).status === 0
}

export function requireChatServer(): boolean {
  return requireCapability('ngircd', hasChatServer(), `apt-get install ${CHAT_SERVER_PACKAGES}`)
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(what())
    await sleep(50)
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

/**
 * Starts ngIRCd (as `user` when given: the process never runs as root) and the listener, joined to
 * `channels`, ready when this resolves.
 */
export async function startChatServer(opts: { channels: string[]; user?: ChatUser }): Promise<ChatServer> {
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), 'deskclaw-ircd-'))
  const config = join(dir, 'ngircd.conf')
  writeFileSync(
    config,
    [
      '[Global]',
      'Name = irc.deskclaw.test',
      'Info = DeskClaw test server',
      'Listen = 127.0.0.1',
      `Ports = ${port}`,
      'MotdPhrase = DeskClaw test server',
      `PidFile = ${join(dir, 'ngircd.pid')}`,
      '[Limits]',
      'MaxNickLength = 30',
      // The test sends bursts; the default penalty would delay them by seconds.
      'MaxPenaltyTime = 0',
      '[Options]',
      'PAM = no',
      'Ident = no',
      'DNS = no',
      ''
    ].join('\n')
  )
  if (opts.user) {
    chownSync(dir, opts.user.uid, opts.user.gid)
    chmodSync(dir, 0o755)
  }
  const ircd = spawnOwned('ngircd', ['-n', '-f', config], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(opts.user ? { uid: opts.user.uid, gid: opts.user.gid } : {})
  })
  let log = ''
  ircd.stdout?.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)))
  ircd.stderr?.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)))
  await until(
    async () => {
      if (ircd.exitCode !== null) throw new Error(`ngircd exited (${ircd.exitCode}):\n${log}`)
      return canConnect(port)
    },
    10_000,
    () => `ngircd did not listen on 127.0.0.1:${port} within 10 s:\n${log}`
  )

  const messages: ReceivedMessage[] = []
  const joined = new Map<string, Set<string>>()
  const socket: Socket = connect(port, '127.0.0.1')
  socket.setEncoding('utf8')
  let buffer = ''
  let listenerJoined = 0
  const send = (line: string): void => void socket.write(`${line}\r\n`)
  socket.on('data', (chunk: string) => {
    buffer += chunk
    for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
      const line = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      const match = /^(?::(\S+) )?(\S+)(?: (.*))?$/.exec(line)
      if (!match) continue
      const [, prefix = '', command, rest = ''] = match
      const nick = prefix.split('!')[0]
      if (command === 'PING') send(`PONG ${rest}`)
      else if (command === '001') send(`JOIN ${opts.channels.join(',')}`)
      else if (command === 'JOIN') {
        const channel = rest.replace(/^:/, '')
        if (nick === LISTENER_NICK) listenerJoined++
        if (!joined.has(nick)) joined.set(nick, new Set())
        joined.get(nick)!.add(channel)
      } else if (command === 'PRIVMSG') {
        const space = rest.indexOf(' ')
        const target = rest.slice(0, space)
        const text = rest.slice(space + 1).replace(/^:/, '')
        messages.push({ from: nick, target, text, at: Date.now() })
      }
    }
  })
  socket.on('error', () => {})
  send(`NICK ${LISTENER_NICK}`)
  send(`USER ${LISTENER_NICK} 0 * :DeskClaw test listener`)
  await until(() => listenerJoined >= opts.channels.length, 10_000, () => `the listener joined ${listenerJoined} of ${opts.channels.length} channels:\n${log}`)

  let stopped: Promise<void> | undefined
  return {
    host: '127.0.0.1',
    port,
    messages,
    joined,
    waitForJoins: (nick, channels, timeoutMs = 20_000) =>
      until(
        () => channels.every((c) => joined.get(nick)?.has(c)),
        timeoutMs,
        () => `${nick} joined ${[...(joined.get(nick) ?? [])].join(', ') || 'nothing'}, not all of ${channels.join(', ')}`
      ),
    waitForMessage: async (pred, since, timeoutMs = 10_000) => {
      let found: ReceivedMessage | undefined
      await until(
        () => (found = messages.slice(since).find(pred)) !== undefined,
        timeoutMs,
        () => `no such message within ${timeoutMs} ms; received since: ${JSON.stringify(messages.slice(since))}`
      )
      return found!
    },
    stop: () =>
      (stopped ??= (async () => {
        socket.destroy()
        await stopChild(ircd)
        rmSync(dir, { recursive: true, force: true })
      })())
  }
}
