/**
 * Message versions in the store (docs/architecture.md, "Message versions"): where beginTurn puts a
 * question, and that the model history it returns is the one path being continued, never another
 * version of an answer or a question.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { conversationPath, type BranchChoices, answerForkKey } from '../../../src/shared'
import { exportConversation, type SqliteConversationStore, type TurnRequest } from '../../../src/main/store'
import { openStore, runEvents } from './helpers'

let runCounter = 0
let clock = 0

// One clock for the store's stamps (questions) and the events (runs), 10 ms per turn.
beforeEach(() => {
  clock = Date.UTC(2030, 0, 1)
  vi.spyOn(Date, 'now').mockImplementation(() => clock)
})
afterEach(() => {
  vi.restoreAllMocks()
})

/** One turn as AgentService runs it: beginTurn, run_started with the question, model messages, an answer. */
function turn(store: SqliteConversationStore, conversationId: string, request: TurnRequest, answer: string) {
  const runId = `run_${++runCounter}`
  clock += 10
  const started = store.beginTurn(conversationId, runId, request)
  const event = runEvents(conversationId, runId, clock + 1)
  store.recordEvent(event('run_started', { prompt: started.question.text, model: 'm', question: { id: started.question.id, parentRunId: started.question.parentRunId } }))
  store.appendModelMessages(conversationId, runId, [
    { role: 'user', content: started.question.text },
    { role: 'assistant', content: [{ type: 'text', text: answer }] }
  ])
  store.recordEvent(event('text_delta', { messageId: `msg_answer_${runId}`, delta: answer }))
  store.recordEvent(event('run_completed', { text: answer, stopReason: 'final', iterations: 1, usage: {} }))
  return { runId, questionId: started.question.id, parentRunId: started.question.parentRunId, history: started.history }
}

/** The texts of model messages, for short assertions. */
function texts(history: unknown[]): string[] {
  return history.map((message) => {
    const { content } = message as { content: string | Array<{ text: string }> }
    return typeof content === 'string' ? content : content.map((part) => part.text).join('')
  })
}

function shownPath(store: SqliteConversationStore, conversationId: string, choices: BranchChoices = {}) {
  const detail = store.getConversation(conversationId)!
  const questions = detail.messages.filter((m) => m.role === 'user')
  return conversationPath(questions, detail.runs, choices)
}

