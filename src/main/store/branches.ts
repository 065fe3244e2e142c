import type Database from 'better-sqlite3'
import {
  AppError,
  conversationPath,
  questionOfRun,
  parentRunOf,
  runsUpTo,
  type BranchQuestion,
  type BranchRun
} from '../../shared'

/**
 * What a new run starts from (agent.send): a question after an answer, the same question asked
 * again (a new version of its answer), or an edited question (a new branch where the old one was
 * asked). docs/architecture.md, "Message versions".
 */
export type TurnRequest =
  | { kind: 'ask'; text: string; /** Absent: after the last answer of the newest branch. */ parentRunId?: string }
  | { kind: 'regenerate'; runId: string }
  | { kind: 'edit'; messageId: string; text: string }

/** A turn placed in the tree: its question and what the model sees before it. */
export interface TurnStart {
  /** The question the run answers (new, or the one asked again) and the run it follows. */
  question: { id: string; parentRunId: string | null; text: string }
  /** The model messages of the runs on the question's path, without any other branch. */
  history: unknown[]
  /**
   * Regenerate: the question's user message as its first run stored it (with its attachments'
   * markers and inlined files), to be asked again exactly; absent when that was not stored.
   */
  askedBefore?: unknown
}

/** Where a turn goes in the tree, and the runs whose model messages come before its question. */
export interface TurnPlan {
  /** Regenerate: the question asked again; otherwise a new question is added. */
  existingQuestionId: string | null
  /** Regenerate: the run that first answered the question (its first model message is the question). */
  firstRunId: string | null
  text: string
  parentRunId: string | null
  historyRunIds: string[]
}

interface QuestionRow {
  id: string
  run_id: string | null
  parent_run_id: string | null
  content: string
  created_at: number
}

interface RunLinkRow {
  id: string
  answers_message_id: string | null
  started_at: number
}

/**
 * The store's side of message versions (schema 8): the question/answer tree of a conversation as
 * the shared branch functions read it (src/shared/branches.ts), and the model messages of a path.
 */
export class ConversationBranches {
  private readonly questions: Database.Statement<[string], QuestionRow>
  private readonly runs: Database.Statement<[string], RunLinkRow>
  private readonly modelMessagesOfRuns: Database.Statement<[string, string], string>
  private readonly firstModelMessage: Database.Statement<[string, string], string>

  constructor(db: Database.Database) {
    this.questions = db.prepare(
      `SELECT id, run_id, parent_run_id, content, created_at FROM messages
       WHERE conversation_id = ? AND role = 'user' ORDER BY seq`
    )
    this.runs = db.prepare(
      `SELECT id, answers_message_id, started_at FROM runs WHERE conversation_id = ? ORDER BY started_at, rowid`
    )
    // seq order is run order: a conversation runs one run at a time, so a run's messages all come
    // after those of the runs before it on its path.
    this.modelMessagesOfRuns = db
      .prepare<[string, string], string>(
        `SELECT data FROM model_messages
         WHERE conversation_id = ? AND run_id IN (SELECT value FROM json_each(?)) ORDER BY seq`
      )
      .pluck()
    this.firstModelMessage = db
      .prepare<[string, string], string>(
        `SELECT data FROM model_messages WHERE conversation_id = ? AND run_id = ? ORDER BY seq LIMIT 1`
      )
      .pluck()
  }

  /** The run a new question follows when none is named: the end of the newest branch. */
  tipRunId(conversationId: string): string | null {
    const { questions, runs } = this.tree(conversationId)
    return conversationPath(questions, runs).tipRunId
  }

  /** Where a turn goes; throws NOT_FOUND for a run or message that is not this conversation's. */
  plan(conversationId: string, request: TurnRequest): TurnPlan {
    const { questions, runs, rows } = this.tree(conversationId)
    const history = (parentRunId: string | null) => runsUpTo(questions, runs, parentRunId)
    switch (request.kind) {
      case 'ask': {
        const known = new Set([...runs.map((run) => run.id), ...questions.flatMap((q) => (q.runId ? [q.runId] : []))])
        if (request.parentRunId !== undefined && !known.has(request.parentRunId)) {
          throw new AppError('NOT_FOUND', `Run ${request.parentRunId} is not part of this conversation.`)
        }
        const parentRunId = request.parentRunId ?? conversationPath(questions, runs).tipRunId
        return { existingQuestionId: null, firstRunId: null, text: request.text, parentRunId, historyRunIds: history(parentRunId) }
      }
      case 'regenerate': {
        const question = questionOfRun(questions, runs, request.runId)
        if (!question) throw new AppError('NOT_FOUND', `Run ${request.runId} has no question in this conversation to ask again.`)
        const parentRunId = parentRunOf(questions, question.id) ?? null
        const text = rows.find((row) => row.id === question.id)?.content ?? ''
        return { existingQuestionId: question.id, firstRunId: question.runId, text, parentRunId, historyRunIds: history(parentRunId) }
      }
      case 'edit': {
        const parentRunId = parentRunOf(questions, request.messageId)
        if (parentRunId === undefined) {
          throw new AppError('NOT_FOUND', `Message ${request.messageId} is not a question of this conversation.`)
        }
        return { existingQuestionId: null, firstRunId: null, text: request.text, parentRunId, historyRunIds: history(parentRunId) }
      }
    }
  }

  /** The user message a run was asked with (its first model message), if it is stored. */
  askedIn(conversationId: string, runId: string): unknown {
    const data = this.firstModelMessage.get(conversationId, runId)
    if (data === undefined) return undefined
    const message = JSON.parse(data) as { role?: unknown }
    return message.role === 'user' ? message : undefined
  }

  /** The model messages of these runs, in the order they were written. */
  modelMessages(conversationId: string, runIds: readonly string[]): unknown[] {
    if (runIds.length === 0) return []
    return this.modelMessagesOfRuns.all(conversationId, JSON.stringify(runIds)).map((data) => JSON.parse(data) as unknown)
  }

  private tree(conversationId: string): { questions: BranchQuestion[]; runs: BranchRun[]; rows: QuestionRow[] } {
    const rows = this.questions.all(conversationId)
    return {
      rows,
      questions: rows.map((row) => ({ id: row.id, runId: row.run_id, parentRunId: row.parent_run_id, createdAt: row.created_at })),
      runs: this.runs.all(conversationId).map((row) => ({ id: row.id, answersMessageId: row.answers_message_id, startedAt: row.started_at }))
    }
  }
}
