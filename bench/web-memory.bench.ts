/**
 * `deskclaw web` memory (issue 28, item 6), against its floor in the same run: a bare Node HTTP
 * server. The built CLI serves the bridge; a WebSocket client (as the page is) sends 300 runs per
 * round, each in a new conversation, each a tool round trip (file_list, then an answer) against the
 * scripted OpenAI-compatible server; four rounds. RSS (VmRSS) is read idle after start and after
 * each round once the host has been idle for a moment, with its parts (anonymous, file-backed, shared).
 * No assertions; numbers are for the report.
 * Run: npx vitest bench --run --project unit bench/web-memory.bench.ts  (after npm run build)
 * DESKCLAW_BENCH_CLI=path/to/cli.js measures another build; DESKCLAW_BENCH_ROUNDS sets the rounds;
 * DESKCLAW_BENCH_NODE_FLAGS passes Node/V8 flags to the host (to compare V8 settings).
 * DESKCLAW_BENCH_HEAPSNAPSHOTS=1 also writes a heap snapshot of the host idle and after each round
 * (node --heapsnapshot-signal) into the bench's temporary folder and prints where.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import WebSocket from 'ws'
import { afterAll, beforeAll, bench, describe } from 'vitest'
import { cliPath } from '../test/helpers/cli'
import { startScriptedOpenAI } from '../test/fixtures/scripted-openai'
import type { ScriptedServer } from '../test/fixtures/scripted-types'

const RUNS_PER_ROUND = 300
const ROUNDS = Number(process.env.DESKCLAW_BENCH_ROUNDS ?? 4)
/** Extra Node flags for the host, to compare V8 settings (e.g. "--optimize-for-size"). */
const hostFlags = (process.env.DESKCLAW_BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean)
const SETTLE_MS = 1500
const cli = process.env.DESKCLAW_BENCH_CLI ?? cliPath
const snapshots = process.env.DESKCLAW_BENCH_HEAPSNAPSHOTS === '1'
const root = mkdtempSync(join(tmpdir(), 'deskclaw-web-memory-'))
const workspace = join(root, 'ws')
mkdirSync(workspace, { recursive: true })
writeFileSync(join(workspace, 'notes.txt'), 'hello\n')

let model: ScriptedServer
let host: ChildProcess
let floor: ChildProcess
let socket: WebSocket
const rows: Array<{ when: string; rssMiB: number; parts: string }> = []
let floorMiB = NaN

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024
}

/** RSS by kind: anonymous (JS heap, malloc: SQLite's cache among it), mapped files (code), shared (SQLite's -shm). */
function rssParts(pid: number): string {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kib = (field: string): string => (Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) / 1024).toFixed(1)
  return `${kib('RssAnon')} / ${kib('RssFile')} / ${kib('RssShmem')}`
}

/** Starts a process and resolves with the first stdout text matching `ready`. */
function startProcess(argv: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { env, cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout!.on('data', (chunk) => {
      out += chunk
      const match = ready.exec(out)
      if (match) resolve({ child, match })
    })
    child.stderr!.on('data', (chunk) => (err += chunk))
    child.on('exit', (code) => reject(new Error(`${argv.join(' ')} exited ${code}: ${err}`)))
  })
}

/** One bridge call over the socket. */
let nextId = 0
const pending = new Map<number, (result: { ok: boolean; data?: any; error?: unknown }) => void>()
const runWaiters = new Map<string, () => void>()
function call(name: string, input: unknown): Promise<any> {
  const id = ++nextId
  return new Promise((resolve, reject) => {
    pending.set(id, (result) => (result.ok ? resolve(result.data) : reject(new Error(JSON.stringify(result.error)))))
    socket.send(JSON.stringify({ id, call: name, input }))
  })
}

async function oneRun(): Promise<void> {
  const conversation = await call('conversations.create', {})
  const ended = new Promise<void>((resolve) => runWaiters.set(`conv:${conversation.id}`, resolve))
  await call('agent.send', { conversationId: conversation.id, text: 'list the files' })
  await ended
}