describe('message versions: history building', () => {
  it('a new question continues the newest branch, with every earlier turn in its history', () => {
    const store = openStore()
    const { id } = store.createConversation()
    const first = turn(store, id, { kind: 'ask', text: 'Q1' }, 'A1')
    const second = turn(store, id, { kind: 'ask', text: 'Q2' }, 'A2')

    expect(first.parentRunId).toBeNull()
    expect(first.history).toEqual([])
    expect(second.parentRunId).toBe(first.runId)
    expect(texts(second.history)).toEqual(['Q1', 'A1'])
    const detail = store.getConversation(id)!
    expect(detail.messages.filter((m) => m.role === 'user').map((m) => m.parentRunId)).toEqual([null, first.runId])
    expect(detail.runs.map((r) => r.answersMessageId)).toEqual([first.questionId, second.questionId])
  })

  it('regenerate asks the same question again without the old answer, and keeps the old answer as a version', () => {
    const store = openStore()
    const { id } = store.createConversation()
    const first = turn(store, id, { kind: 'ask', text: 'Q1' }, 'A1')
    const second = turn(store, id, { kind: 'ask', text: 'Q2' }, 'A2 old')
    const again = turn(store, id, { kind: 'regenerate', runId: second.runId }, 'A2 new')

    expect(again.questionId).toBe(second.questionId)
    expect(again.parentRunId).toBe(first.runId)
    expect(texts(again.history)).toEqual(['Q1', 'A1'])
    // No new question: the old one is answered twice.
    const detail = store.getConversation(id)!
    expect(detail.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['Q1', 'Q2'])
    const path = shownPath(store, id)
    expect(path.turns.at(-1)).toMatchObject({ questionId: second.questionId, runId: again.runId })
    expect(path.turns.at(-1)?.answerVersions).toMatchObject({ ids: [second.runId, again.runId], index: 1 })
    expect([...path.hiddenRunIds]).toEqual([second.runId])

    // The next question follows the new answer, and its history has no trace of the old one.
    const third = turn(store, id, { kind: 'ask', text: 'Q3' }, 'A3')
    expect(third.parentRunId).toBe(again.runId)
    expect(texts(third.history)).toEqual(['Q1', 'A1', 'Q2', 'A2 new'])
  })

  it('edit and resend branches where the question was asked: the old question and all after it are left out', () => {
    const store = openStore()
    const { id } = store.createConversation()
    const first = turn(store, id, { kind: 'ask', text: 'Q1' }, 'A1')
    const second = turn(store, id, { kind: 'ask', text: 'Q2' }, 'A2')
    turn(store, id, { kind: 'ask', text: 'Q3' }, 'A3')
    const edited = turn(store, id, { kind: 'edit', messageId: second.questionId, text: 'Q2 edited' }, 'A2 for the edit')

    expect(edited.questionId).not.toBe(second.questionId)
    expect(edited.parentRunId).toBe(first.runId)
    expect(texts(edited.history)).toEqual(['Q1', 'A1'])
    const after = turn(store, id, { kind: 'ask', text: 'Q4' }, 'A4')
    expect(texts(after.history)).toEqual(['Q1', 'A1', 'Q2 edited', 'A2 for the edit'])

    // The old branch is all still there, one page back on the question.
    const path = shownPath(store, id)
    expect(path.turns.map((t) => t.questionId)).toEqual([first.questionId, edited.questionId, after.questionId])
    expect(path.turns[1]?.questionVersions).toMatchObject({ ids: [second.questionId, edited.questionId], index: 1 })
    expect(store.getConversation(id)!.messages.filter((m) => m.role === 'user')).toHaveLength(5)
  })

  it('editing the first question starts from an empty history', () => {
    const store = openStore()
    const { id } = store.createConversation()
    const first = turn(store, id, { kind: 'ask', text: 'Q1' }, 'A1')
    const edited = turn(store, id, { kind: 'edit', messageId: first.questionId, text: 'Q1 again' }, 'A1 again')
    expect(edited.parentRunId).toBeNull()
    expect(edited.history).toEqual([])
    expect(shownPath(store, id).turns[0]?.questionVersions.ids).toEqual([first.questionId, edited.questionId])
  })

  it('continuing after paging back to an older answer continues that branch', () => {
    const store = openStore()
    const { id } = store.createConversation()
    const first = turn(store, id, { kind: 'ask', text: 'Q1' }, 'A1 old')
    const regenerated = turn(store, id, { kind: 'regenerate', runId: first.runId }, 'A1 new')
    // The person pages back to the first answer; the chat sends the answer it shows.
    const paged = shownPath(store, id, { [answerForkKey(first.questionId)]: first.runId })
    expect(paged.tipRunId).toBe(first.runId)
    const next = turn(store, id, { kind: 'ask', text: 'Q2', parentRunId: paged.tipRunId! }, 'A2')

    expect(next.parentRunId).toBe(first.runId)
    expect(texts(next.history)).toEqual(['Q1', 'A1 old'])
    // Reopened without choices, the chat shows the branch last worked on: the old answer, then Q2.
    const reopened = shownPath(store, id)
    expect(reopened.turns.map((t) => t.runId)).toEqual([first.runId, next.runId])
    expect(reopened.turns[0]?.answerVersions).toMatchObject({ ids: [first.runId, regenerated.runId], index: 0 })
    // And a question sent without naming a branch goes there too.
    const last = turn(store, id, { kind: 'ask', text: 'Q3' }, 'A3')
    expect(texts(last.history)).toEqual(['Q1', 'A1 old', 'Q2', 'A2'])
  })

  it('addUserMessage (older callers, the CLI seeds) still appends to the newest branch', () => {
    const store = openStore()
    const { id } = store.createConversation()
    const first = turn(store, id, { kind: 'ask', text: 'Q1' }, 'A1')
    const again = turn(store, id, { kind: 'regenerate', runId: first.runId }, 'A1 new')
    const message = store.addUserMessage(id, 'run_plain', 'Q2')
    expect(message.parentRunId).toBe(again.runId)
  })

  it('refuses runs and messages that are not this conversation’s, and questions that are not questions', () => {
    const store = openStore()
    const a = store.createConversation()
    const b = store.createConversation()
    const inA = turn(store, a.id, { kind: 'ask', text: 'Q1' }, 'A1')
    expect(() => store.beginTurn(b.id, 'run_x', { kind: 'regenerate', runId: inA.runId })).toThrow(/no question in this conversation/)
    expect(() => store.beginTurn(b.id, 'run_x', { kind: 'edit', messageId: inA.questionId, text: 'x' })).toThrow(/not a question/)
    expect(() => store.beginTurn(b.id, 'run_x', { kind: 'ask', text: 'x', parentRunId: inA.runId })).toThrow(/not part of this conversation/)
    expect(() => store.beginTurn(a.id, 'run_x', { kind: 'edit', messageId: `msg_answer_${inA.runId}`, text: 'x' })).toThrow(/not a question/)
    expect(() => store.beginTurn('conv_missing', 'run_x', { kind: 'ask', text: 'x' })).toThrow(/not found/)
    // Nothing was added by the refused turns.
    expect(store.getConversation(b.id)!.messages).toEqual([])
  })
})

