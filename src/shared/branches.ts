/**
 * Message versions (docs/architecture.md, "Message versions"). A conversation is a tree of
 * questions and the runs that answer them: a question follows a run (`parentRunId`; null for the
 * first question), and a run answers one question (`answersMessageId`). "Regenerate" adds a run to
 * a question; "edit and resend" adds a question next to the old one, after the same run.
 *
 * One path through the tree is shown, continued and sent to the model: at each fork the child the
 * person paged to, else the one with the newest activity under it (so a reload shows the branch
 * last worked on). Pure: the store (main) and the chat view (renderer) both use it.
 */

/** A user message as the tree sees it. */
export interface BranchQuestion {
  id: string
  /** The run that first answered it (for rows that predate `answersMessageId`). */
  runId: string | null
  /** The run it follows; null: the first question. Absent (older snapshots): after the previous question. */
  parentRunId?: string | null
  createdAt: number
}

/** A run as the tree sees it. */
export interface BranchRun {
  id: string
  /** The question it answers; absent or null: the question whose `runId` is this run, if any. */
  answersMessageId?: string | null
  startedAt: number
}

/** What the person paged to, per fork (questionForkKey / answerForkKey → the chosen child's id). */
export type BranchChoices = Readonly<Record<string, string>>

/** The children of one fork, oldest first, and which of them is on the path. */
export interface Versions {
  forkKey: string
  ids: readonly string[]
  index: number
}

export interface BranchTurn {
  questionId: string
  /** The answer shown (null: the question has no run). */
  runId: string | null
  /** The question and its edited versions. */
  questionVersions: Versions
  /** The answers to the question (regenerated versions); null when it has none. */
  answerVersions: Versions | null
}

export interface ConversationPath {
  turns: BranchTurn[]
  /** The last answer on the path: what a new question follows (null: none yet). */
  tipRunId: string | null
  /** Questions and runs on other branches: not shown and never sent to the model. */
  hiddenQuestionIds: ReadonlySet<string>
  hiddenRunIds: ReadonlySet<string>
}

/** The fork of the questions that follow a run (null: the first questions of the conversation). */
export const questionForkKey = (parentRunId: string | null): string => `after:${parentRunId ?? ''}`
/** The fork of the answers to a question. */
export const answerForkKey = (questionId: string): string => `answers:${questionId}`

/** The path shown: `choices` where they still name a child of their fork, the newest activity elsewhere. */
export function conversationPath(
  questions: readonly BranchQuestion[],
  runs: readonly BranchRun[],
  choices: BranchChoices = {}
): ConversationPath {
  const tree = new BranchTree(questions, runs)
  const activity = tree.activity()
  const newest = (ids: readonly string[]): string =>
    ids.reduce((best, id) => ((activity.get(id) ?? 0) >= (activity.get(best) ?? 0) ? id : best))
  const pick = (forkKey: string, ids: readonly string[]): Versions => {
    const chosen = choices[forkKey]
    const id = chosen !== undefined && ids.includes(chosen) ? chosen : newest(ids)
    return { forkKey, ids, index: ids.indexOf(id) }
  }

  const turns: BranchTurn[] = []
  const hiddenQuestionIds = new Set<string>()
  const hiddenRunIds = new Set<string>()
  const hide = (ids: readonly string[], except: string, kind: 'question' | 'run') => {
    for (const id of ids) if (id !== except) tree.collectSubtree(kind, id, hiddenQuestionIds, hiddenRunIds)
  }

  let parent: string | null = null
  const seen = new Set<string>()
  for (;;) {
    const siblings = tree.questionsAfter(parent)
    if (siblings.length === 0) break
    const questionVersions = pick(questionForkKey(parent), siblings)
    const questionId = siblings[questionVersions.index]!
    hide(siblings, questionId, 'question')
    const answers = tree.answersTo(questionId)
    if (answers.length === 0) {
      turns.push({ questionId, runId: null, questionVersions, answerVersions: null })
      break
    }
    const answerVersions = pick(answerForkKey(questionId), answers)
    const runId = answers[answerVersions.index]!
    hide(answers, runId, 'run')
    turns.push({ questionId, runId, questionVersions, answerVersions })
    if (seen.has(runId)) break // malformed data (a loop): stop rather than spin
    seen.add(runId)
    parent = runId
  }
  return { turns, tipRunId: parent, hiddenQuestionIds, hiddenRunIds }
}

/** The runs from the first question down to `runId`, in order: whose model messages a run after it sees. */
export function runsUpTo(questions: readonly BranchQuestion[], runs: readonly BranchRun[], runId: string | null): string[] {
  const tree = new BranchTree(questions, runs)
  const chain: string[] = []
  const seen = new Set<string>()
  let current = runId
  while (current !== null && !seen.has(current)) {
    seen.add(current)
    chain.push(current)
    const question = tree.questionOf(current)
    current = question === undefined ? null : tree.parentOf(question)
  }
  return chain.reverse()
}

