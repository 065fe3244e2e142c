/**
 * The path through a conversation's versions (src/shared/branches.ts) and what the chat makes of it
 * (stores/versions.ts): which branch shows by default and after paging, what is left out, where
 * the pagers and Regenerate go. Pure functions, plain data.
 */
import { describe, expect, it } from 'vitest'
import {
  answerForkKey,
  conversationPath,
  questionForkKey,
  runsUpTo,
  type BranchQuestion,
  type BranchRun,
  type ChatMessage
} from '../../../src/shared'
import { buildTimeline, type ChatSnapshot, type RunView } from '../../../src/renderer/src/stores/reducers'
import { chatPath, RUN_END_ANCHOR, selectChatPath } from '../../../src/renderer/src/stores/versions'

const q = (id: string, runId: string | null, parentRunId: string | null, createdAt: number): BranchQuestion => ({ id, runId, parentRunId, createdAt })
const r = (id: string, answersMessageId: string | null, startedAt: number): BranchRun => ({ id, answersMessageId, startedAt })

/**
 * q1 ─ r1 ─ q2 ─ r2
 *    └ r3 (regenerated, newest answer to q1, nothing after it)
 *
 * then q2 edited: q2b after r1, answered by r4 (the newest of all).
 */
const QUESTIONS = [q('q1', 'r1', null, 10), q('q2', 'r2', 'r1', 20), q('q2b', 'r4', 'r1', 40)]
const RUNS = [r('r1', 'q1', 11), r('r2', 'q2', 21), r('r3', 'q1', 30), r('r4', 'q2b', 41)]

describe('conversationPath', () => {
  it('follows the newest activity at each fork by default', () => {
    const path = conversationPath(QUESTIONS, RUNS)
    // r1's subtree (q2b → r4 at 41) is newer than r3 (30), so q1 shows its first answer.
    expect(path.turns.map((t) => [t.questionId, t.runId])).toEqual([
      ['q1', 'r1'],
      ['q2b', 'r4']
    ])
    expect(path.turns[0]?.answerVersions).toEqual({ forkKey: answerForkKey('q1'), ids: ['r1', 'r3'], index: 0 })
    expect(path.turns[1]?.questionVersions).toEqual({ forkKey: questionForkKey('r1'), ids: ['q2', 'q2b'], index: 1 })
    expect(path.tipRunId).toBe('r4')
    expect([...path.hiddenQuestionIds]).toEqual(['q2'])
    expect([...path.hiddenRunIds].sort()).toEqual(['r2', 'r3'])
  })

  it('shows the versions paged to, and everything under them', () => {
    const olderQuestion = conversationPath(QUESTIONS, RUNS, { [questionForkKey('r1')]: 'q2' })
    expect(olderQuestion.turns.map((t) => t.runId)).toEqual(['r1', 'r2'])
    expect(olderQuestion.tipRunId).toBe('r2')
    expect([...olderQuestion.hiddenQuestionIds]).toEqual(['q2b'])

    const otherAnswer = conversationPath(QUESTIONS, RUNS, { [answerForkKey('q1')]: 'r3' })
    expect(otherAnswer.turns.map((t) => [t.questionId, t.runId])).toEqual([['q1', 'r3']])
    expect(otherAnswer.tipRunId).toBe('r3')
    // Everything after the other answer is on a hidden branch.
    expect([...otherAnswer.hiddenQuestionIds].sort()).toEqual(['q2', 'q2b'])
    expect([...otherAnswer.hiddenRunIds].sort()).toEqual(['r1', 'r2', 'r4'])
  })

  it('ignores a choice that names no child of its fork (a stale id)', () => {
    const path = conversationPath(QUESTIONS, RUNS, { [answerForkKey('q1')]: 'r_gone', [questionForkKey('r1')]: 'q1' })
    expect(path.turns.map((t) => t.runId)).toEqual(['r1', 'r4'])
  })

  it('reads rows from before schema 8 as one line (no links: each question after the one before)', () => {
    const questions = [
      { id: 'a', runId: 'ra', createdAt: 1 },
      { id: 'b', runId: 'rb', createdAt: 3 }
    ]
    const runs = [{ id: 'ra', startedAt: 2 }, { id: 'rb', startedAt: 4 }]
    const path = conversationPath(questions, runs)
    expect(path.turns.map((t) => [t.questionId, t.runId])).toEqual([
      ['a', 'ra'],
      ['b', 'rb']
    ])
    expect(path.hiddenRunIds.size + path.hiddenQuestionIds.size).toBe(0)
  })

  it('a question whose run left no row still answers with that run; a question with no run ends the path', () => {
    const path = conversationPath([q('a', 'ra', null, 1), q('b', null, 'ra', 3)], [])
    expect(path.turns.map((t) => [t.questionId, t.runId])).toEqual([
      ['a', 'ra'],
      ['b', null]
    ])
    expect(path.tipRunId).toBe('ra')
  })

  it('survives links that loop (damaged data) without spinning', () => {
    const path = conversationPath([q('a', 'ra', 'ra', 1)], [r('ra', 'a', 2)])
    expect(path.turns).toEqual([])
  })

  it('an empty conversation has no path', () => {
    expect(conversationPath([], [])).toMatchObject({ turns: [], tipRunId: null })
  })
})