describe('message versions: export and search', () => {
  it('Markdown exports the branch on screen (default: the one the chat opens on) and says others exist; JSON has every version', () => {
    const store = openStore()
    const { id } = store.createConversation('Colours')
    const first = turn(store, id, { kind: 'ask', text: 'Name a colour' }, 'Blue')
    turn(store, id, { kind: 'regenerate', runId: first.runId }, 'Green')
    const detail = store.getConversation(id)!

    const newest = exportConversation(detail, 'markdown').content
    expect(newest).toContain('Green')
    expect(newest).not.toContain('Blue')
    expect(newest).toContain('other versions of its questions and answers are in the JSON export')
    const paged = exportConversation(detail, 'markdown', { choices: { [answerForkKey(first.questionId)]: first.runId } }).content
    expect(paged).toContain('Blue')
    expect(paged).not.toContain('Green')
    expect(exportConversation(detail, 'markdown', { language: 'zh-CN' }).content).toContain('其他版本在 JSON 导出中')

    const json = JSON.parse(exportConversation(detail, 'json').content) as { messages: Array<{ content: string; parentRunId?: string | null }>; runs: Array<{ answersMessageId?: string }> }
    expect(json.messages.map((m) => m.content)).toEqual(['Name a colour', 'Blue', 'Green'])
    expect(json.runs.map((r) => r.answersMessageId)).toEqual([first.questionId, first.questionId])
  })

  it('a conversation without versions exports as before, without the note', () => {
    const store = openStore()
    const { id } = store.createConversation('Plain')
    turn(store, id, { kind: 'ask', text: 'Hello' }, 'Hi')
    expect(exportConversation(store.getConversation(id)!, 'markdown').content).not.toContain('JSON export')
  })

  it('every version stays searchable', () => {
    const store = openStore()
    const { id } = store.createConversation()
    const first = turn(store, id, { kind: 'ask', text: 'Name a colour' }, 'Cerulean blue')
    turn(store, id, { kind: 'regenerate', runId: first.runId }, 'Emerald green')
    turn(store, id, { kind: 'edit', messageId: first.questionId, text: 'Name a fruit' }, 'Apricot')
    for (const word of ['Cerulean', 'Emerald', 'Apricot', 'colour', 'fruit']) {
      expect(store.searchConversations(word).map((result) => result.conversationId)).toEqual([id])
    }
  })
})
