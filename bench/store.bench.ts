/**
 * Store hot paths, each beside its floor in the same run (vitest prints both and the ratio in its
 * summary; no timing assertions, numbers are for docs/benchmarks.md):
 *  - 10,000 realistic events through recordEvent into a fresh file DB, against raw better-sqlite3
 *    writing the same 10,000 event rows in one transaction;
 *  - 10,000 and 40,000 text deltas into one answer, without a run (the old bench's own case) and
 *    recorded as real runs do (run_started … run_completed): linear means 4× the deltas, 4× the time;
 *  - opening (getConversation) a conversation of 10,000 messages.
 * Run: npx vitest bench --run --project unit bench/store.bench.ts  (-t interleaved: only the interleaved 10,000 events)
 * (without --project, both vitest projects pick the file up and it runs twice).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, bench, describe } from 'vitest'
import { SqliteConversationStore } from '../src/main/store'
import type { AgentEvent } from '../src/shared'

const EVENTS_PER_RUN = 1_000
const RUNS = 10 // 10 × 1,000 = 10,000 events
const TOOL_CALLS_PER_RUN = 9
const DELTAS_PER_STEP = 96
const OUTPUT_CHUNKS_PER_CALL = 6

const benchDir = fs.mkdtempSync(path.join(os.tmpdir(), 'deskclaw-store-bench-'))
let fileCounter = 0
const freshDbPath = (): string => path.join(benchDir, `bench-${fileCounter++}.db`)

afterAll(() => fs.rmSync(benchDir, { recursive: true, force: true }))

/**
 * One run as the loop emits it: per step ~96 token-sized text deltas, then a tool call that asks
 * for approval and streams output; a closing answer; padded with deltas to exactly EVENTS_PER_RUN.
 */
function realisticRun(conversationId: string, runId: string): AgentEvent[] {
  let at = Date.now()
  const base = (): { runId: string; conversationId: string; at: number } => ({ runId, conversationId, at: at++ })
  const events: AgentEvent[] = [{ ...base(), type: 'run_started', prompt: 'Refactor the parser', model: 'bench:model' }]
  const deltas = (messageId: string, count: number): void => {
    for (let i = 0; i < count; i++) events.push({ ...base(), type: 'text_delta', messageId, delta: ' token' })
  }
  for (let step = 0; step < TOOL_CALLS_PER_RUN; step++) {
    const callId = `call_${step}`
    const args = { command: `grep -rn parse src/ | head -${step + 10}` }
    deltas(`${runId}_msg_${step}`, DELTAS_PER_STEP)
    events.push({ ...base(), type: 'tool_call_started', callId, tool: 'shell', args })
    events.push({
      ...base(),
      type: 'approval_requested',
      approvalId: `${runId}_appr_${step}`,
      callId,
      tool: 'shell',
      args,
      reason: 'runs a command',
      preview: { title: { key: 'Run a command' }, fields: [{ label: { key: 'Command' }, value: args.command, code: true }] },
      assessment: { verdict: 'ask', findings: [], alwaysRule: null },
      bindingHash: `${runId}_hash_${step}`,
      expiresAt: at + 60_000
    })
    events.push({ ...base(), type: 'approval_resolved', approvalId: `${runId}_appr_${step}`, callId, answer: 'allow_once', by: 'user' })
    for (let chunk = 0; chunk < OUTPUT_CHUNKS_PER_CALL; chunk++) {
      events.push({ ...base(), type: 'tool_output_delta', callId, stream: 'stdout', chunk: 'src/parser.ts:42: parse(x)\n'.repeat(8) })
    }
    events.push({ ...base(), type: 'tool_call_completed', callId, tool: 'shell', status: 'completed', isError: false, output: 'ok', durationMs: 12 })
  }
  deltas(`${runId}_msg_final`, EVENTS_PER_RUN - events.length - 1)
  events.push({ ...base(), type: 'run_completed', text: 'Done.', stopReason: 'final', iterations: 10, usage: { totalTokens: 5000 } })
  return events
}

function realisticEvents(conversationId: string): AgentEvent[] {
  return Array.from({ length: RUNS }, (_, run) => realisticRun(conversationId, `run_${run}`)).flat()
}

// Ids are rewritten per fresh DB, so build the 10,000 events once and only swap the conversation id.
const templateEvents = realisticEvents('conv_template')
if (templateEvents.length !== EVENTS_PER_RUN * RUNS) throw new Error(`expected 10,000 events, built ${templateEvents.length}`)

