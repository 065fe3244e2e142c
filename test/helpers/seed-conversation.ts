/**
 * A long stored conversation, written straight into the store through recordEvent (as the loop
 * would have recorded it): each run is the user's prompt, a short intro, `callsPerRun` file_list
 * calls one after another, and a closing answer. For the message-list tests and benches.
 */
import type { DeskclawApp } from '../../src/main/app'
import type { AgentEvent } from '../../src/shared'

export interface SeededConversation {
  id: string
  /** The closing answer of the last run (what the list shows at its bottom). */
  lastAnswer: string
  calls: number
}

export function seedToolConversation(
  app: DeskclawApp,
  { runs, callsPerRun, title }: { runs: number; callsPerRun: number; title: string }
): SeededConversation {
  const store = app.store
  const id = store.createConversation(title).id
  // In the past, 10 ms between events, so the conversation ends before now.
  let at = Date.now() - runs * (callsPerRun * 2 + 10) * 10
  const tick = () => (at += 10)
  let lastAnswer = ''
  for (let r = 0; r < runs; r++) {
    const runId = `run_seed_${id}_${r}`
    const scope = { runId, conversationId: id }
    const prompt = `Step ${r + 1}: list every folder of the project`
    // The store stamps the user's message with the clock: this run's time, so it sorts first.
    const realNow = Date.now
    const stamp = tick()
    Date.now = () => stamp
    try {
      store.addUserMessage(id, runId, prompt)
    } finally {
      Date.now = realNow
    }
    const record = (event: AgentEvent) => store.recordEvent(event)
    record({ type: 'run_started', ...scope, at: tick(), prompt, model: 'scripted-model' })
    record({ type: 'text_delta', ...scope, at: tick(), messageId: `msg_intro_${runId}`, delta: `Listing ${callsPerRun} folders.` })
    for (let c = 0; c < callsPerRun; c++) {
      const callId = `call_${runId}_${c}`
      const path = `src/module-${c}`
      record({ type: 'tool_call_started', ...scope, at: tick(), callId, tool: 'file_list', args: { path }, summary: path })
      record({
        type: 'risk_assessed',
        ...scope,
        at: at,
        callId,
        tool: 'file_list',
        assessment: { verdict: 'allow', findings: [], alwaysRule: null },
        action: 'allow',
        source: 'policy'
      })
      record({
        type: 'tool_call_completed',
        ...scope,
        at: tick(),
        callId,
        tool: 'file_list',
        status: 'completed',
        isError: false,
        output: `index.ts\nparser.ts\nREADME.md\n`,
        durationMs: 3
      })
    }
    lastAnswer = `Run ${r + 1} done: ${callsPerRun} folders listed.`
    record({ type: 'text_delta', ...scope, at: tick(), messageId: `msg_answer_${runId}`, delta: lastAnswer })
    record({ type: 'run_completed', ...scope, at: tick(), text: lastAnswer, stopReason: 'final', iterations: 2, usage: {} })
  }
  return { id, lastAnswer, calls: runs * callsPerRun }
}
