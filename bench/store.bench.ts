/**
 * Store hot paths (no timing assertions; numbers are for the report):
 *  - writing 10,000 realistic events through recordEvent into a fresh file DB;
 *  - opening (getConversation) a conversation of 10,000 messages.
 * Run: npx vitest bench --run --project unit bench/store.bench.ts
 * (without --project, both vitest projects pick the file up and it runs twice).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, bench, describe } from 'vitest'
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

describe('recordEvent', () => {
  bench('open + migrate a fresh file DB (baseline to subtract)', () => {
    SqliteConversationStore.open(freshDbPath()).close()
  })

  bench('write 10,000 events into a fresh file DB (incl. open)', () => {
    const store = SqliteConversationStore.open(freshDbPath())
    const conversationId = store.createConversation().id
    for (const event of templateEvents) store.recordEvent({ ...event, conversationId })
    store.close()
  })

  // The worst case for `content = content || delta`: SQLite rewrites the whole row on every token.
  bench('write 10,000 text_delta into ONE message (~60 KB answer, incl. open)', () => {
    const store = SqliteConversationStore.open(freshDbPath())
    const conversationId = store.createConversation().id
    const event = { type: 'text_delta', runId: 'run_1', conversationId, messageId: 'msg_long', delta: ' token' } as const
    for (let i = 0; i < 10_000; i++) store.recordEvent({ ...event, at: i })
    store.close()
  })
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
  const large = buildLargeConversation()
  afterAll(() => large.store.close())

  bench('open a conversation of 10,000 messages + 1,000 tool calls', () => {
    const detail = large.store.getConversation(large.conversationId)
    if (detail?.messages.length !== 10_000) throw new Error('expected 10,000 messages')
  })
})