describe('runsUpTo', () => {
  it('lists the runs from the first question down to a run, never another branch', () => {
    expect(runsUpTo(QUESTIONS, RUNS, 'r4')).toEqual(['r1', 'r4'])
    expect(runsUpTo(QUESTIONS, RUNS, 'r2')).toEqual(['r1', 'r2'])
    expect(runsUpTo(QUESTIONS, RUNS, 'r3')).toEqual(['r3'])
    expect(runsUpTo(QUESTIONS, RUNS, null)).toEqual([])
  })
})

function message(id: string, role: 'user' | 'assistant', runId: string, createdAt: number, parentRunId?: string | null): ChatMessage {
  return {
    id,
    conversationId: 'c',
    runId,
    role,
    content: id,
    createdAt,
    ...(parentRunId !== undefined ? { parentRunId } : {})
  }
}

function run(id: string, answersMessageId: string, startedAt: number, status: RunView['status'] = 'completed'): RunView {
  return {
    id,
    conversationId: 'c',
    status,
    stopReason: status === 'completed' ? 'final' : null,
    error: null,
    startedAt,
    endedAt: startedAt + 5,
    iterations: null,
    usage: null,
    model: null,
    answersMessageId
  }
}

/** q1 answered twice (r1 with text, r2 a regenerate that only ran a tool), then q2 after r2. */
function snapshot(): ChatSnapshot {
  return {
    conversationId: 'c',
    messages: [message('q1', 'user', 'r1', 10, null), message('a1', 'assistant', 'r1', 12), message('q2', 'user', 'r3', 40, 'r2'), message('a3', 'assistant', 'r3', 42)],
    toolCalls: [
      {
        id: 'call_r2',
        conversationId: 'c',
        runId: 'r2',
        tool: 'file_list',
        args: {},
        status: 'completed',
        isError: false,
        output: '',
        startedAt: 31,
        endedAt: 32,
        durationMs: 1,
        segments: [],
        approval: null,
        risk: null
      }
    ],
    runs: [run('r1', 'q1', 11), run('r2', 'q1', 30), run('r3', 'q2', 41)]
  }
}

describe('chatPath (the chat view)', () => {
  it('leaves out the other branch and puts each answer’s actions on its last message, or an end row', () => {
    const shown = chatPath(snapshot())
    expect(shown.visible.messages.map((m) => m.id)).toEqual(['q1', 'q2', 'a3'])
    expect(shown.visible.toolCalls.map((c) => c.id)).toEqual(['call_r2'])
    expect(shown.answerVersions.r2).toMatchObject({ ids: ['r1', 'r2'], index: 1 })
    // r2 said nothing: its actions go on an end row made for it, after its tool call.
    expect(shown.answerAnchors).toEqual({ r2: RUN_END_ANCHOR, r3: 'a3' })
    expect([...shown.endRows]).toEqual(['r2'])
    const timeline = buildTimeline(shown.visible, shown.endRows)
    expect(timeline.map((item) => item.key)).toEqual(['m:q1', 't:call_r2', 'r:r2', 'm:q2', 'm:a3'])

    // Paged back to r1: its message carries the pager; q2 (after r2) is not shown.
    const back = chatPath(snapshot(), { [answerForkKey('q1')]: 'r1' })
    expect(back.visible.messages.map((m) => m.id)).toEqual(['q1', 'a1'])
    expect(back.visible.toolCalls).toEqual([])
    expect(back.answerAnchors).toEqual({ r1: 'a1' })
    expect(back.endRows.size).toBe(0)
  })

  it('a failed or cancelled answer keeps its actions with its note; a running one without text has none yet', () => {
    const state = snapshot()
    state.runs[2] = { ...run('r3', 'q2', 41), status: 'failed' }
    expect(chatPath(state).answerAnchors.r3).toBe(RUN_END_ANCHOR)
    expect(chatPath(state).endRows.has('r3')).toBe(false)
    state.runs[2] = run('r3', 'q2', 41, 'running')
    state.messages = state.messages.filter((m) => m.id !== 'a3')
    expect(chatPath(state).answerAnchors.r3).toBeUndefined()
  })

  it('returns the whole snapshot when nothing is hidden', () => {
    const state: ChatSnapshot = { conversationId: 'c', messages: [message('q1', 'user', 'r1', 10, null)], toolCalls: [], runs: [run('r1', 'q1', 11)] }
    expect(chatPath(state).visible).toBe(state)
  })

  it('selectChatPath keeps the versions objects while only streamed text changes, so rows do not re-render', () => {
    const first = snapshot()
    const a = selectChatPath({ snapshot: first, choices: {} })!
    const streamed: ChatSnapshot = { ...first, messages: first.messages.map((m) => (m.id === 'a3' ? { ...m, content: 'a3 and more' } : m)) }
    const b = selectChatPath({ snapshot: streamed, choices: {} })!
    expect(b.answerVersions).toBe(a.answerVersions)
    expect(b.questionVersions).toBe(a.questionVersions)
    expect(b.visible.messages.find((m) => m.id === 'a3')?.content).toBe('a3 and more')
    // A new choice is a new path.
    const c = selectChatPath({ snapshot: streamed, choices: { [answerForkKey('q1')]: 'r1' } })!
    expect(c.answerVersions).not.toBe(a.answerVersions)
    expect(c.answerAnchors).toEqual({ r1: 'a1' })
  })
})