/** The floor: the same rows, written by better-sqlite3 alone into a bare events table in one transaction. */
function rawEventRows(events: readonly AgentEvent[]): void {
  const db = new Database(freshDbPath())
  // The store's own pragmas (sqlite-store.ts, configure): like with like from the open to the close.
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.pragma('foreign_keys = ON')
  db.pragma('busy_timeout = 5000')
  db.exec(`CREATE TABLE events (seq INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL, conversation_id TEXT NOT NULL,
           type TEXT NOT NULL, data TEXT NOT NULL, at INTEGER NOT NULL)`)
  const insert = db.prepare('INSERT INTO events (run_id, conversation_id, type, data, at) VALUES (?, ?, ?, ?, ?)')
  db.transaction(() => {
    for (const event of events) insert.run(event.runId, 'conv_raw', event.type, JSON.stringify(event), event.at)
  })()
  db.close()
}

/** A second floor: the same rows in one transaction into DeskClaw's own events table (schema 11: one index, no foreign key). */
function rawRowsIntoStoreSchema(events: readonly AgentEvent[]): void {
  const file = freshDbPath()
  SqliteConversationStore.open(file).close()
  const db = new Database(file)
  db.pragma('foreign_keys = ON')
  db.prepare(`INSERT INTO conversations (id, title, created_at, updated_at) VALUES ('conv_raw', '', 0, 0)`).run()
  const insert = db.prepare('INSERT INTO events (run_id, conversation_id, type, data, at) VALUES (?, ?, ?, ?, ?)')
  db.transaction(() => {
    for (const event of events) insert.run(event.runId, 'conv_raw', event.type, JSON.stringify(event), event.at)
  })()
  db.close()
}

function recordAll(events: readonly AgentEvent[], conversationId?: string, batchMaxItems?: number): void {
  const store = SqliteConversationStore.open(freshDbPath(), { batchMaxItems })
  const id = conversationId ?? store.createConversation().id
  for (const event of events) store.recordEvent({ ...event, conversationId: id })
  store.close()
}

/** `count` deltas of one answer; `withRun`: between run_started and run_completed, as the loop records them. */
function answerDeltas(count: number, withRun: boolean): AgentEvent[] {
  const base = { runId: 'run_1', conversationId: 'conv_template' } as const
  const events: AgentEvent[] = []
  if (withRun) events.push({ ...base, type: 'run_started', at: 0, prompt: 'Write a long answer', model: 'bench:model' })
  for (let i = 0; i < count; i++) events.push({ ...base, type: 'text_delta', at: i, messageId: 'msg_long', delta: ' token' })
  if (withRun) events.push({ ...base, type: 'run_completed', at: count, text: '', stopReason: 'final', iterations: 1, usage: {} })
  return events
}

const deltas10k = answerDeltas(10_000, false)
const deltas40k = answerDeltas(40_000, false)
const runDeltas10k = answerDeltas(10_000, true)
const runDeltas40k = answerDeltas(40_000, true)

describe('10,000 events', () => {
  bench('floor: raw better-sqlite3, 10,000 event rows in one transaction (incl. open)', () => rawEventRows(templateEvents))
  bench('floor 2: raw better-sqlite3, the same rows into the store\'s own schema (incl. open + migrate)', () => rawRowsIntoStoreSchema(templateEvents))
  bench('store: write 10,000 events into a fresh file DB (incl. open + migrate)', () => recordAll(templateEvents))
  bench('open + migrate a fresh file DB alone', () => SqliteConversationStore.open(freshDbPath()).close())
})

/**
 * The same four, interleaved: each sample runs all of them once, so a burst of the machine's other
 * load falls on every case alike; medians are printed beside the floor's. On a loaded machine this
 * is the ratio to quote (docs/benchmarks.md, "Store"); tinybench's own figures for it are the sum.
 */
const interleaved = new Map<string, number[]>(
  ['floor', 'floor 2', 'store', 'store, batches of 512', 'store, batches of 4,096', 'open + migrate'].map((name) => [name, []])
)
/** CPU time (user + system) of the same samples: what the machine's other load moves least. */
const interleavedCpu = new Map<string, number[]>([...interleaved.keys()].map((name) => [name, []]))
const interleavedCases: Record<string, () => void> = {
  floor: () => rawEventRows(templateEvents),
  'floor 2': () => rawRowsIntoStoreSchema(templateEvents),
  store: () => recordAll(templateEvents),
  // The batch bound (commit-batches.ts, 2,048) against others: the bench records synchronously, so every bound
  // is reached (runs of 1,000 events, each committed at once at its start and end: 2,048 and 4,096 make the same batches).
  'store, batches of 512': () => recordAll(templateEvents, undefined, 512),
  'store, batches of 4,096': () => recordAll(templateEvents, undefined, 4_096),
  'open + migrate': () => SqliteConversationStore.open(freshDbPath()).close()
}
const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN

