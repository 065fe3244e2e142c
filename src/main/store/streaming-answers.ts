import type { AgentEventOf } from '../../shared'
import type { Statements } from './statements'

/** How often the row of an answer still streaming is brought up to date (docs/architecture.md, "Store"). */
export const PARTIAL_TEXT_MS = 250

interface OpenAnswer {
  messageId: string
  /** The text so far, in pieces joined once per write: appending to one string per delta is quadratic in SQLite. */
  pieces: string[]
  /** Pieces not yet in the row. */
  dirty: boolean
  writtenAt: number
}

/**
 * The assistant message a run is streaming, kept in memory and written to its row when the message
 * ends (another event of the run) and at most every PARTIAL_TEXT_MS before that — not per delta,
 * which rewrote the whole row (and, for a message without a running run, its full-text index) per
 * token. Every delta is in the event log all the same, committed with its batch; recovery rebuilds
 * a crashed run's answers from there (`rebuildInterrupted`).
 */
export class StreamingAnswers {
  private readonly open = new Map<string, OpenAnswer>()

  constructor(private readonly statements: Statements) {}

  /** Runs inside the write transaction, after the delta itself was appended to the event log. */
  add(event: AgentEventOf<'text_delta'>, now: number): void {
    const current = this.open.get(event.runId)
    if (current?.messageId === event.messageId) {
      current.pieces.push(event.delta)
      current.dirty = true
      return
    }
    if (current) this.end(event.runId)
    const s = this.statements
    if (s.messageExists.get(event.messageId) === undefined) {
      s.insertMessage.run({
        id: event.messageId,
        conversationId: event.conversationId,
        runId: event.runId,
        role: 'assistant',
        content: event.delta,
        at: event.at
      })
      this.open.set(event.runId, { messageId: event.messageId, pieces: [event.delta], dirty: false, writtenAt: now })
      return
    }
    // A message this process does not hold (written before a restart or a failed batch): its text is
    // every delta of it in the log, this one included.
    const text = s.answerTextFromEvents.get({ conversationId: event.conversationId, runId: event.runId, messageId: event.messageId }) ?? event.delta
    this.open.set(event.runId, { messageId: event.messageId, pieces: [text], dirty: true, writtenAt: 0 })
  }

  /** The run moved on (a tool call, its end): its message is complete, so its row gets the whole text. */
  end(runId: string): void {
    const answer = this.open.get(runId)
    if (!answer) return
    this.open.delete(runId)
    if (answer.dirty) this.write(answer, 0)
  }

  /** Writes rows whose text is older than PARTIAL_TEXT_MS (all of them with `all`). Inside a write transaction. */
  writeDue(now: number, all: boolean): void {
    for (const answer of this.open.values()) {
      if (answer.dirty && (all || now - answer.writtenAt >= PARTIAL_TEXT_MS)) this.write(answer, now)
    }
  }

  /** Forgets what memory holds for these runs (their batch was rolled back); the event log is the truth. */
  forget(runIds: Iterable<string>): void {
    for (const runId of runIds) this.open.delete(runId)
  }

  private write(answer: OpenAnswer, now: number): void {
    const text = answer.pieces.length === 1 ? answer.pieces[0]! : answer.pieces.join('')
    answer.pieces = [text]
    answer.dirty = false
    answer.writtenAt = now
    this.statements.setMessageContent.run({ id: answer.messageId, content: text })
  }
}