/** The question a run answers, if it is known. */
export function questionOfRun(questions: readonly BranchQuestion[], runs: readonly BranchRun[], runId: string): BranchQuestion | null {
  const tree = new BranchTree(questions, runs)
  const id = tree.questionOf(runId)
  return id === undefined ? null : (questions.find((q) => q.id === id) ?? null)
}

/** The run a question follows, as the tree reads it (absent parents: after the previous question). */
export function parentRunOf(questions: readonly BranchQuestion[], questionId: string): string | null | undefined {
  const tree = new BranchTree(questions, [])
  return tree.has(questionId) ? tree.parentOf(questionId) : undefined
}

class BranchTree {
  private readonly parent = new Map<string, string | null>()
  private readonly created = new Map<string, number>()
  private readonly children = new Map<string | null, string[]>()
  private readonly answers = new Map<string, string[]>()
  private readonly answered = new Map<string, string>()

  constructor(questions: readonly BranchQuestion[], runs: readonly BranchRun[]) {
    const questionIds = new Set(questions.map((q) => q.id))
    let previous: BranchQuestion | undefined
    for (const question of questions) {
      const parent = question.parentRunId !== undefined ? question.parentRunId : (previous?.runId ?? null)
      this.parent.set(question.id, parent)
      this.created.set(question.id, question.createdAt)
      push(this.children, parent, question.id)
      previous = question
    }
    const runIds = new Set(runs.map((r) => r.id))
    const firstAsker = new Map<string, string>()
    for (const question of questions) {
      if (question.runId !== null && !firstAsker.has(question.runId)) firstAsker.set(question.runId, question.id)
    }
    const linked: Array<{ id: string; question: string; at: number }> = []
    for (const run of runs) {
      const question = run.answersMessageId ?? firstAsker.get(run.id)
      if (question !== undefined && questionIds.has(question)) linked.push({ id: run.id, question, at: run.startedAt })
    }
    // A question whose run left no row (a crash before run_started) still has that run as its answer.
    for (const question of questions) {
      if (question.runId !== null && !runIds.has(question.runId) && firstAsker.get(question.runId) === question.id) {
        linked.push({ id: question.runId, question: question.id, at: question.createdAt })
      }
    }
    linked.sort((a, b) => a.at - b.at)
    for (const run of linked) {
      this.answered.set(run.id, run.question)
      this.created.set(run.id, run.at)
      push(this.answers, run.question, run.id)
    }
    for (const ids of this.children.values()) ids.sort((a, b) => (this.created.get(a) ?? 0) - (this.created.get(b) ?? 0))
  }

  has(questionId: string): boolean {
    return this.parent.has(questionId)
  }

  parentOf(questionId: string): string | null {
    return this.parent.get(questionId) ?? null
  }

  questionOf(runId: string): string | undefined {
    return this.answered.get(runId)
  }

  questionsAfter(runId: string | null): readonly string[] {
    return this.children.get(runId) ?? []
  }

  answersTo(questionId: string): readonly string[] {
    return this.answers.get(questionId) ?? []
  }

  /** The newest creation time in each node's subtree (questions and runs share one id space). */
  activity(): Map<string, number> {
    const result = new Map<string, number>()
    // Iterative post-order: a long conversation is a deep tree.
    const stack: Array<{ id: string; kind: 'question' | 'run'; open: boolean }> = this.questionsAfter(null).map((id) => ({
      id,
      kind: 'question',
      open: false
    }))
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!
      const kids = frame.kind === 'question' ? this.answersTo(frame.id) : this.questionsAfter(frame.id)
      const kidKind = frame.kind === 'question' ? 'run' : 'question'
      if (!frame.open) {
        frame.open = true
        if (result.has(frame.id)) {
          stack.pop()
          continue
        }
        result.set(frame.id, this.created.get(frame.id) ?? 0) // marks it visited before its children
        for (const id of kids) if (!result.has(id)) stack.push({ id, kind: kidKind, open: false })
        continue
      }
      stack.pop()
      let newest = result.get(frame.id) ?? 0
      for (const id of kids) newest = Math.max(newest, result.get(id) ?? 0)
      result.set(frame.id, newest)
    }
    return result
  }

  /** Adds a node and everything under it to the hidden sets. */
  collectSubtree(kind: 'question' | 'run', id: string, questions: Set<string>, runs: Set<string>): void {
    const stack: Array<{ kind: 'question' | 'run'; id: string }> = [{ kind, id }]
    while (stack.length > 0) {
      const node = stack.pop()!
      const set = node.kind === 'question' ? questions : runs
      if (set.has(node.id)) continue
      set.add(node.id)
      if (node.kind === 'question') for (const run of this.answersTo(node.id)) stack.push({ kind: 'run', id: run })
      else for (const question of this.questionsAfter(node.id)) stack.push({ kind: 'question', id: question })
    }
  }
}

function push<K>(map: Map<K, string[]>, key: K, value: string): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}