describe('10,000 events, interleaved', () => {
  bench(
    'floor, floor 2, store (batches of 2,048 as shipped, 512, 4,096), open + migrate: one of each per sample',
    () => {
      for (const [name, run] of Object.entries(interleavedCases)) {
        const cpu = process.cpuUsage()
        const started = performance.now()
        run()
        interleaved.get(name)!.push(performance.now() - started)
        const used = process.cpuUsage(cpu)
        interleavedCpu.get(name)!.push((used.user + used.system) / 1000)
      }
    },
    { time: 0, iterations: 25 }
  )
})

afterAll(() => {
  const floor = median(interleaved.get('floor')!)
  const floorCpu = median(interleavedCpu.get('floor')!)
  const rows = [...interleaved].map(([name, values]) => {
    const cpu = median(interleavedCpu.get(name)!)
    return `| ${name} | ${median(values).toFixed(1)} | ${Math.min(...values).toFixed(1)} | ${(median(values) / floor).toFixed(2)}× | ${cpu.toFixed(1)} | ${(cpu / floorCpu).toFixed(2)}× |`
  })
  console.log(
    `\n10,000 events, interleaved, medians of ${interleaved.get('floor')!.length} samples (ms):\n` +
      `| case | wall median | wall min | ÷ floor | CPU median | ÷ floor |\n| --- | ---: | ---: | ---: | ---: | ---: |\n${rows.join('\n')}\n`
  )
})

describe('deltas into one answer', () => {
  bench('floor: raw better-sqlite3, 10,000 delta rows in one transaction (incl. open)', () => rawEventRows(deltas10k))
  bench('store: 10,000 deltas, no run recorded (~60 KB answer, incl. open)', () => recordAll(deltas10k))
  bench('store: 10,000 deltas, run recorded as real runs do (incl. open)', () => recordAll(runDeltas10k))
  bench('floor: raw better-sqlite3, 40,000 delta rows in one transaction (incl. open)', () => rawEventRows(deltas40k))
  bench('store: 40,000 deltas, no run recorded (~240 KB answer, incl. open)', () => recordAll(deltas40k))
  bench('store: 40,000 deltas, run recorded (incl. open)', () => recordAll(runDeltas40k))
})

/** A conversation of 10,000 messages (5,000 user/assistant pairs, each ~300 chars) plus 1,000 tool calls. */
function buildLargeConversation(): { store: SqliteConversationStore; conversationId: string } {
  const store = SqliteConversationStore.open(freshDbPath())
  const conversationId = store.createConversation().id
  const reply = 'Here is what I found in the workspace. '.repeat(8)
  for (let pair = 0; pair < 5_000; pair++) {
    const runId = `run_${pair}`
    const at = Date.now()
    store.addUserMessage(conversationId, runId, `Question number ${pair}: what does this function do?`)
    store.recordEvent({ type: 'text_delta', runId, conversationId, at, messageId: `msg_${pair}`, delta: reply })
    if (pair % 5 === 0) {
      const call = { runId, conversationId, at, callId: 'call_1', tool: 'read_file' }
      store.recordEvent({ ...call, type: 'tool_call_started', args: { path: `src/file${pair}.ts` } })
      store.recordEvent({ ...call, type: 'tool_call_completed', status: 'completed', isError: false, output: 'x'.repeat(500), durationMs: 3 })
    }
  }
  return { store, conversationId }
}

describe('getConversation', () => {
  // Built in beforeAll, not while collecting: a run filtered to other cases (-t) skips it.
  let large: ReturnType<typeof buildLargeConversation>
  beforeAll(() => {
    large = buildLargeConversation()
  })
  afterAll(() => large?.store.close())

  bench('open a conversation of 10,000 messages + 1,000 tool calls', () => {
    const detail = large.store.getConversation(large.conversationId)
    if (detail?.messages.length !== 10_000) throw new Error('expected 10,000 messages')
  })
})