async function measure(when: string): Promise<void> {
  await sleep(SETTLE_MS)
  rows.push({ when, rssMiB: rssMiB(host.pid!), parts: rssParts(host.pid!) })
  if (snapshots) {
    // After the reading: writing a snapshot grows the process by about the heap's size.
    host.kill('SIGUSR2')
    await sleep(SETTLE_MS * 4)
  }
}

beforeAll(async () => {
  const script = Array.from({ length: RUNS_PER_ROUND * (ROUNDS + 1) }, () => [
    { text: 'Looking.', toolCalls: [{ name: 'file_list', args: { path: '.' } }] },
    { text: 'There is one file, notes.txt.' }
  ]).flat()
  model = await startScriptedOpenAI(script)
  const env = {
    ...process.env,
    NODE_OPTIONS: '',
    DESKCLAW_HOME: join(root, 'home'),
    DESKCLAW_PROVIDER: 'openai-compatible',
    DESKCLAW_BASE_URL: model.url,
    DESKCLAW_MODEL: 'scripted',
    DESKCLAW_WORKSPACE: workspace
  }
  const started = await startProcess([...hostFlags, ...(snapshots ? ['--heapsnapshot-signal=SIGUSR2'] : []), cli, 'web'], env, /(http:\/\/[^\s]+\/\?token=([\w-]+))/)
  host = started.child
  const url = new URL(started.match[1]!)
  socket = new WebSocket(`ws://${url.host}/bridge?token=${started.match[2]}`)
  socket.on('message', (data) => {
    const message = JSON.parse(String(data))
    if (typeof message.id === 'number') {
      pending.get(message.id)?.(message.result)
      pending.delete(message.id)
    } else if (message.event?.kind === 'agent') {
      const event = message.event.event
      if (event.type === 'run_completed' || event.type === 'run_failed') {
        runWaiters.get(`conv:${event.conversationId}`)?.()
        runWaiters.delete(`conv:${event.conversationId}`)
      }
    }
  })
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))
  await measure('idle, after start')

  const bare = await startProcess(['-e', 'require("node:http").createServer((q, r) => r.end()).listen(0, "127.0.0.1", () => console.log("ready"))'], process.env, /ready/)
  floor = bare.child
  await sleep(SETTLE_MS)
  floorMiB = rssMiB(floor.pid!)
}, 120_000)

afterAll(async () => {
  socket?.close()
  host?.kill('SIGTERM')
  floor?.kill('SIGTERM')
  await sleep(500)
  await model?.close()
  const table = rows.map((row) => `| ${row.when} | ${row.rssMiB.toFixed(1)} | ${row.parts} | ${floorMiB.toFixed(1)} | ${(row.rssMiB / floorMiB).toFixed(2)}× |`)
  console.log(
    `\ndeskclaw web RSS (MiB; ${RUNS_PER_ROUND} runs per round, each a tool round trip in a new conversation; ${process.version}${hostFlags.length ? `; ${hostFlags.join(' ')}` : ''}):\n` +
      `| when | deskclaw web | anon / file / shmem | bare node http | ratio |\n| --- | ---: | ---: | ---: | ---: |\n${table.join('\n')}\n`
  )
  if (snapshots) console.log(`heap snapshots: ${readdirSync(root).filter((name) => name.endsWith('.heapsnapshot')).map((name) => join(root, name)).join('\n')}`)
  else rmSync(root, { recursive: true, force: true })
})

let round = 0
describe('deskclaw web memory', () => {
  bench(
    `${RUNS_PER_ROUND} runs over the bridge`,
    async () => {
      for (let i = 0; i < RUNS_PER_ROUND; i++) await oneRun()
      await measure(`after round ${++round} (${round * RUNS_PER_ROUND} runs)`)
    },
    { iterations: ROUNDS, time: 0, warmupIterations: 0, warmupTime: 0 }
  )
})
